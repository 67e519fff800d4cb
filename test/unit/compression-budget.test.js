'use strict';
// The one compression budget (server/compression/compression-budget.js): slots per thread pool,
// shared by the compression cache and streaming compression.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { CompressionBudget, poolSizes, poolOf } = require('../../server/compression/compression-budget');
const { CompressCache } = require('../../server/compression/compress-cache');
const { ZSTD_POOL_SIZE, zstdBackend } = require('../../server/compression/zstd');
const { CODINGS } = require('../../server/compression/codings');

test('each coding compresses on the pool that runs it: zstd-napi\'s zstd on its workers, the rest on libuv', () => {
  const pools = (backend) => [...CODINGS, 'dcz', 'dcb'].map((c) => [c, poolOf(c, backend)]);
  assert.deepEqual(pools('zstd-napi'), [['br', 'libuv'], ['zstd', 'zstd'], ['gzip', 'libuv'], ['deflate', 'libuv'], ['lzma', 'libuv'], ['dcz', 'zstd'], ['dcb', 'libuv']]);
  assert.deepEqual(pools('zlib'), [['br', 'libuv'], ['zstd', 'libuv'], ['gzip', 'libuv'], ['deflate', 'libuv'], ['lzma', 'libuv'], ['dcz', 'libuv'], ['dcb', 'libuv']]);
  assert.equal(poolOf('zstd'), poolOf('zstd', zstdBackend()));
});

// [UV_THREADPOOL_SIZE, libuv slots]: one thread is left to fs calls, at least one slot.
const SIZES = [[undefined, 3], ['4', 3], ['8', 7], ['1', 1], ['2', 1], ['0', 3], ['abc', 3], ['5000', 1023]];
for (const [uv, libuv] of SIZES) {
  test(`UV_THREADPOOL_SIZE=${uv}: ${libuv} libuv slots, ${ZSTD_POOL_SIZE} zstd slots`, () => {
    assert.deepEqual(poolSizes(uv === undefined ? {} : { UV_THREADPOOL_SIZE: uv }), { libuv, zstd: ZSTD_POOL_SIZE });
  });
}

test('a full pool refuses (zstd-napi: zstd on its own pool); the other pool still has its slots; a release frees one slot once', () => {
  const budget = new CompressionBudget({ libuv: 2, zstd: 1 }, { backend: 'zstd-napi' });
  const a = budget.tryAcquire('gzip', 'cache');
  const b = budget.tryAcquire('br', 'stream');
  assert.equal(typeof a, 'function');
  assert.equal(typeof b, 'function');
  assert.equal(budget.tryAcquire('lzma', 'cache'), null, 'libuv is full');
  const z = budget.tryAcquire('zstd', 'stream');
  assert.equal(typeof z, 'function');
  assert.equal(budget.tryAcquire('zstd', 'cache'), null, 'zstd is full');
  assert.deepEqual(budget.stats.sizes, { libuv: 2, zstd: 1 });
  assert.deepEqual(budget.stats.used, { libuv: 2, zstd: 1 });
  assert.deepEqual([budget.inUse('cache'), budget.inUse('stream')], [1, 2]);
  a();
  a();
  assert.deepEqual(budget.stats.used, { libuv: 1, zstd: 1 }, 'a second release of the same slot changes nothing');
  assert.equal(typeof budget.tryAcquire('deflate', 'cache'), 'function');
  assert.equal(budget.tryAcquire('gzip', 'cache'), null);
  b();
  z();
  assert.deepEqual(budget.stats.used, { libuv: 1, zstd: 0 });
  assert.deepEqual([budget.inUse('cache'), budget.inUse('stream')], [1, 0]);
});

test('slots taken and the ms they were held are counted per use, a refusal and a second release not', () => {
  let now = 1000;
  // zstd-napi's own pool, so zstd has a slot of its own whatever this runtime's backend.
  const budget = new CompressionBudget({ libuv: 1, zstd: 1 }, { now: () => now, backend: 'zstd-napi' });
  const a = budget.tryAcquire('gzip', 'cache');
  assert.equal(budget.tryAcquire('br', 'stream'), null);
  const z = budget.tryAcquire('zstd', 'stream');
  now += 25;
  a();
  now += 100;
  z();
  a();
  assert.deepEqual({ acquired: budget.stats.acquired, heldMs: budget.stats.heldMs }, { acquired: { cache: 1, stream: 1 }, heldMs: { cache: 25, stream: 125 } });
});

test('sizes below one are one', () => {
  assert.deepEqual(new CompressionBudget({ libuv: 0, zstd: -3 }).stats.sizes, { libuv: 1, zstd: 1 });
});

test('the cache takes its slots from the same budget as streaming compression', async () => {
  const budget = new CompressionBudget({ libuv: 1, zstd: 1 });
  let finish;
  const engines = { compress: () => new Promise((resolve) => { finish = resolve; }) };
  const cache = new CompressCache({ engines, budget, maxBytes: 1000 });
  const stream = budget.tryAcquire('br', 'stream');
  assert.equal(await cache.getOrCompress('a', 'gzip', async () => Buffer.from('x')), null, 'a streaming compression holds the libuv slot');
  stream();
  const job = cache.getOrCompress('a', 'gzip', async () => Buffer.from('x'));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(budget.tryAcquire('br', 'stream'), null, 'now the cache holds it');
  finish(Buffer.from('y'));
  assert.deepEqual(await job, Buffer.from('y'));
  assert.deepEqual(budget.stats.used, { libuv: 0, zstd: 0 }, 'released when the compression ended');
  assert.equal(cache.stats.rejected, 1);
});
