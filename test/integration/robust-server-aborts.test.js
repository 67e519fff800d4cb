'use strict';
// Clients that abort mid-body while the server compresses on the fly (a large compressible
// file without precompressed variants): every compressor, compression slot and file
// descriptor must be released. The server runs in this process, so its fds are ours.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { waitFor, countOpenFds, isFileOrSocket } = require('../helpers/poll');
const https = require('node:https');
const { forEachEngine, startTestServer, compressibleText } = require('../helpers/server');
const { engines } = require('../helpers/clients');

const MiB = 1024 * 1024;
const SETTLE_MS = 5000;
const ROUNDS = 5;

forEachEngine((engine) => {
  let t;

  before(async () => {
    // Over bufferLimit, so the file is streamed from an fd through a streaming compressor.
    t = await startTestServer({ engine, files: { 'big.txt': compressibleText(16 * MiB), 'small.txt': 'ok\n' }, bufferLimit: MiB });
  });

  after(() => t.close());

  // Polls until the count of open files and sockets is at most `baseline` and no compression
  // slot is held; resolves that count.
  async function settled(baseline) {
    const now = () => ({ fds: countOpenFds(isFileOrSocket), compressions: t.stats.streamingCompressions });
    const done = () => {
      const state = now();
      return state.fds <= baseline && state.compressions === 0 ? state : null;
    };
    return (await waitFor(done, { timeoutMs: SETTLE_MS, intervalMs: 50, what: () => `fds <= ${baseline} and no compression slot held: ${JSON.stringify(now())}` })).fds;
  }

  // Starts a request and destroys it once the first body bytes arrive; resolves the
  // response's coding (identity when all compression slots were busy).
  function abortH1(coding) {
    return new Promise((resolve, reject) => {
      const req = https.get({
        host: '127.0.0.1', port: t.port, path: '/big.txt', ca: t.server.certificate, servername: 'localhost',
        agent: false, ALPNProtocols: ['http/1.1'], headers: { 'accept-encoding': coding },
      }, (res) => {
        res.once('data', () => { req.destroy(); resolve(res.headers['content-encoding'] ?? 'identity'); });
      });
      req.on('error', (err) => { if (!req.destroyed) reject(new Error(`HTTP/1.1 ${coding} request: ${err.message}`)); });
    });
  }

  function abortH2(session, coding) {
    return new Promise((resolve, reject) => {
      const stream = session.request({ ':path': '/big.txt', 'accept-encoding': coding });
      let got = 'identity';
      stream.on('response', (h) => { got = h['content-encoding'] ?? 'identity'; });
      stream.once('data', () => { stream.close(0x8); resolve(got); }); // CANCEL
      stream.on('error', (err) => reject(new Error(`HTTP/2 ${coding} request: ${err.message}`)));
      stream.end();
    });
  }

  // One HTTP/1.1 abort, then two concurrent HTTP/2 aborts on a fresh session; resolves the codings.
  async function abortRound(coding) {
    const codings = [await abortH1(coding)];
    const session = t.connectH2();
    // Concurrent, so one may find every compression slot taken and fall back to identity.
    codings.push(...await Promise.all([abortH2(session, coding), abortH2(session, coding)]));
    session.destroy();
    return codings;
  }

  for (const coding of ['gzip', 'deflate', 'br', 'zstd', 'lzma'].filter((c) => engines.available.includes(c))) {
    test(`aborting ${coding} responses mid-body releases compressors and fds`, async (tc) => {
      // A warm-up round opens what the server keeps for good (cached handles).
      await abortRound(coding);
      const baseline = await settled(Infinity);
      const codings = [];
      for (let i = 0; i < ROUNDS; i++) codings.push(...await abortRound(coding));
      const after = await settled(baseline);
      tc.diagnostic(`fds ${baseline} -> ${after} after ${codings.length} aborted responses`);
      assert.ok(codings.includes(coding), `no response was ${coding}: ${codings}`);
      assert.equal((await t.h1('/small.txt')).status, 200);
    });
  }
});
