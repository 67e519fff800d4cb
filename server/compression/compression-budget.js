'use strict';
// How many on-the-fly compressions may run at once: one budget that the compression cache
// (whole files) and streaming compression (files over bufferLimit) both take slots from,
// counted per thread pool, because that is where compressions wait for each other:
// - libuv's pool (UV_THREADPOOL_SIZE threads, 4 by default) runs zlib's br, gzip and deflate,
//   iltorb and lzma-native. It also runs every fs call, so one thread is left to file reads:
//   an lzma-native job holds its thread for a whole buffer, and with every thread compressing
//   no response could read its file.
// - zstd and dcz run on libuv's too with node:zlib's zstd, and on zstd's own worker threads
//   (ZSTD_POOL_SIZE) with the zstd-napi backend (zstd.js picks the backend); dcb on libuv's.
// A compression admitted beyond its pool's threads would not start sooner: it would queue,
// holding its input and output, while the request could be answered now with a variant or
// identity. So a full pool refuses (tryAcquire returns null) and the caller renegotiates or
// answers 503.

const { ZSTD_POOL_SIZE, zstdBackend } = require('./zstd');

// Node starts libuv's pool with UV_THREADPOOL_SIZE threads (default 4, at most 1024).
const UV_DEFAULT_THREADS = 4;

/** The pool each coding's compressions run on, with zstd's `backend` (default: this process's). */
function poolOf(coding, backend = zstdBackend()) {
  return (coding === 'zstd' || coding === 'dcz') && backend === 'zstd-napi' ? 'zstd' : 'libuv';
}

/** Slots per pool, from the threads the process really has. */
function poolSizes(env = process.env) {
  const uv = Number.parseInt(env.UV_THREADPOOL_SIZE, 10);
  const threads = Number.isInteger(uv) && uv >= 1 ? Math.min(uv, 1024) : UV_DEFAULT_THREADS;
  return { libuv: Math.max(1, threads - 1), zstd: ZSTD_POOL_SIZE };
}

class CompressionBudget {
  /**
   * @param {{ libuv: number, zstd: number }} [sizes] slots per pool (at least 1 each);
   *   default poolSizes()
   * @param {{ now?: () => number, backend?: 'zlib'|'zstd-napi' }} [settings] now: milliseconds,
   *   monotonic (tests pass their own); backend: zstd's, which decides its pool (poolOf)
   */
  constructor(sizes = poolSizes(), { now = () => performance.now(), backend = zstdBackend() } = {}) {
    this.zstdBackend = backend;
    this.sizes = { libuv: Math.max(1, sizes.libuv), zstd: Math.max(1, sizes.zstd) };
    this.used = { libuv: 0, zstd: 0 };
    this.byUse = {};
    // Per use, for the metrics: slots taken, and the wall-clock ms they were held.
    this.acquired = {};
    this.heldMs = {};
    this.now = now;
  }

  /**
   * A slot on the pool that compresses `coding`, or null when that pool's slots are all taken.
   * @param {string} coding
   * @param {string} use what holds it ('cache', 'stream'), for stats
   * @returns {(() => void) | null} release, idempotent
   */
  tryAcquire(coding, use) {
    const pool = poolOf(coding, this.zstdBackend);
    if (this.used[pool] >= this.sizes[pool]) return null;
    this.used[pool]++;
    this.byUse[use] = (this.byUse[use] ?? 0) + 1;
    this.acquired[use] = (this.acquired[use] ?? 0) + 1;
    const since = this.now();
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.used[pool]--;
      this.byUse[use]--;
      this.heldMs[use] = (this.heldMs[use] ?? 0) + this.now() - since;
    };
  }

  /** @returns {number} slots `use` holds now */
  inUse(use) {
    return this.byUse[use] ?? 0;
  }

  get stats() {
    return { sizes: { ...this.sizes }, used: { ...this.used }, acquired: { ...this.acquired }, heldMs: { ...this.heldMs } };
  }
}

module.exports = { CompressionBudget, poolSizes, poolOf };
