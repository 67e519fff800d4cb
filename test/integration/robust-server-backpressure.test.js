'use strict';
// Clients that ask for much and take nothing: HTTP/2 streams with a zero flow-control window,
// HTTP/1.1 connections that pipeline requests and never read, and slow readers of compressed
// responses. Memory must stay bounded (per stream, per connection, per process), a stalled
// reader must not keep a compression slot, and other clients must still be served.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const http2 = require('node:http2');
const tls = require('node:tls');
const v8 = require('node:v8');
const vm = require('node:vm');
const zlib = require('node:zlib');
const { forEachEngine, startTestServer, compressibleText, openSpoolFiles } = require('../helpers/server');
const { stalledStreams } = require('../helpers/clients');
const { waitFor } = require('../helpers/poll');

const MiB = 1024 * 1024;
const KiB = 1024;
const BIG = crypto.randomBytes(32 * MiB);
const TEXT = Buffer.from(compressibleText(8 * MiB));
const FILES = { 'big.bin': BIG, 'big.txt': TEXT, 'page.bin': crypto.randomBytes(16 * KiB), 'small.txt': 'ok\n' };

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Resolves a session whose `count` streams have their response headers and a zero window.
async function zeroWindowSession(server, path, count, headers = {}) {
  const { session, responses } = stalledStreams({ origin: server.origin, ca: server.server.certificate, path, count, headers });
  await Promise.all(responses);
  return session;
}

function closeSessions(sessions) {
  return Promise.all(sessions.map((s) => new Promise((resolve) => { s.once('close', resolve); s.destroy(); })));
}

const settle = (condition) => waitFor(condition, { timeoutMs: 10_000, intervalMs: 50, what: String(condition) });

// How each engine resets a stream that hit sendTimeout: the native engine says CANCEL; Node
// holds a RST_STREAM CANCEL back behind the stream's unsent data, so http2.js destroys the
// stream, which Node sends as INTERNAL_ERROR.
const SEND_TIMEOUT_CODE = { node: http2.constants.NGHTTP2_INTERNAL_ERROR, native: http2.constants.NGHTTP2_CANCEL };

