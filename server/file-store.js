'use strict';
// Per-file metadata and small-file bytes, validated against the disk. An entry is revalidated
// (realpath + stat of the file, lstat of its variants) at most once at a time: concurrent
// requests for the same path share one check, so a hot file costs one stat per event-loop
// turn rather than one per request. With revalidateMs > 0 a check is reused for that long,
// like nginx's open_file_cache_valid. Bytes are bounded by maxBytes (least recently used
// entries are dropped first); FileInfo objects are immutable snapshots, so a request that
// already holds one keeps consistent headers and bytes while the file changes.

const fs = require('node:fs');
const mime = require('mime-types');
const compressible = require('compressible');
const { realpathInRoot, fsError } = require('./resolve-path');
const { readConsistent, sameStat } = require('./read-file');
const { createRepresentation } = require('./representation');
const { RequestError } = require('./errors');

const MAX_ENTRIES = 10_000;
const STALE_LOG_LIMIT = 10_000;

class FileStore {
  // variantCodings: [[coding, extension]] in preference order, for codings the server offers.
  // dynamicReasons: { coding: null when it can be compressed on the fly, else why not }.
  constructor({ rootReal, encodings, variantCodings, dynamicReasons, minCompressBytes, bufferLimit, maxBytes, revalidateMs, cacheControl, log }) {
    Object.assign(this, { rootReal, encodings, variantCodings, dynamicReasons, minCompressBytes, bufferLimit, maxBytes, revalidateMs, cacheControl, log });
    this.entries = new Map();
    this.totalBytes = 0;
    this.staleLogged = new Set();
  }

  get stats() {
    return { entries: this.entries.size, bytes: this.totalBytes };
  }

  // Resolves a FileInfo ({ kind: 'file' }) or { kind: 'dir' }; rejects with RequestError 404.
  lookup(rel) {
    let entry = this.entries.get(rel);
    if (entry === undefined) {
      entry = { rel, info: null, bytes: 0, checkedAt: 0, pending: null, settled: null };
      this.entries.set(rel, entry);
      if (this.entries.size > MAX_ENTRIES) this.evict(this.entries.keys().next().value);
    } else {
      // Map order is the LRU order.
      this.entries.delete(rel);
      this.entries.set(rel, entry);
    }
    if (entry.pending !== null) return entry.pending;
    if (entry.settled !== null && performance.now() - entry.checkedAt < this.revalidateMs) return entry.settled;
    entry.pending = this.revalidate(entry).then(
      (info) => {
        entry.pending = null;
        entry.checkedAt = performance.now();
        if (this.revalidateMs > 0) entry.settled = Promise.resolve(info);
        return info;
      },
      (err) => {
        entry.pending = null;
        if (this.entries.get(rel) === entry) this.evict(rel);
        throw err;
      });
    return entry.pending;
  }

  // realpath, stat and the variants' lstats run in parallel, guessing that the real path is
  // the one found last time; only when it moved is a second round needed.
  async revalidate(entry) {
    const guess = entry.info !== null ? entry.info.real : null;
    const [real, guessed] = await Promise.all([
      new Promise((resolve, reject) => realpathInRoot(this.rootReal, entry.rel, (err, r) => (err ? reject(err) : resolve(r)))),
      guess !== null ? this.statAll(guess) : null,
    ]);
    const { stats, variantStats } = real === guess ? guessed : await this.statAll(real);
    if (stats === null) throw new RequestError(404, 'ERR_NOT_FOUND', 'not found');
    if (stats.isDirectory()) return this.store(entry, { kind: 'dir', real });
    if (!stats.isFile()) throw new RequestError(404, 'ERR_NOT_FOUND', 'not a regular file');

    const prev = entry.info && entry.info.kind === 'file' && entry.info.real === real ? entry.info : null;
    if (prev !== null && sameStat(prev.stat, stats) &&
        this.variantCodings.every(([coding], i) => sameVariant(prev.found[coding], variantStats[i]))) {
      return prev;
    }

    let identity;
    if (prev !== null && sameStat(prev.stat, stats)) identity = { stat: prev.stat, bytes: prev.bytes };
    else identity = await readConsistent(real, this.bufferLimit).catch((err) => { throw fsError(err); });

    const found = {};
    await Promise.all(this.variantCodings.map(async ([coding, ext], i) => {
      const st = variantStats[i];
      if (st === null || !st.isFile()) return;
      const old = prev && prev.found[coding];
      if (old && sameStat(old.stat, st)) { found[coding] = old; return; }
      try {
        found[coding] = { ...(await readConsistent(real + ext, this.bufferLimit)), path: real + ext };
      } catch {
        // Deleted or swapped for a symlink between lstat and open: not a usable variant.
      }
    }));
    return this.store(entry, this.buildFileInfo(entry.rel, real, identity, found));
  }

