'use strict';
// Mutational fuzzing of the HTTP/1.1 request parser for a bounded time (H1_FUZZ_MS, default
// 10 s; H1_FUZZ_SEED to replay a run). For every mutant of the corpus: the parser never
// throws, gives the same results however the bytes are split, and every request it accepts is
// one llhttp (Node's HTTP server on loopback, as strict as startServer runs it) accepts too,
// with the same method and target.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const net = require('node:net');
const { RequestParser, MAX_HEAD_BYTES } = require('../../server/engines/h1/request-parser');
const { RequestError } = require('../../server/errors');
const { buildCorpus } = require('../helpers/h1-corpus');
const { createRandom } = require('../fuzz/random');

const FUZZ_MS = Number(process.env.H1_FUZZ_MS || 10_000);
const SEED = Number(process.env.H1_FUZZ_SEED || 0x5eed);
const ORACLE_CONCURRENCY = 4;
const ORACLE_WAIT_MS = 2_000;


const INTERESTING = Buffer.from('\r\n \t:,;"\0\x7f\x80\xff-+0159aAzZ/?#*%@\x0b\x0c', 'latin1');
const FIELDS = [
  'Transfer-Encoding: chunked', 'Transfer-Encoding : chunked', 'Transfer-Encoding:\tchunked', 'Transfer-encoding: xchunked',
  'Content-Length: 0', 'Content-Length: 1', 'Content-Length: +0', 'Content-Length: 0, 0', 'content-length:00',
  'Host: localhost', 'Host: a b', 'Host:', 'Connection: close', 'Connection: keep-alive', 'Upgrade: h2c',
  'Expect: 100-continue', ' folded', 'X-Empty:', 'Cookie: a=1',
].map((f) => Buffer.from(f + '\r\n', 'latin1'));

// seeds: { all, valid }; most mutants start from a valid request, so that many of them are
// still requests the parser accepts and llhttp gets to judge.
function mutate(rand, seeds) {
  const pool = rand() < 0.7 ? seeds.valid : seeds.all;
  let b = Buffer.from(pool[Math.floor(rand() * pool.length)]);
  const rounds = 1 + Math.floor(rand() * rand() * 4);
  for (let r = 0; r < rounds; r++) {
    const at = Math.floor(rand() * (b.length + 1));
    switch (Math.floor(rand() * 7)) {
      case 0: if (b.length > 0) b[Math.min(at, b.length - 1)] ^= 1 << Math.floor(rand() * 8); break;
      case 1: b = Buffer.concat([b.subarray(0, at), INTERESTING.subarray(Math.floor(rand() * INTERESTING.length)).subarray(0, 1), b.subarray(at)]); break;
      case 2: b = Buffer.concat([b.subarray(0, at), b.subarray(at + 1 + Math.floor(rand() * 3))]); break;
      case 3: {
        // A field line inserted after the request line or any later line end.
        const lf = b.indexOf(10, at);
        if (lf !== -1) b = Buffer.concat([b.subarray(0, lf + 1), FIELDS[Math.floor(rand() * FIELDS.length)], b.subarray(lf + 1)]);
        break;
      }
      case 4: b = Buffer.concat([b.subarray(0, at), seeds.all[Math.floor(rand() * seeds.all.length)]]); break;
      case 5: if (b.length > 0) b[Math.min(at, b.length - 1)] = INTERESTING[Math.floor(rand() * INTERESTING.length)]; break;
      default: b = b.subarray(0, at);
    }
  }
  return b;
}

// What the parser makes of `bytes` pushed in the given pieces: requests (method, target,
// keepAlive, upgrade) up to the first refusal, then the refusal's status or 'more'.
function parse(bytes, splits) {
  const parser = new RequestParser();
  const requests = [];
  let last = 0;
  for (const cut of [...splits, bytes.length]) {
    parser.push(bytes.subarray(last, cut));
    last = cut;
    for (let r = parser.next(); r !== null; r = parser.next()) {
      if (r instanceof RequestError) return { requests, end: r.status };
      requests.push({ method: r.method, target: r.target, keepAlive: r.keepAlive, upgrade: r.headers.upgrade !== undefined });
    }
  }
  return { requests, end: 'more' };
}

// The requests llhttp takes from the same bytes, in order.
function llhttpRequests(port, bytes) {
  return new Promise((resolve) => {
    let key;
    const socket = net.connect(port, '127.0.0.1', () => {
      key = socket.localPort;
      socket.end(bytes);
    });
    const timer = setTimeout(() => socket.destroy(), ORACLE_WAIT_MS);
    socket.on('error', () => {});
    socket.on('data', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(seen.get(key) || []);
      seen.delete(key);
    });
  });
}

const seen = new Map();
let oracle;

before(async () => {
  const record = (req, res) => {
    const key = req.socket.remotePort;
    if (!seen.has(key)) seen.set(key, []);
    seen.get(key).push({ method: req.method, target: req.url });
    res.end();
  };
  oracle = http.createServer({ maxHeaderSize: MAX_HEAD_BYTES, requireHostHeader: false }, record);
  // An Expect other than 100-continue is parsed fine; Node would answer it 417 itself.
  oracle.on('checkExpectation', record);
  await new Promise((resolve) => oracle.listen(0, '127.0.0.1', resolve));
});

after(() => new Promise((resolve) => oracle.close(resolve)));

test(`fuzz the request parser for ${FUZZ_MS} ms (seed ${SEED})`, { timeout: FUZZ_MS + 60_000 }, async (t) => {
  const rand = createRandom(SEED).next;
  const all = buildCorpus().map((c) => c.bytes).filter((b) => b.length < 4096);
  const seeds = { all, valid: all.filter((b) => parse(b, []).requests.length > 0) };
  const port = oracle.address().port;
  const deadline = performance.now() + FUZZ_MS;
  let mutants = 0;
  let checked = 0;
  let accepted = 0;

  async function worker() {
    while (performance.now() < deadline) {
      const bytes = mutate(rand, seeds);
      mutants++;
      const whole = parse(bytes, []);
      const cut = Math.floor(rand() * bytes.length);
      assert.deepEqual(parse(bytes, [cut, Math.min(bytes.length, cut + 1)]), whole, `split at ${cut}: ${JSON.stringify(bytes.toString('latin1'))}`);
      // Node stops parsing after a request that closes or upgrades; compare up to there.
      const ours = [];
      for (const r of whole.requests) {
        ours.push(r);
        if (!r.keepAlive || r.upgrade) break;
      }
      if (ours.length === 0) continue;
      accepted++;
      checked++;
      const theirs = await llhttpRequests(port, bytes);
      for (let i = 0; i < ours.length; i++) {
        assert.deepEqual(theirs[i], { method: ours[i].method, target: ours[i].target },
          `native accepted request ${i} that llhttp did not: ${JSON.stringify(bytes.toString('latin1'))}`);
      }
    }
  }
  await Promise.all(Array.from({ length: ORACLE_CONCURRENCY }, worker));
  t.diagnostic(`${mutants} mutants, ${accepted} with accepted requests, ${checked} checked against llhttp`);
});
