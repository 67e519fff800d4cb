'use strict';
// Fuzz target: one client byte stream into the native engine's connection (server/engines/h2) over an
// in-memory socket, with a core that answers at once. The bytes arrive in chunks of sizes
// drawn from the input's own hash (so partial frames are exercised and a replay is exact).
// Properties checked, besides "never throws" (the fuzzer catches that):
// - every frame the server writes is well formed: a known type, within the client's
//   SETTINGS_MAX_FRAME_SIZE, SETTINGS first, RST_STREAM and GOAWAY with a defined error code,
//   and never INTERNAL_ERROR (the stub core cannot fail, so an internal error is the engine's);
// - streams follow RFC 9113 5.1 from the server's side: HEADERS once (as one block, only
//   CONTINUATION inside it), DATA only after it and never after END_STREAM, nothing after our
//   RST_STREAM, nothing at all after a GOAWAY with an error;
// - DATA never exceeds what the client's windows allowed (6.9), per stream and connection;
// - the engine logs no error;
// - the connection closes once the client's side ends, and every response body stream it was
//   handed is ended or destroyed by then (nothing is leaked).

const { Readable } = require('node:stream');
const { MemorySocket } = require('../helpers/memory-socket');
const { setImmediate: tick } = require('node:timers/promises');
const { serveHttp2 } = require('../../server/engines/h2');
const { HTTP2_SETTINGS, TIMEOUTS } = require('../../server/config/limits');
const { Logger } = require('../../server/log/logger');
const { PREFACE } = require('../helpers/h2-frames');
const { createRandom, hashBytes } = require('./random');

const DEFAULT_MAX_FRAME_SIZE = 16384;
const DEFAULT_WINDOW = 65535;
// Frame types a server sends (never PUSH_PROMISE: the engine does not push; no PRIORITY).
const SERVER_TYPES = new Set([0x0, 0x1, 0x3, 0x4, 0x6, 0x7, 0x8, 0x9]);
const MAX_ERROR_CODE = 0xd;
const INTERNAL_ERROR = 0x2;
// Event-loop turns allowed for responses to settle, and for the close after the client's end.
const SETTLE_TURNS = 50;

// Silent, except that errors are kept (a failure) and FUZZ_DEBUG=1 prints debug lines (replay.js).
class RecordingLogger extends Logger {
  constructor(errors) {
    super({ level: process.env.FUZZ_DEBUG ? 'debug' : 'silent', fd: 2 });
    this.errors = errors;
  }

  error(msg) {
    this.errors.push(msg);
    super.error(msg);
  }
}

// What the client's frames allow the server, replayed in the order the server reads them
// (its frame reader splits the input the same way: same preface, same lengths): the largest
// SETTINGS_MAX_FRAME_SIZE set, and the most DATA each stream and the connection may carry
// (6.9): a stream's initial window when its HEADERS came, plus every later rise of
// SETTINGS_INITIAL_WINDOW_SIZE, plus its WINDOW_UPDATE increments. Falls are left out, so this
// bounds the windows from above: going past it is a flow-control violation whatever the timing.
function clientAllowance(input) {
  const allow = { maxFrameSize: DEFAULT_MAX_FRAME_SIZE, connection: DEFAULT_WINDOW, streams: new Map() };
  if (!input.subarray(0, PREFACE.length).equals(PREFACE.subarray(0, Math.min(PREFACE.length, input.length)))) return allow;
  let initialWindow = DEFAULT_WINDOW;
  const early = new Map(); // increments for streams not opened yet
  for (let pos = PREFACE.length; input.length - pos >= 9;) {
    const length = input.readUIntBE(pos, 3);
    const type = input[pos + 3];
    const flags = input[pos + 4];
    const id = input.readUInt32BE(pos + 5) & 0x7fffffff;
    const payload = input.subarray(pos + 9, pos + 9 + length);
    pos += 9 + length;
    if (type === 0x4 && !(flags & 0x1)) {
      for (let i = 0; i + 6 <= payload.length; i += 6) {
        const value = payload.readUInt32BE(i + 2);
        if (payload.readUInt16BE(i) === 0x4) {
          const rise = value - initialWindow;
          if (rise > 0) for (const [sid, credit] of allow.streams) allow.streams.set(sid, credit + rise);
          initialWindow = value;
        }
        if (payload.readUInt16BE(i) === 0x5) allow.maxFrameSize = Math.max(allow.maxFrameSize, Math.min(value, 0xffffff));
      }
    } else if (type === 0x1 && id !== 0 && !allow.streams.has(id)) {
      allow.streams.set(id, initialWindow + (early.get(id) ?? 0));
    } else if (type === 0x8 && payload.length === 4) {
      const increment = payload.readUInt32BE(0) & 0x7fffffff;
      if (id === 0) allow.connection += increment;
      else if (allow.streams.has(id)) allow.streams.set(id, allow.streams.get(id) + increment);
      else early.set(id, (early.get(id) ?? 0) + increment);
    }
  }
  return allow;
}

