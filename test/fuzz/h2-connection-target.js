'use strict';
// Fuzz target: one client byte stream into the native engine's connection (server/h2) over an
// in-memory socket, with a core that answers at once. The bytes arrive in chunks of sizes
// drawn from the input's own hash (so partial frames are exercised and a replay is exact).
// Properties checked, besides "never throws" (the fuzzer catches that):
// - every frame the server writes is well formed: a known type, at most 16384 octets (the
//   default SETTINGS_MAX_FRAME_SIZE; the stub's responses never need more), SETTINGS first,
//   RST_STREAM and GOAWAY with a defined error code, and never INTERNAL_ERROR (the stub core
//   cannot fail, so an internal error is the engine's own);
// - the engine logs no error;
// - the connection closes once the client's side ends, and every response body stream it was
//   handed is ended or destroyed by then (nothing is leaked).

const { Duplex, Readable } = require('node:stream');
const { setImmediate: tick } = require('node:timers/promises');
const { serveHttp2 } = require('../../server/h2');
const { HTTP2_SETTINGS, TIMEOUTS } = require('../../server/limits');
const { Logger } = require('../../server/logger');
const { createRandom, hashBytes } = require('./random');

const MAX_FRAME_SIZE = 16384;
// Frame types a server sends (never PUSH_PROMISE: the engine does not push; no PRIORITY).
const SERVER_TYPES = new Set([0x0, 0x1, 0x3, 0x4, 0x6, 0x7, 0x8, 0x9]);
const MAX_ERROR_CODE = 0xd;
const INTERNAL_ERROR = 0x2;
// Event-loop turns allowed for responses to settle, and for the close after the client's end.
const SETTLE_TURNS = 50;

// A socket stand-in: what the client sends is push()ed in; what the server writes is checked.
class FuzzSocket extends Duplex {
  constructor(onWrite, slowReader) {
    super({ allowHalfOpen: false, writableHighWaterMark: 16 * 1024 });
    this.onWrite = onWrite;
    this.slowReader = slowReader;
    this.alpnProtocol = 'h2';
    this.remoteAddress = '127.0.0.1';
    this.remotePort = 40000;
    this.encrypted = true;
  }

  _read() {}

  _write(chunk, encoding, callback) {
    this.onWrite(chunk);
    // A slow reader makes writes complete a turn later, so backpressure builds up.
    if (this.slowReader) setImmediate(callback);
    else callback();
  }

  setTimeout() { return this; }
  setNoDelay() { return this; }
  setKeepAlive() { return this; }
}

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

// Parses the server's output incrementally and records the first rule it breaks.
class OutputChecker {
  buffer = Buffer.alloc(0);
  frames = 0;
  problem = null;

  push(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    while (this.problem === null && this.buffer.length >= 9) {
      const length = this.buffer.readUIntBE(0, 3);
      if (length > MAX_FRAME_SIZE) return this.#fail(`server frame of ${length} octets`);
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
    if (type === 0x3) {
      if (id === 0 || payload.length !== 4) return this.#fail(`RST_STREAM on stream ${id} with ${payload.length} octets`);
      this.#checkCode('RST_STREAM', payload.readUInt32BE(0));
    } else if (type === 0x7) {
      if (id !== 0 || payload.length < 8) return this.#fail(`GOAWAY on stream ${id} with ${payload.length} octets`);
      this.#checkCode('GOAWAY', payload.readUInt32BE(4));
    } else if (type === 0x8) {
      if (payload.length !== 4 || (payload.readUInt32BE(0) & 0x7fffffff) === 0) return this.#fail('WINDOW_UPDATE with no increment');
    } else if (type === 0x6) {
      if (!(flags & 0x1) || payload.length !== 8) return this.#fail('PING that is no 8-octet ACK');
    } else if ((type === 0x0 || type === 0x1) && (id === 0 || id % 2 === 0)) {
      return this.#fail(`response frame type ${type} on stream ${id}`);
    }
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
    headerListTooLarge(isHead) {
      return respond(431, isHead ? null : Buffer.from('too large\n'));
    },
  };
}

async function settle(done) {
  for (let i = 0; i < SETTLE_TURNS && !done(); i++) await tick();
}

async function runInput(input) {
  const random = createRandom(hashBytes(input));
  const checker = new OutputChecker();
  const errors = [];
  const bodies = [];
  const log = new RecordingLogger(errors);
  const socket = new FuzzSocket((chunk) => checker.push(chunk), random.chance(0.2));
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
