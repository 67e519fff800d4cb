'use strict';
// Fuzz target: a client's HTTP/3 streams (control, QPACK encoder and decoder, request streams;
// the input format is h3-input.js's) fed to the HTTP/3 engine (server/engines/h3) over the
// in-memory QUIC of test/helpers/fake-quic.js, through the real core over a temporary root.
// The server's streams hold at most HIGH_WATER octets until the input has the client read them.
// Properties checked, besides "never throws" (the fuzzer catches that):
// - the engine logs no error (an internal error, or a write on a stream after our reset or
//   FIN: the fake transport throws there, as the real one does);
// - the connection, when closed, is closed with an HTTP/3 or QPACK error code, never
//   H3_INTERNAL_ERROR (the core's files cannot fail), and the request streams are reset and
//   refused (STOP_SENDING) with such codes only;
// - what the server writes on a request stream is HEADERS, then DATA only;
// - once the input is over and the client has read everything: a graceful close (GOAWAY) and the
//   client's CONNECTION_CLOSE end the connection ('close' emitted) and release every response
//   body (the core's byte budget back to 0), within SETTLE_MS.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { setImmediate: tick } = require('node:timers/promises');
const { serveHttp3 } = require('../../server/engines/h3');
const { FRAME } = require('../../server/engines/h3/frames');
const { ERROR, errorName } = require('../../server/engines/h3/errors');
const { TIMEOUTS } = require('../../server/config/limits');
const { normalizeOptions } = require('../../server/config/options');
const { createCore } = require('../../server/site/create-core');
const { FakeConnection, framesOf } = require('../helpers/fake-quic');
const { ACTION, UNI_SLOTS, parseRecords } = require('./h3-input');

const HIGH_WATER = 4096;
const SETTLE_MS = 2000;
const ANSWER_MS = 300;
const CODES = new Set(Object.values(ERROR));
// The site the core serves: a small text, a file larger than many DATA frames and the high-water
// mark, an HTML page (compressible, negotiated) and a directory.
const SITE = {
  'hello.txt': 'hello over HTTP/3\n'.repeat(20),
  'big.bin': Buffer.alloc(100 * 1024, 'abcdefghijklmnopqrstuvwxyz'),
  'index.html': `<!doctype html><title>fuzz</title>${'<p>text</p>'.repeat(200)}`,
  'dir/a.txt': 'a\n',
};

const quiet = { enabled: () => false, debug() {}, info() {}, warn() {}, error() {} };
let site = null; // { root, core }: one per process (a worker of the fuzzer), made at first use

function theSite() {
  if (site !== null) return site;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'negotiate-h3-fuzz-'));
  for (const [name, content] of Object.entries(SITE)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), content);
  }
  site = { root, core: createCore(normalizeOptions({ root, precompress: false, logLevel: 'silent' }), quiet) };
  return site;
}

// The engine's log: debug lines with FUZZ_DEBUG=1 (replay.js), errors kept (a failure).
function recordingLog(errors) {
  const debug = process.env.FUZZ_DEBUG ? (msg) => console.error(msg) : () => {};
  return { enabled: () => Boolean(process.env.FUZZ_DEBUG), debug, info: debug, warn: debug, error: (msg) => { errors.push(msg); debug(msg); } };
}

async function settle(done) {
  const deadline = performance.now() + SETTLE_MS;
  while (!done() && performance.now() < deadline) await tick();
  return done();
}

function readAll(conn) {
  for (const stream of [...conn.uni, ...conn.peer]) stream.consume();
}

// The first rule the server's side of the connection breaks, or null.
function checkOutput(conn) {
  if (conn.closed !== null) {
    if (!CODES.has(conn.closed.code)) return `connection closed with 0x${conn.closed.code.toString(16)}, not an HTTP/3 code`;
    if (conn.closed.code === ERROR.H3_INTERNAL_ERROR) return `connection closed with H3_INTERNAL_ERROR: ${conn.closed.reason}`;
  }
  for (const stream of conn.peer.filter((s) => s.bidi)) {
    for (const [what, code] of [['reset', stream.resetCode], ['STOP_SENDING', stream.stopCode]]) {
      if (code === null) continue;
      if (!CODES.has(code) || code === ERROR.H3_INTERNAL_ERROR) return `request stream ${stream.id} ${what} with ${errorName(code)}`;
    }
    const types = framesOf(stream.written).map((f) => f.type);
    if (types.length > 0 && (types[0] !== FRAME.HEADERS || types.slice(1).some((t) => t !== FRAME.DATA))) {
      return `request stream ${stream.id}: the server wrote frames ${types.join(',')}`;
    }
  }
  return null;
}

async function runInput(input) {
  const { core } = theSite();
  const errors = [];
  const conn = new FakeConnection({ highWater: HIGH_WATER, uniLimit: 3 });
  const connection = serveHttp3(conn, { core, log: recordingLog(errors), timeouts: TIMEOUTS, isClosing: () => false });
  let closed = false;
  connection.once('close', () => { closed = true; });
  const uni = [];
  const requests = [];
  // Every request the client ended is answered or refused, or the connection is closed.
  const answered = () => conn.closed !== null
    || requests.every((s) => s === undefined || !s.peerFin || s.fin || s.resetCode !== null || s.dead);
  // The client reads what comes until then. One whose section waits for QPACK inserts that never
  // come waits for ever: all of an input's waits together last at most ANSWER_MS.
  let waited = 0;
  const awaitAnswers = async () => {
    const started = performance.now();
    const deadline = started + ANSWER_MS - waited;
    while (!answered() && performance.now() < deadline) {
      readAll(conn);
      await tick();
    }
    waited += performance.now() - started;
  };
  for (const { slot, action, read, turn, wait, bytes } of parseRecords(input)) {
    if (wait) await awaitAnswers();
    if (turn) await tick();
    if (read) readAll(conn);
    if (conn.closed !== null) break;
    const streams = slot < UNI_SLOTS ? uni : requests;
    const index = slot < UNI_SLOTS ? slot : slot - UNI_SLOTS;
    streams[index] ??= conn.open(slot >= UNI_SLOTS);
    const stream = streams[index];
    if (stream.dead) continue;
    if (action === ACTION.RESET) stream.peerReset(ERROR.H3_REQUEST_CANCELLED);
    else if (action === ACTION.STOP) stream.peerStopSending(ERROR.H3_REQUEST_CANCELLED);
    // The client's side of a stream it ended or reset carries no more octets.
    else if (!stream.peerFin) stream.push(bytes, action === ACTION.FIN);
  }

  await awaitAnswers();
  const problem = checkOutput(conn);
  if (problem !== null) return problem;
  connection.close();
  readAll(conn);
  if (conn.closed === null) conn.gone({ code: ERROR.H3_NO_ERROR, reason: '', byPeer: true, transport: false });
  if (!(await settle(() => closed))) return 'no close event after the client closed the connection';
  if (!(await settle(() => core.budget.used === 0))) return `${core.budget.used} octets of response bodies held after the connection closed`;
  if (errors.length) return `engine logged an error: ${errors[0]}`;
  return null;
}

// The fuzz worker's end: the core's files and timers go.
async function close() {
  if (site === null) return;
  await site.core.close();
  fs.rmSync(site.root, { recursive: true, force: true });
  site = null;
}

module.exports = { runInput, close };