forEachEngine((engine) => {
  let t;

  before(async () => {
    // big.txt is over bufferLimit, so it is compressed while streaming; one slot makes it scarce.
    t = await startTestServer({ engine, files: FILES, bufferLimit: MiB, maxConcurrentCompressions: 1 });
  });

  after(() => t.close());

  test('zero-window HTTP/2 streams pin one small chunk each, and the memory comes back', async (tc) => {
    const CONNECTIONS = 8;
    const STREAMS = 128;
    gc();
    const before = process.memoryUsage();
    const sessions = [];
    for (let i = 0; i < CONNECTIONS; i++) sessions.push(await zeroWindowSession(t, '/big.bin', STREAMS));
    await sleep(500);
    const held = process.memoryUsage();
    const grew = { rss: held.rss - before.rss, arrayBuffers: held.arrayBuffers - before.arrayBuffers };
    tc.diagnostic(`${CONNECTIONS * STREAMS} streams: RSS +${(grew.rss / MiB).toFixed(1)} MiB, arrayBuffers +${(grew.arrayBuffers / MiB).toFixed(1)} MiB`);
    // Reading ahead took 4 x 64 KiB per stream (256 MiB here); one 16 KiB first chunk is 16 MiB.
    assert.ok(grew.arrayBuffers < 48 * MiB, `arrayBuffers grew ${(grew.arrayBuffers / MiB).toFixed(1)} MiB`);
    assert.ok(grew.rss < 160 * MiB, `RSS grew ${(grew.rss / MiB).toFixed(1)} MiB`);
    assert.ok(t.stats.bufferedBytes.used <= CONNECTIONS * STREAMS * 16 * KiB, `${t.stats.bufferedBytes.used} bytes charged`);
    assert.equal((await t.h2('/small.txt', { session: t.connectH2() })).status, 200);

    await closeSessions(sessions);
    await settle(() => t.stats.bufferedBytes.used === 0);
    // Write requests still queued in closed streams go with their handles, which takes a GC or two.
    for (let i = 0; i < 3; i++) { gc(); await sleep(200); }
    const afterClose = process.memoryUsage();
    tc.diagnostic(`after close: arrayBuffers ${((afterClose.arrayBuffers - before.arrayBuffers) / MiB).toFixed(1)} MiB over the start, RSS ${((afterClose.rss - before.rss) / MiB).toFixed(1)} MiB`);
    assert.equal(t.stats.bufferedBytes.used, 0);
    assert.ok(afterClose.arrayBuffers - before.arrayBuffers < 8 * MiB, 'buffers still held after the connections closed');
  });

  test('the process budget caps bytes held for stalled streams, and closing them frees it', async () => {
    const budget = t.stats.bufferedBytes;
    // A second server whose budget is smaller than what 128 zero-window streams would pin.
    const small = await startTestServer({ engine, files: { 'big.bin': BIG, 'small.txt': 'ok\n' }, bufferedBytesLimit: MiB });
    try {
      const session = await zeroWindowSession(small, '/big.bin', 128);
      await settle(() => small.stats.bufferedBytes.used / (16 * KiB) + small.stats.bufferedBytes.waiting === 128);
      const held = small.stats.bufferedBytes;
      assert.equal(held.used, MiB, 'the budget is used up');
      assert.equal(held.peak, MiB, 'and never exceeded');
      assert.equal(held.waiting, 128 - MiB / (16 * KiB), 'the streams past it wait instead of reading');
      await new Promise((resolve) => { session.once('close', resolve); session.destroy(); });
      await settle(() => small.stats.bufferedBytes.used === 0 && small.stats.bufferedBytes.waiting === 0);
      assert.deepEqual({ ...small.stats.bufferedBytes, peak: 0 }, { used: 0, peak: 0, waiting: 0, limit: MiB });
      const got = await small.h2('/big.bin');
      assert.equal(got.status, 200);
      assert.ok(got.body.equals(BIG));
    } finally {
      await small.close();
    }
    assert.equal(budget.limit, 128 * MiB, 'the default budget');
  });

  test('an HTTP/2 stream whose window never opens is reset after sendTimeout, releasing what it held', { timeout: 20_000 }, async () => {
    const quick = await startTestServer({ engine, files: { 'big.bin': BIG, 'big.txt': TEXT }, bufferLimit: MiB, timeouts: { sendTimeout: 1000 } });
    try {
      // A streamed file and a streamed compression, both on a session with a zero window.
      const { session, streams, responses } = stalledStreams({ origin: quick.origin, ca: quick.server.certificate, path: '/big.bin', count: 1 });
      const compressed = session.request({ ':path': '/big.txt', 'accept-encoding': 'gzip' });
      compressed.on('error', () => {});
      compressed.end();
      streams.push(compressed);
      await Promise.all(responses);
      // PINGs keep the session's own timer from ever firing.
      const pinger = setInterval(() => session.ping(() => {}), 200);
      const codes = await Promise.all(streams.map((stream) => new Promise((resolve) => stream.once('close', () => resolve(stream.rstCode)))))
        .finally(() => clearInterval(pinger));
      assert.deepEqual(codes, [SEND_TIMEOUT_CODE[engine], SEND_TIMEOUT_CODE[engine]]);
      await settle(() => quick.stats.bufferedBytes.used === 0 && openSpoolFiles() === 0);
      assert.equal(quick.stats.bufferedBytes.used, 0);
      assert.equal(openSpoolFiles(), 0);
      session.destroy();
    } finally {
      await quick.close();
    }
  });

  // A raw TLS client (ALPN http/1.1) that writes `count` pipelined GETs of `path` and never reads.
  function pipelineWithoutReading(path, count) {
    const socket = tls.connect({ host: '127.0.0.1', port: t.port, ca: t.server.certificate, servername: 'localhost', ALPNProtocols: ['http/1.1'] }, () => {
      socket.pause();
      socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`.repeat(count));
    });
    socket.on('error', () => {});
    return socket;
  }

  test('HTTP/1.1 connections pipelining requests they never read stop being served', async (tc) => {
    const CONNECTIONS = 4;
    const REQUESTS = 4000;
    gc();
    const before = { rss: process.memoryUsage().rss, requests: t.stats.requests };
    const sockets = [];
    for (let i = 0; i < CONNECTIONS; i++) sockets.push(pipelineWithoutReading('/page.bin', REQUESTS));
    // Long enough to serve all of them into memory, as the server did before.
    await sleep(3000);
    const other = await t.h1('/small.txt');
    const served = t.stats.requests - before.requests - 1;
    const grew = process.memoryUsage().rss - before.rss;
    tc.diagnostic(`${served} of ${CONNECTIONS * REQUESTS} requests served, RSS +${(grew / MiB).toFixed(1)} MiB`);
    assert.equal(other.status, 200);
    // Responses are 16 KiB: what the kernel's socket buffers absorb (a few MiB per connection
    // on loopback) plus 8 per connection, far from the 4000 each sent.
    assert.ok(served < CONNECTIONS * REQUESTS / 4, `${served} requests served`);
    assert.ok(grew < 96 * MiB, `RSS grew ${(grew / MiB).toFixed(1)} MiB`);
    for (const socket of sockets) socket.destroy();
  });

  test('a pipelining client that reads gets every response in order', async () => {
    const REQUESTS = 2000;
    const paths = Array.from({ length: REQUESTS }, (_, i) => (i % 2 === 0 ? '/small.txt' : '/page.bin'));
    const received = await new Promise((resolve, reject) => {
      const socket = tls.connect({ host: '127.0.0.1', port: t.port, ca: t.server.certificate, servername: 'localhost', ALPNProtocols: ['http/1.1'] },
        () => socket.write(paths.map((p) => `GET ${p} HTTP/1.1\r\nHost: localhost\r\n\r\n`).join('')));
      const chunks = [];
      let size = 0;
      const expected = REQUESTS / 2 * (3 + FILES['page.bin'].length);
      socket.on('data', (c) => {
        chunks.push(c);
        size += c.length;
        if (size > expected) {
          const text = Buffer.concat(chunks).toString('latin1');
          if ((text.match(/HTTP\/1\.1 200 /g) || []).length === REQUESTS) { socket.destroy(); resolve(text); }
        }
      });
      socket.on('error', reject);
      socket.setTimeout(20_000, () => reject(new Error('timed out')));
    });
    const lengths = [...received.matchAll(/content-length: (\d+)/gi)].map((m) => Number(m[1]));
    assert.deepEqual(lengths, paths.map((p) => (p === '/small.txt' ? 3 : FILES['page.bin'].length)));
  });

  test('stalled readers of compressed responses do not keep the compression slot', async (tc) => {
    // Every slot (one) taken by responses the clients never read: zero-window HTTP/2 streams,
    // and an HTTP/1.1 connection that never reads.
    const before = t.stats.requests;
    const sessions = [await zeroWindowSession(t, '/big.txt', 2, { 'accept-encoding': 'gzip' })];
    const socket = tls.connect({ host: '127.0.0.1', port: t.port, ca: t.server.certificate, servername: 'localhost', ALPNProtocols: ['http/1.1'] },
      () => { socket.pause(); socket.write('GET /big.txt HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip\r\n\r\n'); });
    socket.on('error', () => {});
    // Compression runs at its own speed into the spools, so the slot comes back once all three
    // stalled requests have reached the server.
    await settle(() => t.stats.requests === before + 3 && t.stats.streamingCompressions === 0);
    assert.equal(t.stats.requests, before + 3, 'the three stalled requests reached the server');
    const got = await t.h2('/big.txt', { headers: { 'accept-encoding': 'gzip, identity;q=0' }, session: t.connectH2() });
    assert.equal(got.status, 200, `got ${got.status}: ${got.body.subarray(0, 80)}`);
    assert.equal(got.headers['content-encoding'], 'gzip');
    assert.ok(zlib.gunzipSync(got.body).equals(TEXT), 'the gzip body decodes to the file');
    tc.diagnostic(`spool files open while the readers stall: ${openSpoolFiles()}`);

    await closeSessions(sessions);
    socket.destroy();
    await settle(() => openSpoolFiles() === 0 && t.stats.bufferedBytes.used === 0);
    assert.equal(openSpoolFiles(), 0, 'spool files left open');
    assert.equal(t.stats.bufferedBytes.used, 0);
  });
});
