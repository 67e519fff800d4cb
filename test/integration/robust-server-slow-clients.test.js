'use strict';
// Clients that hold server resources without making progress: headers that never finish
// (slowloris) over HTTP/1.1 and HTTP/2, and HTTP/2 streams that never read their bodies.
// The server must drop the first within its timeouts and keep the second bounded in memory,
// while serving everyone else.

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const tls = require('node:tls');
const { forEachEngine, startTestServer, compressibleText } = require('../helpers/server');
const { PREFACE, settings } = require('../helpers/h2-frames');
const { stalledStreams } = require('../helpers/clients');

const MiB = 1024 * 1024;
// Short timeouts keep the slowloris cases fast. Node checks HTTP/1.1 headersTimeout on a timer
// (connectionsCheckingInterval), so a stalled header can live up to the sum of the two; the
// margin absorbs a loaded machine and is never a timing assertion on its own.
const TIMEOUTS = { headersTimeout: 1_000, connectionsCheckingInterval: 250, http2IdleTimeout: 1_000 };
const SLOWLORIS_BOUND_MS = Math.max(TIMEOUTS.headersTimeout + TIMEOUTS.connectionsCheckingInterval, TIMEOUTS.http2IdleTimeout) + 5_000;

// The stalled streams: each reads at most one window of its body.
const WINDOW = 16 * 1024;
const STREAMS = 100;

forEachEngine((engine) => {
  let t;

  before(async () => {
    // big.txt is over bufferLimit, so each gzip stream compresses it on the fly into its own
    // spool; a slot for each lets every one of them be compressed.
    t = await startTestServer({
      engine,
      files: { 'big.bin': crypto.randomBytes(32 * MiB), 'big.txt': compressibleText(4 * MiB), 'small.txt': 'ok\n' },
      timeouts: TIMEOUTS,
      bufferLimit: MiB,
      maxConcurrentCompressions: STREAMS,
    });
  });

  after(() => t.close());

  // Resolves how long the server kept a TLS connection that sent `payload` and then
  // nothing, or null if it was still open after boundMs (then it is destroyed).
  function heldFor(alpn, payload, boundMs) {
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const socket = tls.connect({ host: '127.0.0.1', port: t.port, ALPNProtocols: [alpn], ca: t.server.certificate, servername: 'localhost' },
        () => socket.write(payload));
      const timer = setTimeout(() => { resolve(null); socket.destroy(); }, boundMs);
      socket.on('data', () => {});
      socket.on('error', (err) => { if (err.code !== 'ECONNRESET') reject(err); });
      socket.on('close', () => { clearTimeout(timer); resolve(performance.now() - started); });
    });
  }

  describe('slowloris', { concurrency: true }, () => {
    test('HTTP/1.1 headers that never finish lose the socket within the headers timeout', { timeout: SLOWLORIS_BOUND_MS + 10_000 }, async (tc) => {
      const held = await heldFor('http/1.1', 'GET /small.txt HTTP/1.1\r\nHost: localhost\r\nX-Slow: ', SLOWLORIS_BOUND_MS);
      assert.notEqual(held, null, `still open after ${SLOWLORIS_BOUND_MS} ms`);
      tc.diagnostic(`closed after ${Math.round(held)} ms`);
    });

    test('an HTTP/2 connection that stops inside the preface is closed within the same bound', { timeout: SLOWLORIS_BOUND_MS + 10_000 }, async () => {
      const held = await heldFor('h2', 'PRI * HTTP/2.0\r\n', SLOWLORIS_BOUND_MS);
      assert.notEqual(held, null, `still open after ${SLOWLORIS_BOUND_MS} ms`);
    });

    test('an HTTP/2 connection that stops inside a frame header is closed within the same bound', { timeout: SLOWLORIS_BOUND_MS + 10_000 }, async () => {
      // The preface, then 3 of a SETTINGS frame header's 9 bytes.
      const held = await heldFor('h2', Buffer.concat([PREFACE, Buffer.from([0, 0, 0])]), SLOWLORIS_BOUND_MS);
      assert.notEqual(held, null, `still open after ${SLOWLORIS_BOUND_MS} ms`);
    });

    test('an HTTP/2 connection with no open stream that stops inside a later frame header is closed within the same bound', { timeout: SLOWLORIS_BOUND_MS + 10_000 }, async () => {
      // A complete preface and SETTINGS (the preface timer is satisfied), then 3 bytes of the next frame header.
      const held = await heldFor('h2', Buffer.concat([PREFACE, settings(), Buffer.from([0, 0, 0])]), SLOWLORIS_BOUND_MS);
      assert.notEqual(held, null, `still open after ${SLOWLORIS_BOUND_MS} ms`);
    });
  });

  // A session whose streams get a small window and never read: the server can send each
  // stream only WINDOW bytes and must hold the rest back without buffering it.

  function stall(path, headers = {}) {
    return stalledStreams({ origin: t.origin, ca: t.server.certificate, path, count: STREAMS, headers, initialWindowSize: WINDOW });
  }

  function growth(before) {
    const now = process.memoryUsage();
    return { rss: now.rss - before.rss, arrayBuffers: now.arrayBuffers - before.arrayBuffers };
  }

  test(`${STREAMS} HTTP/2 streams of a 32 MiB file and ${STREAMS} of a 4 MiB text compressed on the fly that never read keep the server's memory bounded`, async (tc) => {
    const before = process.memoryUsage();
    const stalled = [stall('/big.bin'), stall('/big.txt', { 'accept-encoding': 'gzip' })];
    const [identity, gzip] = await Promise.all(stalled.map(({ responses }) => Promise.all(responses)));
    assert.deepEqual(new Set(identity.map((h) => `${h[':status']} ${h['content-encoding']}`)), new Set(['200 undefined']));
    assert.deepEqual(new Set(gzip.map((h) => `${h[':status']} ${h['content-encoding']}`)), new Set(['200 gzip']));
    // Let the server push whatever it would buffer.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const grew = growth(before);
    tc.diagnostic(`RSS +${(grew.rss / MiB).toFixed(1)} MiB, arrayBuffers +${(grew.arrayBuffers / MiB).toFixed(1)} MiB`);
    // Buffering the bodies would take 100 x (32 MiB + 4 MiB); backpressure keeps a few file reads
    // per stream, and the compressors write into their spools (256 KiB in memory each, then disk).
    assert.ok(grew.rss < 256 * MiB, `RSS grew ${(grew.rss / MiB).toFixed(1)} MiB`);
    assert.ok(grew.arrayBuffers < 128 * MiB, `arrayBuffers grew ${(grew.arrayBuffers / MiB).toFixed(1)} MiB`);
    assert.equal((await t.h1('/small.txt')).status, 200);
    assert.equal((await t.h2('/small.txt', { session: t.connectH2() })).status, 200);
    for (const { session } of stalled) session.destroy();
  });
});