// Parses the server's output incrementally and records the first rule it breaks.
class OutputChecker {
  buffer = Buffer.alloc(0);
  frames = 0;
  problem = null;
  #allow;
  #streams = new Map(); // id -> { headers, ended, reset, sent }
  #connectionSent = 0;
  #continuationOf = null; // stream id while a HEADERS block lacks END_HEADERS
  #errorGoaway = false;

  constructor(allow) {
    this.#allow = allow;
  }

  push(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    while (this.problem === null && this.buffer.length >= 9) {
      const length = this.buffer.readUIntBE(0, 3);
      if (length > this.#allow.maxFrameSize) return this.#fail(`server frame of ${length} octets, over the client's ${this.#allow.maxFrameSize}`);
      if (this.buffer.length < 9 + length) return;
      const type = this.buffer[3];
      const flags = this.buffer[4];
      const id = this.buffer.readUInt32BE(5) & 0x7fffffff;
      const payload = this.buffer.subarray(9, 9 + length);
      this.buffer = this.buffer.subarray(9 + length);
      this.#check(type, flags, id, payload);
      this.frames++;
    }
  }

  #check(type, flags, id, payload) {
    if (!SERVER_TYPES.has(type)) return this.#fail(`server sent frame type ${type}`);
    if (this.frames === 0 && (type !== 0x4 || flags & 0x1)) return this.#fail(`server preface is frame type ${type}, not SETTINGS`);
    if (this.#errorGoaway) return this.#fail(`frame type ${type} after a GOAWAY with an error`);
    if (this.#continuationOf !== null && (type !== 0x9 || id !== this.#continuationOf)) {
      return this.#fail(`frame type ${type} on stream ${id} inside the header block of stream ${this.#continuationOf}`);
    }
    if (type === 0x9 && this.#continuationOf === null) return this.#fail(`CONTINUATION on stream ${id} with no header block open`);
    const stream = id === 0 ? null : this.#stream(id);
    // RFC 9113 5.1: nothing but PRIORITY on a stream we reset.
    if (stream?.reset) return this.#fail(`frame type ${type} on stream ${id} after our RST_STREAM`);
    switch (type) {
      case 0x0: return this.#checkData(flags, id, payload, stream);
      case 0x1:
        if (id % 2 === 0) return this.#fail(`HEADERS on stream ${id}, not one the client opened`);
        if (stream.headers) return this.#fail(`second HEADERS on stream ${id}`);
        stream.headers = true;
        if (flags & 0x1) stream.ended = true;
        if (!(flags & 0x4)) this.#continuationOf = id;
        return undefined;
      case 0x9:
        if (flags & 0x4) this.#continuationOf = null;
        return undefined;
      case 0x3:
        if (id === 0 || payload.length !== 4) return this.#fail(`RST_STREAM on stream ${id} with ${payload.length} octets`);
        stream.reset = true;
        return this.#checkCode('RST_STREAM', payload.readUInt32BE(0));
      case 0x7: {
        if (id !== 0 || payload.length < 8) return this.#fail(`GOAWAY on stream ${id} with ${payload.length} octets`);
        const code = payload.readUInt32BE(4);
        this.#errorGoaway = code !== 0;
        return this.#checkCode('GOAWAY', code);
      }
      case 0x8:
        if (payload.length !== 4 || (payload.readUInt32BE(0) & 0x7fffffff) === 0) return this.#fail('WINDOW_UPDATE with no increment');
        return undefined;
      case 0x6:
        if (!(flags & 0x1) || payload.length !== 8 || id !== 0) return this.#fail('PING that is no 8-octet ACK on stream 0');
        return undefined;
      default: // SETTINGS
        if (id !== 0 || payload.length % 6 !== 0 || (flags & 0x1 && payload.length !== 0)) return this.#fail('malformed SETTINGS');
        return undefined;
    }
  }

  #checkData(flags, id, payload, stream) {
    if (id === 0 || !stream.headers) return this.#fail(`DATA on stream ${id} before its HEADERS`);
    if (stream.ended) return this.#fail(`DATA on stream ${id} after END_STREAM`);
    if (flags & 0x1) stream.ended = true;
    stream.sent += payload.length;
    this.#connectionSent += payload.length;
    const streamLimit = this.#allow.streams.get(id) ?? 0;
    if (stream.sent > streamLimit) return this.#fail(`${stream.sent} DATA octets on stream ${id}, over its window (at most ${streamLimit})`);
    if (this.#connectionSent > this.#allow.connection) {
      return this.#fail(`${this.#connectionSent} DATA octets on the connection, over its window (at most ${this.#allow.connection})`);
    }
    return undefined;
  }

  #stream(id) {
    let stream = this.#streams.get(id);
    if (stream === undefined) {
      stream = { headers: false, ended: false, reset: false, sent: 0 };
      this.#streams.set(id, stream);
    }
    return stream;
  }

