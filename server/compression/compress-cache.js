'use strict';
// Bounded LRU of on-the-fly compressed responses, with one compression per key
// at a time and a cap on how many run at once: under load, a request that would
// have to wait for a compression slot is told so (null) and can serve a
// precompressed variant or identity instead of queueing.

const os = require('node:os');

const MiB = 1024 * 1024;

class CompressCache {
  /**
   * @param {object} options
   * @param {import('./codings').Engines} options.engines
   * @param {number} [options.maxBytes=64 MiB] total size of cached compressed outputs.
   * @param {number} [options.maxConcurrent=os.availableParallelism()] compressions running at once (at least 1).
   * @param {number} [options.maxEntryBytes=maxBytes/8] larger outputs are returned but not stored,
   *   so one big file cannot flush everything else.
   * @param {'dynamic'|'max'} [options.level='dynamic'] compression level passed to engines.compress().
   */
  constructor({ engines, maxBytes = 64 * MiB, maxConcurrent = os.availableParallelism(), maxEntryBytes = Math.floor(maxBytes / 8), level = 'dynamic' }) {
    if (!engines) throw Object.assign(new TypeError('CompressCache needs engines'), { code: 'ERR_INVALID_ARG_VALUE' });
    this.engines = engines;
    this.maxBytes = maxBytes;
    this.maxConcurrent = Math.max(1, maxConcurrent);
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
   * or a new compression of `await loadSource()`, or null when maxConcurrent
   * compressions are running. A failed compression rejects every waiter and is
   * not cached.
   * @param {string} key
   * @param {string} coding one of engines.available.
   * @param {() => Promise<Buffer>} loadSource reads the identity body; called only when compressing.
   * @returns {Promise<Buffer|null>}
   */
  async getOrCompress(key, coding, loadSource) {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    this.counters.misses++;
    const running = this.inflight.get(key);
    if (running) return running;
    if (this.inflight.size >= this.maxConcurrent) {
      this.counters.rejected++;
      return null;
    }
    this.counters.compressions++;
    // finally() callbacks always run later, so the job is registered before it can be removed.
    const job = this.#compressAndStore(key, coding, loadSource).finally(() => this.inflight.delete(key));
    this.inflight.set(key, job);
    return job;
  }

  async #compressAndStore(key, coding, loadSource) {
    const output = await this.engines.compress(coding, await loadSource(), { level: this.level });
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
