'use strict';
// A raw HTTP/2 client over TLS for tests that send exact frames and look at every frame the
// server answers with: headers encoded and decoded by the project's HPACK codec.

const tls = require('node:tls');
const { Encoder, Decoder } = require('../../native');
const { PREFACE, TYPE, FLAG, frame, FrameReader } = require('./h2-frames');

const WAIT_MS = 5000;
const RST_STREAM = 0x3;
const PING = 0x6;
const WINDOW_UPDATE = 0x8;

function uint32(...values) {
  const out = Buffer.alloc(4 * values.length);
  values.forEach((v, i) => out.writeUInt32BE(v >>> 0, 4 * i));
  return out;
}

class RawH2Client {
  // options: settings ([[id, value]]), autoWindowUpdate (default true: every DATA is
  // credited back at once), decoderTableSize (our SETTINGS_HEADER_TABLE_SIZE), tlsOptions
  // (more tls.connect() options, such as maxVersion).
  static connect(port, { settings = [], autoWindowUpdate = true, decoderTableSize = 4096, tlsOptions = {} } = {}) {
    const client = new RawH2Client(port, settings, autoWindowUpdate, decoderTableSize, tlsOptions);
    return client.ready.then(() => client);
  }

  constructor(port, settings, autoWindowUpdate, decoderTableSize, tlsOptions = {}) {
    this.frames = [];
    this.headerBlocks = []; // every header block received, in order (copies)
    this.encoder = new Encoder();
    this.decoder = new Decoder({ tableSize: 4096, maxHeaderListSize: 1 << 20 });
    if (decoderTableSize !== 4096) this.decoder.setTableSize(decoderTableSize);
    this.autoWindowUpdate = autoWindowUpdate;
    this.waiters = [];
    this.taken = new Set();
    this.socket = tls.connect({ host: '127.0.0.1', port, ALPNProtocols: ['h2'], rejectUnauthorized: false, ...tlsOptions });
    this.closed = new Promise((resolve) => this.socket.once('close', resolve));
    this.socket.on('error', () => {});
    const entries = Buffer.alloc(6 * settings.length);
    settings.forEach(([id, value], i) => { entries.writeUInt16BE(id, 6 * i); entries.writeUInt32BE(value, 6 * i + 2); });
    this.socket.once('secureConnect', () => this.send(PREFACE, frame(TYPE.SETTINGS, 0, 0, entries)));
    const reader = new FrameReader({
      onFrame: (f) => this.#onFrame(f),
      onHeaderBlock: (streamId, block) => {
        this.headerBlocks.push(Buffer.from(block));
        this.lastHeaders = this.decoder.decode(block);
      },
    });
    this.socket.on('data', (chunk) => reader.push(chunk));
    this.ready = this.waitFor((f) => f.type === TYPE.SETTINGS && !(f.flags & FLAG.ACK));
  }

  #onFrame(f) {
    if (f.type === TYPE.HEADERS || f.type === TYPE.CONTINUATION) {
      if (f.flags & FLAG.END_HEADERS) f.headers = this.lastHeaders;
    }
    if (f.type === TYPE.SETTINGS && !(f.flags & FLAG.ACK)) this.send(frame(TYPE.SETTINGS, FLAG.ACK, 0));
    if (f.type === TYPE.DATA && this.autoWindowUpdate && f.payload.length > 0) {
      this.windowUpdate(0, f.payload.length);
      if (!(f.flags & FLAG.END_STREAM)) this.windowUpdate(f.streamId, f.payload.length);
    }
    this.frames.push(f);
    for (const w of [...this.waiters]) {
      if (!this.taken.has(f) && w.match(f)) {
        this.taken.add(f);
        this.waiters.splice(this.waiters.indexOf(w), 1);
        clearTimeout(w.timer);
        w.resolve(f);
      }
    }
  }

  send(...buffers) {
    this.socket.write(Buffer.concat(buffers));
  }

  // HEADERS (+ CONTINUATION) for a request: fields [[name, value]] or a prebuilt block.
  headersFrames(streamId, fields, { endStream = true, maxFrameSize = 16384 } = {}) {
    const block = Buffer.isBuffer(fields) ? fields : Buffer.from(this.encoder.encode(fields));
    const frames = [];
    for (let offset = 0; offset === 0 || offset < block.length; offset += maxFrameSize) {
      const last = offset + maxFrameSize >= block.length;
      const flags = (last ? FLAG.END_HEADERS : 0) | (offset === 0 && endStream ? FLAG.END_STREAM : 0);
      frames.push(frame(offset === 0 ? TYPE.HEADERS : TYPE.CONTINUATION, flags, streamId, block.subarray(offset, offset + maxFrameSize)));
    }
    return Buffer.concat(frames);
  }

  request(streamId, path, { method = 'GET', extra = [], endStream = true } = {}) {
    const fields = [[':method', method], [':scheme', 'https'], [':authority', 'localhost'], [':path', path], ...extra];
    this.send(this.headersFrames(streamId, fields, { endStream }));
  }

  data(streamId, payload, { endStream = false } = {}) {
    return frame(TYPE.DATA, endStream ? FLAG.END_STREAM : 0, streamId, payload);
  }

  windowUpdate(streamId, increment) {
    this.send(frame(WINDOW_UPDATE, 0, streamId, uint32(increment)));
  }

  static rstStream(streamId, code) {
    return frame(RST_STREAM, 0, streamId, uint32(code));
  }

  static ping(data = Buffer.alloc(8)) {
    return frame(PING, 0, 0, data);
  }

  // The first frame (received or to come) that matches and was not returned before.
  waitFor(match, ms = WAIT_MS) {
    for (const f of this.frames) {
      if (!this.taken.has(f) && match(f)) {
        this.taken.add(f);
        return Promise.resolve(f);
      }
    }
    return new Promise((resolve, reject) => {
      const w = { match, resolve };
      w.timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        reject(new Error(`no matching frame within ${ms} ms; got types ${this.frames.map((f) => f.type).join(',')}`));
      }, ms);
      this.waiters.push(w);
    });
  }

  // GOAWAY as { lastStreamId, code }.
  async goaway(ms) {
    const f = await this.waitFor((x) => x.type === TYPE.GOAWAY, ms);
    return { lastStreamId: f.payload.readUInt32BE(0), code: f.payload.readUInt32BE(4) };
  }

  // RST_STREAM's code on a stream.
  async reset(streamId, ms) {
    const f = await this.waitFor((x) => x.type === RST_STREAM && x.streamId === streamId, ms);
    return f.payload.readUInt32BE(0);
  }

  // The whole response on a stream: { status, headers, body, frames } once END_STREAM
  // arrives; rejects if the stream is reset.
  async response(streamId, ms) {
    const end = await this.waitFor((f) => f.streamId === streamId
      && ((f.flags & FLAG.END_STREAM && (f.type === TYPE.DATA || f.type === TYPE.HEADERS)) || f.type === RST_STREAM), ms);
    if (end.type === RST_STREAM) throw Object.assign(new Error(`stream ${streamId} reset`), { code: end.payload.readUInt32BE(0) });
    const frames = this.frames.filter((f) => f.streamId === streamId);
    const headers = Object.fromEntries(frames.find((f) => f.headers).headers);
    const body = Buffer.concat(frames.filter((f) => f.type === TYPE.DATA).map((f) => f.payload));
    return { status: Number(headers[':status']), headers, body, frames };
  }

  close() {
    this.socket.destroy();
    return this.closed;
  }
}

module.exports = { RawH2Client, uint32 };
