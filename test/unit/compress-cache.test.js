'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const zlib = require('node:zlib');
const { CompressCache: Cache } = require('../../server/compression/compress-cache');
const { CompressionBudget } = require('../../server/compression/compression-budget');
const { createEngines } = require('../../server/compression/codings');

/**
 * An engine whose compressions finish only when the test says so, recording
 * every call: compress() resolves to `size` bytes, or rejects via fail().
 */
function spyEngines() {
  const calls = [];
  return {
    calls,
    available: ['gzip'],
    compress(coding, input, options) {
      let resolve;
      let reject;
      const promise = new Promise((res, rej) => {
        resolve = res;
        reject = rej;
      });
      calls.push({ coding, input, options, finish: (size) => resolve(Buffer.alloc(size, 1)), fail: reject });
      return promise;
    },
  };
}

const MiB = 1024 * 1024;

/** A cache with its own budget of `slots` per pool (default 4) and maxBytes 64 MiB unless set. */
function newCache({ slots = 4, maxBytes = 64 * MiB, ...rest }) {
  return new Cache({ budget: new CompressionBudget({ libuv: slots, zstd: slots }), maxBytes, ...rest });
}

const source = (text = 'identity body') => async () => Buffer.from(text);

/** Lets pending promise callbacks (loadSource, engine call) run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Fills the cache with a finished entry of `size` bytes. */
async function put(cache, engines, key, size) {
  const pending = cache.getOrCompress(key, 'gzip', source());
  await settle();
  engines.calls.at(-1).finish(size);
  return pending;
}

test('evicts least recently used entries until total bytes fit', async () => {
  const engines = spyEngines();
  const cache = newCache({ engines, maxBytes: 100, maxEntryBytes: 100 });
  await put(cache, engines, 'a', 40);
  await put(cache, engines, 'b', 40);
  assert.equal(cache.stats.bytes, 80);
  assert.ok(cache.get('a'), 'a is now the most recently used');
  await put(cache, engines, 'c', 40);
  assert.equal(cache.get('b'), undefined, 'b was least recently used');
  assert.ok(cache.get('a'));
  assert.ok(cache.get('c'));
  assert.equal(cache.stats.bytes, 80);
  // One large entry pushes out several older ones, oldest first.
  await put(cache, engines, 'd', 90);
  assert.deepEqual([cache.get('a'), cache.get('c')], [undefined, undefined]);
  assert.equal(cache.get('d').length, 90);
  assert.deepEqual({ entries: cache.stats.entries, bytes: cache.stats.bytes }, { entries: 1, bytes: 90 });
});

test('concurrent requests for one key share a single compression', async () => {
  const engines = spyEngines();
  const cache = newCache({ engines, slots: 1 });
  let loads = 0;
  const load = async () => {
    loads++;
    return Buffer.from('body');
  };
  const waiters = Array.from({ length: 10 }, () => cache.getOrCompress('k', 'gzip', load));
  await settle();
  assert.equal(engines.calls.length, 1, 'engine called once');
  assert.equal(loads, 1, 'source loaded once');
  assert.deepEqual(engines.calls[0].options, { level: 'dynamic' });
  assert.equal(cache.stats.inflight, 1);
  engines.calls[0].finish(7);
  const results = await Promise.all(waiters);
  assert.ok(results.every((r) => r === results[0] && r.length === 7), 'all waiters get the same buffer');
  assert.equal(await cache.getOrCompress('k', 'gzip', load), results[0]);
  assert.deepEqual(cache.stats, { hits: 1, misses: 10, compressions: 1, inflight: 0, rejected: 0, entries: 1, bytes: 7 });
});

