'use strict';
// An in-memory stand-in for native/quic.js (the interface in /docs/http3.md, "The transport"):
// connections and streams whose incoming bytes a test injects and whose written bytes it reads
// back, with write() returning false from a high-water mark until the test lets bytes "leave"
// (consume()), then ondrain. Also a tiny HTTP/3 client over it (FakeClient) that speaks
// through the engine's own frame codec and the project's QPACK, for the engine tests.

const { QpackEncoder, QpackDecoder } = require('../../native/qpack');
const { FRAME, FrameReader, encodeFrame } = require('../../server/engines/h3/frames');
const { encodeVarint, readVarint } = require('../../server/engines/h3/varint');
const { encodeSettings, decodeSettings } = require('../../server/engines/h3/settings');

let nextConnectionId = 1;

class FakeStream {
  constructor(conn, id, { bidi, local }) {
    Object.assign(this, { conn, id, bidi, local });
    this.chunks = [];
    this.fin = false;
    this.resetCode = null;
    this.stopCode = null;
    this.writableLength = 0;
    this.dead = false;
    this.ondata = null;
    this.onreset = null;
    this.onstopsending = null;
    this.ondrain = null;
    this.onclose = null;
    this.needsDrain = false;
  }

  // ---- the transport's side (what the engine calls) ----

  write(buf, fin = false) {
    if (this.dead || this.conn.closed !== null || this.fin || this.resetCode !== null) {
      const err = new Error('stream closed');
      err.code = 'ERR_QUIC_CLOSED';
      throw err;
    }
    this.chunks.push(Buffer.from(buf));
    this.writableLength += buf.length;
    if (fin) this.fin = true;
    this.conn.checkDone(this);
    const below = this.writableLength < this.conn.highWater;
    if (!below) this.needsDrain = true;
    return below;
  }

  end() {
    return this.write(Buffer.alloc(0), true);
  }

  reset(code) {
    this.resetCode = code;
    this.writableLength = 0;
    this.conn.checkDone(this);
  }

  stopSending(code) {
    this.stopCode = code;
  }

  // ---- the test's side ----

  get written() {
    return Buffer.concat(this.chunks);
  }

  // The peer's bytes arrive.
  push(buf, fin = false) {
    if (fin) this.peerFin = true;
    this.ondata(Buffer.from(buf), fin);
    this.conn.checkDone(this);
  }

  peerReset(code) {
    this.peerFin = true;
    this.onreset?.(code);
    this.conn.checkDone(this);
  }

  peerStopSending(code) {
    this.onstopsending?.(code);
  }

  // n octets (all: Infinity) of what is queued left; ondrain once below the high-water mark.
  consume(n = Infinity) {
    this.writableLength = Math.max(0, this.writableLength - n);
    if (this.needsDrain && this.writableLength < this.conn.highWater) {
      this.needsDrain = false;
      this.ondrain?.();
    }
  }
}

class FakeConnection {
  constructor({ highWater = 65536, uniLimit = 3 } = {}) {
    this.id = nextConnectionId++;
    this.remoteAddress = '192.0.2.7';
    this.remotePort = 40000;
    this.alpn = 'h3';
    this.highWater = highWater;
    this.uniLimit = uniLimit;
    this.onstream = null;
    this.onclose = null;
    this.closed = null; // { code, reason } once close() was called
    this.uni = []; // the streams the engine opened
    this.peer = []; // the streams the test opened
    this.nextBidi = 0;
    this.nextUni = 2;
  }

  openUniStream() {
    if (this.uni.length >= this.uniLimit) {
      const err = new Error('stream limit');
      err.code = 'ERR_QUIC_STREAM_LIMIT';
      throw err;
    }
    const stream = new FakeStream(this, 3 + 4 * this.uni.length, { bidi: false, local: true });
    this.uni.push(stream);
    return stream;
  }

  close(code, reason = '') {
    if (this.closed !== null) return;
    this.closed = { code, reason };
    this.gone({ code, reason, byPeer: false, transport: false });
  }

  get streamCount() {
    return this.peer.filter((s) => !s.dead).length + this.uni.filter((s) => !s.dead).length;
  }

  // The peer opens a stream: the engine hears of it at once.
  open(bidi) {
    const id = bidi ? this.nextBidi : this.nextUni;
    if (bidi) this.nextBidi += 4;
    else this.nextUni += 4;
    const stream = new FakeStream(this, id, { bidi, local: false });
    this.peer.push(stream);
    this.onstream(stream);
    return stream;
  }

  // The connection is gone (idle timeout, the peer's close, ours).
  gone(info) {
    for (const stream of [...this.peer, ...this.uni]) this.kill(stream);
    this.onclose?.(info);
  }

  kill(stream) {
    if (stream.dead) return;
    stream.dead = true;
    stream.onclose?.();
  }

  // A bidirectional stream is over once both sides are done. Its close comes as an event of
  // a later turn, as the real transport's do, never inside the engine's write() or reset().
  checkDone(stream) {
    if (!stream.bidi || stream.dead) return;
    const ours = stream.fin || stream.resetCode !== null;
    if (ours && stream.peerFin) setImmediate(() => this.kill(stream));
  }
}

