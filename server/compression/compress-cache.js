'use strict';
// Bounded LRU of on-the-fly compressed responses, with one compression per key
// at a time, each holding a slot of the process's compression budget
// (compression-budget.js): under load, a request that would have to wait for a
// slot is told so (null) and can serve a precompressed variant or identity
// instead of queueing.

const { ERR_INVALID_ARG_VALUE } = require('../errors');

class CompressCache {
  /**
   * @param {object} options
   * @param {import('./codings').Engines} options.engines
   * @param {import('./compression-budget').CompressionBudget} options.budget slots for compressions.
   * @param {number} options.maxBytes total size of cached compressed outputs (compressCacheBytes).
   * @param {number} [options.maxEntryBytes=maxBytes/8] larger outputs are returned but not stored,
   *   so one big file cannot flush everything else.
   * @param {'dynamic'|'max'} [options.level='dynamic'] compression level passed to engines.compress().
   */
  constructor({ engines, budget, maxBytes, maxEntryBytes = Math.floor(maxBytes / 8), level = 'dynamic' }) {
    if (!engines || !budget || !(maxBytes >= 0)) {
      throw ERR_INVALID_ARG_VALUE('CompressCache needs engines, budget and maxBytes');
    }
    this.engines = engines;
    this.budget = budget;
    this.maxBytes = maxBytes;
    this.maxEntryBytes = Math.min(maxEntryBytes, maxBytes);
    this.level = level;
    // A Map iterates in insertion order; re-inserting on every hit keeps the
    // least recently used entry first.
    this.entries = new Map();
    this.inflight = new Map();
    this.bytes = 0;
    this.counters = { hits: 0, misses: 0, compressions: 0, rejected: 0 };
  }

  /**
   * Synchronous lookup for the hot path. Counts a hit when found; a miss is
   * counted by the getOrCompress() call that follows it.
   * @param {string} key built by the caller from path, size, mtimeMs, ino and coding.
   * @returns {Buffer|undefined}
   */
  get(key) {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    this.counters.hits++;
    return value;
  }

  /**
   * The cached output, or the result of the compression of `key` already running,
   * or a new compression of `await loadSource()`, or null when the budget has
   * no slot for `coding`. A failed compression rejects every waiter and is not
   * cached.
   * @param {string} key
   * @param {string} coding one of engines.available, or a dictionary coding (dcb, dcz).
   * @param {() => Promise<Buffer>} loadSource reads the identity body; called only when compressing.
   * @param {(input: Buffer) => Promise<Buffer>} [compress] makes the output (default: engines.compress
   *   at this cache's level); the dictionary codings pass theirs.
   * @returns {Promise<Buffer|null>}
   */
  async getOrCompress(key, coding, loadSource, compress = (input) => this.engines.compress(coding, input, { level: this.level })) {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    this.counters.misses++;
    const running = this.inflight.get(key);
    if (running) return running;
    const release = this.budget.tryAcquire(coding, 'cache');
    if (release === null) {
      this.counters.rejected++;
      return null;
    }
    this.counters.compressions++;
    // finally() callbacks always run later, so the job is registered before it can be removed.
    const job = this.#compressAndStore(key, loadSource, compress).finally(() => {
      this.inflight.delete(key);
      release();
    });
    this.inflight.set(key, job);
    return job;
  }

  async #compressAndStore(key, loadSource, compress) {
    const output = await compress(await loadSource());
    this.#store(key, output);
    return output;
  }

  #store(key, value) {
    if (value.length > this.maxEntryBytes) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.bytes -= old.length;
    }
    this.entries.set(key, value);
    this.bytes += value.length;
    for (const [oldestKey, oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldestKey);
      this.bytes -= oldest.length;
    }
  }

  /** @returns {{ hits: number, misses: number, compressions: number, inflight: number, rejected: number, entries: number, bytes: number }} a snapshot. */
  get stats() {
    return { ...this.counters, inflight: this.inflight.size, entries: this.entries.size, bytes: this.bytes };
  }
}

module.exports = { CompressCache };
