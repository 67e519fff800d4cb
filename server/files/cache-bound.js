'use strict';
// --cache-bytes, held at every write into a root's cache folder (variant-cache.js): the
// background pass's variants and the server's dictionary deltas alike. Measuring the folder
// (a readdir and an lstat per file) at every write would cost more than the write, so a writer
// measures it, evicting the least recently written files down to LOW_WATER of the limit, then
// counts what it writes, and measures again before its own writes since reach RESCAN_SHARE of
// the limit or the folder would go past it. After any measure the folder holds at most
// LOW_WATER of the limit, and each writer adds at most RESCAN_SHARE before its next: up to
// (1 - LOW_WATER) / RESCAN_SHARE processes (the server's workers, the background pass) writing
// at once keep the folder within the limit.

const { evict } = require('./variant-cache');

const LOW_WATER = 3 / 4;
const RESCAN_SHARE = 1 / 16;

class CacheBound {
  /**
   * @param {string} dir the root's cache folder
   * @param {number} maxBytes --cache-bytes
   * @param {{ now?: () => number }} [options] now(): Date.now() stand-in for evict()
   */
  constructor(dir, maxBytes, { now = Date.now } = {}) {
    Object.assign(this, { dir, maxBytes, now });
    this.rescanBytes = Math.max(1, Math.floor(maxBytes * RESCAN_SHARE));
    // Bytes in the folder at the last measure (null: not measured yet), and written since.
    this.measured = null;
    this.written = 0;
    this.measuring = null;
    this.evicted = 0;
  }

  /**
   * Resolves true once `bytes` more fit in the folder, counted as written; false when they do
   * not fit even after eviction (the caller does not write them). Rejects when the folder
   * cannot be measured.
   */
  async reserve(bytes) {
    for (let measuredNow = false; ; measuredNow = true) {
      if (this.fits(bytes)) {
        this.written += bytes;
        return true;
      }
      if (measuredNow) return false;
      this.measuring ??= this.measure().finally(() => { this.measuring = null; });
      await this.measuring;
    }
  }

  fits(bytes) {
    return this.measured !== null && this.measured + this.written + bytes <= this.maxBytes &&
      (this.written === 0 || this.written + bytes <= this.rescanBytes);
  }

  async measure() {
    let done;
    try {
      done = await evict(this.dir, Math.floor(this.maxBytes * LOW_WATER), this.now());
    } catch (err) {
      // Nothing written yet: the first write makes the folder.
      if (err.code !== 'ENOENT') throw err;
      done = { bytes: 0, evicted: 0 };
    }
    this.measured = done.bytes;
    this.written = 0;
    this.evicted += done.evicted;
  }
}

module.exports = { CacheBound, LOW_WATER, RESCAN_SHARE };