// What the engine wrote on one stream, as frames: [{ type, payload }], after `skip` octets
// (a unidirectional stream's type).
function framesOf(buf, skip = 0) {
  const frames = [];
  let data = null;
  const reader = new FrameReader(() => Infinity);
  reader.push(buf.subarray(skip), {
    frame: (type, payload) => { frames.push({ type, payload }); },
    dataStart: () => { data = { type: FRAME.DATA, payload: Buffer.alloc(0) }; frames.push(data); },
    data: (piece) => { data.payload = Buffer.concat([data.payload, piece]); },
    skipped: (type) => { frames.push({ type, payload: null }); },
  });
  return frames;
}

// A client over a FakeConnection: its control stream with SETTINGS, QPACK both ways with
// dynamic tables (encoderCapacity: the table it lets the server use).
class FakeClient {
  constructor(conn, { encoderCapacity = 4096, blocked = 16, settings = true } = {}) {
    this.conn = conn;
    this.encoder = new QpackEncoder({ maxTableCapacity: 4096, maxBlockedStreams: 16 });
    this.decoder = new QpackDecoder({ maxTableCapacity: encoderCapacity, maxBlockedStreams: blocked, maxFieldSectionSize: 1 << 20 });
    this.control = conn.open(false);
    this.encoderStream = conn.open(false);
    this.decoderStream = conn.open(false);
    this.encoderStream.push(encodeVarint(0x02));
    this.decoderStream.push(encodeVarint(0x03));
    const ours = { qpackMaxTableCapacity: encoderCapacity, qpackBlockedStreams: blocked, maxFieldSectionSize: 1 << 20 };
    if (settings) this.control.push(Buffer.concat([encodeVarint(0x00), encodeFrame(FRAME.SETTINGS, encodeSettings(ours))]));
    this.serverEncoderRead = 0;
    this.serverDecoderRead = 0;
  }

  // The server's settings, from its control stream.
  serverSettings() {
    const control = this.conn.uni[0];
    const frames = framesOf(control.written, 1);
    return decodeSettings(frames[0].payload);
  }

  // A request's HEADERS frame (fields: [[name, value], ...]) on stream id, with the encoder
  // instructions it needs sent first.
  headersFrame(id, fields) {
    const { section, encoderStream } = this.encoder.encode(id, fields);
    if (encoderStream.length > 0) this.encoderStream.push(encoderStream);
    return encodeFrame(FRAME.HEADERS, section);
  }

  // Sends a request: GET path unless other fields are given; returns the stream.
  request(path, extra = [], { method = 'GET', fin = true, body = null } = {}) {
    const stream = this.conn.open(true);
    const fields = [[':method', method], [':scheme', 'https'], [':authority', 'localhost'], [':path', path], ...extra];
    const parts = [this.headersFrame(stream.id, fields)];
    if (body !== null) parts.push(encodeFrame(FRAME.DATA, body));
    stream.push(Buffer.concat(parts), fin);
    return stream;
  }

  // Feeds what the server wrote on its encoder stream since last time to our decoder.
  syncEncoder() {
    const all = this.conn.uni[1].written;
    const fresh = all.subarray(Math.max(1, this.serverEncoderRead));
    this.serverEncoderRead = all.length;
    if (fresh.length > 0) this.decoder.feedEncoder(fresh);
  }

  // The response on a stream: { status, headers ([[name, value], ...]), body, fin, headersSize }.
  response(stream) {
    this.syncEncoder();
    const frames = framesOf(stream.written);
    const head = frames.shift();
    if (head === undefined) return null;
    const fields = this.decoder.decode(stream.id, head.payload);
    // Acknowledge, so the server may reference its inserts on later streams.
    const acks = this.decoder.readDecoderStream();
    if (acks.length > 0) this.decoderStream.push(acks);
    const body = Buffer.concat(frames.filter((f) => f.type === FRAME.DATA).map((f) => f.payload));
    const status = Number(fields.find(([n]) => n === ':status')[1]);
    return { status, headers: fields.filter(([n]) => n !== ':status'), body, fin: stream.fin, headersSize: head.payload.length };
  }

  header(response, name) {
    return response.headers.find(([n]) => n === name)?.[1];
  }
}

// A QPACK prefixed integer (RFC 9204 4.1.1): `bits` of the first octet, after the flag bits in
// `first`; as an array of octets.
function qpackInt(first, bits, n) {
  const max = (1 << bits) - 1;
  if (n < max) return [first | n];
  const out = [first | max];
  for (n -= max; n >= 128; n = Math.floor(n / 128)) out.push((n % 128) | 128);
  out.push(n);
  return out;
}

// A field line literal with a literal name (4.5.6), as written: names are not lower-cased, as
// QpackEncoder would.
function literalField(name, value) {
  return [...qpackInt(0x20, 3, name.length), ...Buffer.from(name, 'latin1'), ...qpackInt(0, 7, value.length), ...Buffer.from(value, 'latin1')];
}

// A QPACK section of such literals, with no dynamic-table references (prefix 0, 0).
function literalSection(fields) {
  return Buffer.from([0, 0, ...fields.flatMap(([name, value]) => literalField(name, value))]);
}

// The varint-typed start of a unidirectional stream.
function uniType(stream) {
  return readVarint(stream.written, 0).value;
}

module.exports = { FakeConnection, FakeStream, FakeClient, framesOf, uniType, qpackInt, literalField, literalSection };
