'use strict';
// Random frame sequences against the native engine (seeded, bounded): whatever a peer sends,
// the server answers with frames and GOAWAY codes of RFC 9113, never crashes, never leaves a
// connection hanging, and keeps serving well-formed clients.

const test = require('node:test');
const assert = require('node:assert/strict');
const tls = require('node:tls');
const { startTestServer } = require('../helpers/server');
const { RawH2Client } = require('../helpers/h2-raw-client');
const { PREFACE, frame } = require('../helpers/h2-frames');
const { Encoder } = require('../../native');

const CONNECTIONS = 150;
const FRAMES_PER_CONNECTION = 30;
const SEED = 0x9e3779b9;

// xorshift32: the same sequence on every run.
function prng(seed) {
  let x = seed >>> 0;
  return () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x / 0x100000000;
  };
}

function randomFrames(rand, encoder) {
  const pick = (n) => Math.floor(rand() * n);
  const out = [PREFACE, frame(0x4, 0, 0)];
  let nextId = 1;
  for (let i = 0; i < FRAMES_PER_CONNECTION; i++) {
    const type = pick(12); // the ten defined types and two unknown ones
    const flags = [0, 1, 4, 5, 8, 0x20, 0x2d, pick(256)][pick(8)];
    const streamId = [0, nextId, nextId + 2, Math.max(1, nextId - 2), pick(0x7fffffff)][pick(5)];
    let payload;
    switch (pick(5)) {
      case 0: payload = Buffer.alloc(0); break;
      case 1: payload = Buffer.from(Array.from({ length: pick(20) }, () => pick(256))); break;
      case 2: payload = Buffer.alloc([4, 5, 6, 8][pick(4)], pick(256)); break;
      case 3: payload = Buffer.from(encoder.encode([[':method', 'GET'], [':scheme', 'https'], [':path', '/a.txt']])); break;
      default: payload = Buffer.from(Array.from({ length: pick(300) }, () => pick(256)));
    }
    if (type === 0x1 && streamId === nextId) nextId += 2;
    out.push(frame(type, flags, streamId, payload));
  }
  return Buffer.concat(out);
}

// Sends the bytes and resolves the frame types seen once the server closes (or the client
// gives up after 2 s: a connection still open is a live one, which is fine, then closed).
function exchange(port, bytes) {
  return new Promise((resolve) => {
    const socket = tls.connect({ port, host: '127.0.0.1', ALPNProtocols: ['h2'], rejectUnauthorized: false });
    let received = Buffer.alloc(0);
    socket.on('error', () => {});
    socket.on('data', (d) => { received = Buffer.concat([received, d]); });
    socket.once('secureConnect', () => socket.write(bytes));
    const timer = setTimeout(() => socket.destroy(), 2000);
    socket.once('close', () => { clearTimeout(timer); resolve(received); });
  });
}

function goawayCode(bytes) {
  for (let pos = 0; pos + 9 <= bytes.length;) {
    const length = bytes.readUIntBE(pos, 3);
    if (bytes[pos + 3] === 0x7 && pos + 9 + 8 <= bytes.length) return bytes.readUInt32BE(pos + 9 + 4);
    pos += 9 + length;
  }
  return null;
}

test('random frames: only defined GOAWAY codes, no internal error, and the server still serves', async () => {
  const errors = [];
  const logger = {
    enabled: () => false, info() {}, debug() {}, warn() {}, error: (msg) => errors.push(msg), drain: async () => {},
  };
  const t = await startTestServer({ engine: 'native', files: { 'a.txt': 'a\n' }, logger });
  try {
    const rand = prng(SEED);
    const encoder = new Encoder();
    const codes = new Map();
    const batch = [];
    for (let i = 0; i < CONNECTIONS; i++) {
      // Half the connections share one encoder, so their blocks refer to table entries the
      // server never saw.
      batch.push(exchange(t.port, randomFrames(rand, i % 2 ? encoder : new Encoder())));
      if (batch.length === 10) {
        for (const bytes of await Promise.all(batch.splice(0))) {
          const code = goawayCode(bytes);
          codes.set(code, (codes.get(code) || 0) + 1);
        }
      }
    }
    for (const code of codes.keys()) assert.ok(code === null || code <= 0xd, `GOAWAY code ${code}`);
    assert.ok(codes.get(1) > 0, 'some sequences are PROTOCOL_ERRORs');
    const c = await RawH2Client.connect(t.port);
    c.request(1, '/a.txt');
    assert.equal((await c.response(1)).body.toString(), 'a\n');
    await c.close();
    assert.deepEqual(errors, [], 'no internal error logged');
  } finally {
    await t.close();
  }
});
