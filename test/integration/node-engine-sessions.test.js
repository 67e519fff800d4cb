'use strict';
// The node engine (node:http2) ends the sessions Node itself leaves open: one nghttp2 stopped
// serving after answering a frame after END_STREAM with GOAWAY (h2spec 5.1/5 and 5.1/7, whose
// socket stayed in CLOSE-WAIT and held a graceful shutdown for its full timeout), and one that
// sends only PING, SETTINGS and WINDOW_UPDATE (closed at http2IdleTimeout, not kept by them).

const test = require('node:test');
const assert = require('node:assert/strict');
const { startTestServer } = require('../helpers/server');
const { RawH2Client } = require('../helpers/h2-raw-client');
const { TYPE, FLAG, frame } = require('../helpers/h2-frames');
const { STUCK_SESSION_SWEEP_MS } = require('../../server/config/limits');

const PROTOCOL_ERROR = 0x1;
const STREAM_CLOSED = 0x5;
const WINDOW_UPDATE = 0x8;

// Resolves the ms until `closed` resolved, or 'open' after limitMs.
function within(closed, limitMs) {
  const started = performance.now();
  let timer;
  return Promise.race([closed.then(() => performance.now() - started), new Promise((resolve) => { timer = setTimeout(resolve, limitMs, 'open'); })])
    .finally(() => clearTimeout(timer));
}

// h2spec's frames: a whole request (END_STREAM), then a frame on the half-closed stream, and
// the GOAWAY nghttp2 answers it with.
const AFTER_END_STREAM = [
  ['5.1/5: DATA', () => frame(TYPE.DATA, FLAG.END_STREAM, 1, Buffer.from('test')), STREAM_CLOSED],
  ['5.1/7: CONTINUATION', () => frame(TYPE.CONTINUATION, FLAG.END_HEADERS, 1, Buffer.from([0x82])), PROTOCOL_ERROR],
];

async function stuckSession(port, makeFrame, code) {
  const client = await RawH2Client.connect(port);
  client.request(1, '/index.html');
  client.send(makeFrame());
  assert.equal((await client.goaway()).code, code);
  client.socket.end(); // as h2spec does: the server reads no more, so it never sees this FIN
  return client;
}

for (const [name, makeFrame, code] of AFTER_END_STREAM) {
  test(`node engine, h2spec ${name} after END_STREAM: the server closes the socket itself`, async () => {
    const t = await startTestServer({ engine: 'node', files: { 'index.html': '<p>hi</p>' } });
    try {
      const client = await stuckSession(t.port, makeFrame, code);
      const ms = await within(client.closed, STUCK_SESSION_SWEEP_MS * 3 + 2000);
      assert.notEqual(ms, 'open', 'the server never closed the socket');
    } finally {
      await t.close();
    }
  });

  test(`node engine, h2spec ${name} after END_STREAM: close() finishes at once`, async () => {
    const t = await startTestServer({ engine: 'node', files: { 'index.html': '<p>hi</p>' } });
    try {
      const client = await stuckSession(t.port, makeFrame, code);
      const started = performance.now();
      await t.server.close({ timeoutMs: 10_000 });
      const ms = performance.now() - started;
      assert.ok(ms < 2000, `close() took ${ms.toFixed(0)} ms`);
      assert.notEqual(await within(client.closed, 1000), 'open');
    } finally {
      await t.close();
    }
  });
}

test('node engine: a session that only sends PING, SETTINGS and WINDOW_UPDATE is closed at http2IdleTimeout', async () => {
  const t = await startTestServer({ engine: 'node', files: { 'index.html': '<p>hi</p>' }, timeouts: { http2IdleTimeout: 400 } });
  try {
    const client = await RawH2Client.connect(t.port);
    let n = 0;
    const control = [RawH2Client.ping(), frame(TYPE.SETTINGS, 0, 0), frame(WINDOW_UPDATE, 0, 0, Buffer.from([0, 0, 0, 1]))];
    const keepAlive = setInterval(() => client.send(control[n++ % control.length]), 40);
    try {
      const ms = await within(client.closed, 4000);
      assert.notEqual(ms, 'open', 'still open 4 s later');
      assert.ok(ms >= 400 - 20, `closed after ${ms} ms`);
    } finally {
      clearInterval(keepAlive);
    }
  } finally {
    await t.close();
  }
});