  #checkCode(what, code) {
    if (code > MAX_ERROR_CODE) this.#fail(`${what} with undefined error code ${code}`);
    else if (code === INTERNAL_ERROR) this.#fail(`${what} INTERNAL_ERROR from a core that cannot fail`);
  }

  #fail(message) {
    this.problem ??= message;
  }
}

// A core that answers without touching the disk: a small buffer, a streamed body (so body
// cleanup is checked), or no body, chosen by the path.
function createStubCore(bodies) {
  const respond = (status, body) => ({ status, headers: { 'content-type': 'text/plain' }, body, coding: 'identity' });
  return {
    decide(method, target) {
      const path = String(target);
      if (method === 'HEAD' || path.includes('empty')) return Promise.resolve(respond(204, null));
      if (path.length % 3 === 0) {
        const body = Readable.from([Buffer.alloc(1000, 'a'), Buffer.alloc(30000, 'b')], { objectMode: false });
        bodies.push(body);
        return Promise.resolve(respond(200, body));
      }
      return Promise.resolve(respond(200, Buffer.from(`ok ${path.length}\n`)));
    },
    errorResponse(err, isHead) {
      return respond(err.status, isHead ? null : Buffer.from(`${err.message}\n`));
    },
    logAccess() {},
  };
}

async function settle(done) {
  for (let i = 0; i < SETTLE_TURNS && !done(); i++) await tick();
}

async function runInput(input) {
  const random = createRandom(hashBytes(input));
  const checker = new OutputChecker(clientAllowance(input));
  const errors = [];
  const bodies = [];
  const log = new RecordingLogger(errors);
  const socket = new MemorySocket((chunk) => checker.push(chunk), { slowReader: random.chance(0.2) });
  const graceful = random.chance(0.1);
  const connection = serveHttp2(socket, {
    core: createStubCore(bodies), log, timeouts: TIMEOUTS, isClosing: () => false, settings: HTTP2_SETTINGS,
  });
  let closed = false;
  connection.once('close', () => { closed = true; });

  for (let pos = 0; pos < input.length;) {
    const size = random.pick([1, 2, 9, 10, 100, 1000, input.length]);
    socket.push(input.subarray(pos, pos + size));
    pos += size;
    if (random.chance(0.5)) await tick();
  }
  await settle(() => closed);
  // Sometimes a graceful shutdown (GOAWAY) while streams may still be open.
  if (graceful && !closed) {
    connection.close();
    await settle(() => closed);
  }
  socket.push(null);
  await settle(() => closed);

  if (errors.length) return `engine logged an error: ${errors[0]}`;
  if (checker.problem) return checker.problem;
  if (!closed) return `the connection did not close within ${SETTLE_TURNS} turns of the client's end`;
  const leaked = bodies.filter((b) => !b.destroyed && !b.readableEnded).length;
  if (leaked) return `${leaked} response body stream(s) neither ended nor destroyed after the connection closed`;
  return null;
}

module.exports = { runInput };