  // Never rejects: a missing file or variant is null.
  async statAll(real) {
    const [stats, ...variantStats] = await Promise.all([
      statOrNull(fs.stat, real),
      ...this.variantCodings.map(([, ext]) => statOrNull(fs.lstat, real + ext)),
    ]);
    return { stats, variantStats };
  }

  buildFileInfo(rel, real, identity, found) {
    const { stat, bytes } = identity;
    const type = mime.lookup(real) || 'application/octet-stream';
    const contentType = mime.contentType(type) || type;
    const isCompressible = compressible(type) === true;
    const lastModifiedMs = Math.floor(stat.mtimeMs / 1000) * 1000;
    const base = {
      contentType,
      cacheControl: this.cacheControl,
      lastModified: new Date(lastModifiedMs).toUTCString(),
      lastModifiedMs,
    };
    const identityTag = statTag(stat);
    const info = {
      kind: 'file',
      rel,
      real,
      stat,
      bytes,
      found,
      base,
      identityTag,
      compressible: isCompressible,
      cacheKeyPrefix: `${real}\0${stat.size}\0${stat.mtimeMs}\0${stat.ino}\0`,
      identity: createRepresentation({
        ...base, coding: 'identity', source: 'identity', size: stat.size, etag: `"${identityTag}"`,
        bytes, path: real, stat, rangeable: true,
      }),
      variants: {},
      dynamicReps: {},
      unavailable: {},
      offered: [],
      offeredKey: '',
      staticOffered: [],
      staticOfferedKey: '',
    };

    for (const coding of this.encodings) {
      const variant = found[coding];
      if (variant && variant.stat.mtimeMs >= stat.mtimeMs) {
        info.variants[coding] = createRepresentation({
          ...base, coding, source: 'precompressed', size: variant.stat.size,
          etag: `"${statTag(variant.stat)}-${coding}"`, bytes: variant.bytes, path: variant.path,
          stat: variant.stat, rangeable: true,
        });
        info.offered.push(coding);
        info.staticOffered.push(coding);
        continue;
      }
      if (variant) this.noteStale(variant);
      const why = this.dynamicReasons[coding] ||
        (!isCompressible ? `not compressible (${type})` : null) ||
        (stat.size < this.minCompressBytes ? `below ${this.minCompressBytes} bytes` : null);
      if (why === null) info.offered.push(coding);
      else info.unavailable[coding] = variant ? `variant stale (older than the file); ${why}` : why;
    }
    info.offered.push('identity');
    info.staticOffered.push('identity');
    info.offeredKey = info.offered.join(',');
    info.staticOfferedKey = info.staticOffered.join(',');
    return info;
  }

  noteStale(variant) {
    const key = `${variant.path}\0${variant.stat.mtimeMs}`;
    if (this.staleLogged.has(key)) return;
    if (this.staleLogged.size >= STALE_LOG_LIMIT) this.staleLogged.clear();
    this.staleLogged.add(key);
    this.log.warn(`ignoring stale variant ${variant.path} (older than the file it encodes)`);
  }

  store(entry, info) {
    if (entry.info === info) return info;
    const bytes = info.kind === 'file' ? infoBytes(info) : 0;
    this.totalBytes += bytes - entry.bytes;
    entry.info = info;
    entry.bytes = bytes;
    // Keep the newest entry even if it alone exceeds the budget; the request needs it.
    for (const rel of this.entries.keys()) {
      if (this.totalBytes <= this.maxBytes || rel === entry.rel) break;
      this.evict(rel);
    }
    return info;
  }

  evict(rel) {
    const entry = this.entries.get(rel);
    this.entries.delete(rel);
    this.totalBytes -= entry.bytes;
  }
}

function infoBytes(info) {
  let n = info.bytes ? info.bytes.length : 0;
  for (const coding in info.found) {
    const v = info.found[coding];
    if (v.bytes) n += v.bytes.length;
  }
  return n;
}

function statTag(stat) {
  return `${stat.size.toString(16)}-${Math.round(stat.mtimeMs * 1000).toString(16)}-${stat.ino.toString(16)}`;
}

function sameVariant(known, st) {
  if (!known) return st === null || !st.isFile();
  return st !== null && sameStat(known.stat, st);
}

function statOrNull(statFn, file) {
  return new Promise((resolve) => statFn(file, (err, st) => resolve(err ? null : st)));
}

module.exports = { FileStore };