test('returns null instead of queueing when the budget has no slot, and frees its slot when done', async () => {
  const engines = spyEngines();
  const cache = newCache({ engines, slots: 2 });
  const first = cache.getOrCompress('a', 'gzip', source());
  const second = cache.getOrCompress('b', 'gzip', source());
  assert.equal(await cache.getOrCompress('c', 'gzip', source()), null);
  assert.equal(cache.stats.rejected, 1);
  await settle();
  engines.calls[0].finish(3);
  await first;
  const third = cache.getOrCompress('c', 'gzip', source());
  await settle();
  engines.calls[1].finish(3);
  engines.calls[2].finish(3);
  assert.equal((await second).length, 3);
  assert.equal((await third).length, 3);
  assert.deepEqual(cache.stats, { hits: 0, misses: 4, compressions: 3, inflight: 0, rejected: 1, entries: 3, bytes: 9 });
});

test('a failed compression rejects every waiter and is not cached', async () => {
  const engines = spyEngines();
  const cache = newCache({ engines });
  const waiters = [1, 2, 3].map(() => cache.getOrCompress('k', 'gzip', source()));
  await settle();
  const boom = Object.assign(new Error('engine exploded'), { code: 'ERR_TEST' });
  engines.calls[0].fail(boom);
  for (const waiter of waiters) await assert.rejects(waiter, boom);
  assert.deepEqual({ inflight: cache.stats.inflight, entries: cache.stats.entries }, { inflight: 0, entries: 0 });
  const retry = cache.getOrCompress('k', 'gzip', source());
  await settle();
  assert.equal(engines.calls.length, 2, 'the retry compresses again');
  engines.calls[1].finish(5);
  assert.equal((await retry).length, 5);
});

test('a failing loadSource rejects and frees its slot, even when it throws synchronously', async () => {
  const engines = spyEngines();
  const cache = newCache({ engines, slots: 1 });
  const thrower = () => {
    throw Object.assign(new Error('gone'), { code: 'ENOENT' });
  };
  await assert.rejects(cache.getOrCompress('k', 'gzip', thrower), { code: 'ENOENT' });
  await assert.rejects(cache.getOrCompress('k', 'gzip', async () => thrower()), { code: 'ENOENT' });
  assert.equal(cache.stats.inflight, 0);
  assert.equal(engines.calls.length, 0);
  const next = cache.getOrCompress('k', 'gzip', source());
  assert.notEqual(next, null);
  await settle();
  engines.calls[0].finish(2);
  assert.equal((await next).length, 2);
});

test('outputs larger than maxEntryBytes are returned but not stored', async () => {
  const engines = spyEngines();
  const cache = newCache({ engines, maxBytes: 1000, maxEntryBytes: 10 });
  assert.equal((await put(cache, engines, 'big', 11)).length, 11);
  assert.equal(cache.get('big'), undefined);
  assert.equal((await put(cache, engines, 'small', 10)).length, 10);
  assert.deepEqual({ entries: cache.stats.entries, bytes: cache.stats.bytes, compressions: cache.stats.compressions }, { entries: 1, bytes: 10, compressions: 2 });
});

test('defaults: maxEntryBytes an eighth of maxBytes; engines, budget and maxBytes are required', () => {
  const cache = newCache({ engines: spyEngines(), maxBytes: 64 * MiB });
  assert.equal(cache.maxEntryBytes, 8 * MiB);
  const budget = new CompressionBudget({ libuv: 1, zstd: 1 });
  for (const options of [{}, { budget, maxBytes: 1 }, { engines: spyEngines(), maxBytes: 1 }, { engines: spyEngines(), budget }]) {
    assert.throws(() => new Cache(options), { code: 'ERR_INVALID_ARG_VALUE' });
  }
});

test('with real engines, cached bodies decode to the source', async () => {
  const engines = createEngines();
  const cache = newCache({ engines });
  const body = Buffer.from('<p>hello negotiated world</p>\n'.repeat(200));
  for (const coding of ['gzip', 'br', 'zstd']) {
    const compressed = await cache.getOrCompress(`/index.html:${coding}`, coding, async () => body);
    assert.ok((await engines.decompress(coding, compressed)).equals(body), coding);
  }
  assert.ok(zlib.gunzipSync(cache.get('/index.html:gzip')).equals(body));
  assert.equal(cache.stats.compressions, 3);
});
