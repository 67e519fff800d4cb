'use strict';
// The soak test's own clients, besides wrk and h2load: a checker that fetches a sample of
// responses and compares each, decoded, with the source bytes; and an aborter that starts
// on-the-fly compressed downloads and abandons them mid-body. Both run until stop().
const https = require('node:https');
const http2 = require('node:http2');
const { fetchSample } = require('../lib/fetch-sample');
const { decodeBody } = require('../lib/decode-body');

const CODINGS = ['br', 'gzip', 'zstd', 'lzma', 'deflate', 'identity'];
const BIG = '/stream/big.txt';

function loop(intervalMs, step) {
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const next = new Promise((resolve) => setTimeout(resolve, intervalMs));
      await step();
      await next;
    }
  })();
  return async () => {
    stopped = true;
    await done;
  };
}

// Counts { ok, failed, corrupt } and keeps the first few problems for the report.
function startChecker(origin, sources, { intervalMs = 500 } = {}) {
  const counts = { ok: 0, failed: 0, corrupt: 0, byCoding: {} };
  const problems = [];
  const paths = [...sources.keys()];
  let i = 0;
  const stop = loop(intervalMs, async () => {
    i++;
    // The streamed file costs seconds of CPU per lzma request: one sample in eight.
    const rel = i % 8 === 0 ? BIG : paths[(i * 7) % paths.length];
    const coding = CODINGS[i % CODINGS.length];
    const protocol = i % 2 ? 'h2' : 'h1';
    const what = `${protocol} ${rel} ${coding}`;
    try {
      const r = await fetchSample(origin + rel, { protocol, acceptEncoding: coding, timeoutMs: 60_000 });
      const body = await decodeBody(r.headers['content-encoding'], r.body);
      const length = r.headers['content-length'];
      if (r.status !== 200) throw new Error(`status ${r.status}`);
      if (!body.equals(sources.get(rel)) || (length !== undefined && Number(length) !== r.body.length)) {
        counts.corrupt++;
        if (problems.length < 10) problems.push(`${what}: body differs from the source`);
        return;
      }
      counts.ok++;
      const served = r.headers['content-encoding'] || 'identity';
      counts.byCoding[served] = (counts.byCoding[served] || 0) + 1;
    } catch (err) {
      counts.failed++;
      if (problems.length < 10) problems.push(`${what}: ${err.message}`);
    }
  });
  return { stop: async () => { await stop(); return { ...counts, problems }; } };
}

// One request for the streamed file, destroyed once its first body bytes arrive.
function abortOnce(origin, protocol, coding) {
  return new Promise((resolve) => {
    const headers = { 'accept-encoding': coding };
    if (protocol === 'h1') {
      const req = https.get(origin + BIG, { headers, rejectUnauthorized: false, agent: false }, (res) => {
        res.once('data', () => { req.destroy(); resolve(true); });
      });
      req.on('error', () => resolve(false));
      return;
    }
    const session = http2.connect(origin, { rejectUnauthorized: false });
    session.on('error', () => resolve(false));
    const stream = session.request({ ':path': BIG, ...headers });
    stream.on('error', () => {});
    stream.once('data', () => { session.destroy(); resolve(true); });
    stream.on('close', () => { session.destroy(); resolve(false); });
  });
}

function startAborter(origin, { intervalMs = 250 } = {}) {
  const counts = { aborted: 0, failedToStart: 0 };
  let i = 0;
  const stop = loop(intervalMs, async () => {
    i++;
    const ok = await abortOnce(origin, i % 2 ? 'h2' : 'h1', ['br', 'lzma', 'gzip', 'zstd'][i % 4]);
    counts[ok ? 'aborted' : 'failedToStart']++;
  });
  return { stop: async () => { await stop(); return counts; } };
}

module.exports = { startChecker, startAborter, CODINGS };
