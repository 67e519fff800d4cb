'use strict';
// Per-file metadata and small-file bytes, validated against the disk. A check of an entry
// (realpath + stat of the file, lstat of its variants; an open proven inside the root when
// anything changed) runs at most once at a time: concurrent requests for the same path share
// it. Once checked, an entry whose names are watched (name-watch.js: inotify on the
// directories on its way) is served without touching the disk until an event says a name it
// depends on changed, or for at most trustMs (1 s by default), which bounds what an event that
// never comes (a queue overflow, a write through a hard link elsewhere, a network file system)
// can hide. An entry that cannot be watched (a symlink on its way, no watch left) is checked
// per request, or reused for revalidateMs when that is set, like nginx's open_file_cache_valid.
// Bytes are bounded by maxBytes (least recently used entries are dropped first); FileInfo
// objects are immutable snapshots, so a request that already holds one keeps consistent
// headers and bytes while the file changes.

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { promisify } = require('node:util');
const { realpathInRoot } = require('./resolve-path');
const { openInRoot, PROC_FD } = require('./open-in-root');
const { NameWatch, namesFor } = require('./name-watch');
const { readConsistent, sameStat, statTag } = require('./read-file');
const { cachedPath, mayBeOurs, isOurFolder, MAX_SOURCE_BYTES } = require('./variant-cache');
const { typeOfName, whyNotCompressible } = require('../compression/compressibility');
const { CODES } = require('../errors');

const close = promisify(fs.close);

const MAX_ENTRIES = 10_000;
// Directories watched at once: inotify watches are a per-user resource (fs.inotify.max_user_watches).
const MAX_WATCHED_DIRS = 1000;
const STALE_LOG_LIMIT = 10_000;
const VERDICT_LIMIT = 10_000;
// Larger originals are not read whole to check a variant by content; such a variant must carry
// an mtime not older than its original's. (The variant cache's limit is below this one.)
const VERIFY_MAX_BYTES = 64 * 1024 * 1024;

// How a variant's mtime relates to its original's. `brotli -k` copies the original's mtime
// truncated to whole seconds (gzip -k, zstd -k and xz -k keep nanoseconds; other tools and file
// systems keep microseconds), so a variant made from the current original can look up to a
// second older. Such a variant is checked by content once (see verifyVariant); anything older
// than the original's whole second predates it and is stale.
function variantAge(variant, stat) {
  if (variant.mtimeMs >= stat.mtimeMs) return 'fresh';
  return variant.mtimeMs >= Math.floor(stat.mtimeMs / 1000) * 1000 ? 'same-second' : 'stale';
}

class FileStore {
  // variantCodings: [[coding, extension]] in preference order, for codings the server offers.
  // buildInfo(rel, real, identity, found, cachedPaths) -> { info, stale }: the FileInfo of what a
  // check found (decision/file-info.js builds the representations; the store only reads files).
  // minCompressBytes: smaller files have no cached variants.
  // decompress(coding, buffer, { maxOutputLength }): Promise<Buffer> (createEngines' own), to
  // check a variant by content (variantAge).
  // watch: fs.watch, a stand-in for tests, or false to check every entry per request.
  // onReplaced(previous, current): told when a file's FileInfo gives way to a newer one (the file
  // changed on disk), with both.
  // trustMs: the longest a watched entry is served from one check, should no event come.
  // cacheDir: the root's folder in the variant cache (variant-cache.js), or null. A variant
  // next to the file comes first; a cached one is used only where there is none, once it proved
  // to decode to the file's current bytes. Cached names are not watched: a variant cached after
  // a check is found at the next one (within trustMs).
  // variantsWatched: --watch is on, rewriting variants that go stale (see noteStale).
  constructor({ rootReal, variantCodings, buildInfo, minCompressBytes, bufferLimit, maxBytes, revalidateMs, trustMs, log, decompress, watch = fs.watch, cacheDir = null, onReplaced = () => {}, variantsWatched = false }) {
    Object.assign(this, { rootReal, variantCodings, buildInfo, minCompressBytes, bufferLimit, maxBytes, revalidateMs, trustMs, log, decompress, cacheDir, onReplaced, variantsWatched });
    this.extensions = variantCodings.map(([, ext]) => ext);
    this.names = watch === false ? null : new NameWatch({
      maxDirs: MAX_WATCHED_DIRS,
      watch,
      onStale: (entry) => { entry.trusted = false; },
      onError: (err) => log.warn(`watching the root for changes failed (${err.message}): files not watched are checked on every request`),
    });
    this.entries = new Map();
    this.totalBytes = 0;
    this.staleLogged = new Set();
    // Content checks of same-second and cached variants: key (both stats) → verifyVariant's
    // verdict. Keyed by the stats, so a rewrite of either is checked afresh.
    this.verdicts = new Map();
    if (!PROC_FD) log.warn('/proc/self/fd is unavailable: opened files are checked by a second realpath, which a directory swapped for a symlink at the right moment can still defeat');
  }

  get stats() {
    return { entries: this.entries.size, bytes: this.totalBytes, watchedDirs: this.names === null ? 0 : this.names.size };
  }

  // The FileInfo (or { kind: 'dir' }) of `rel` when its last check still holds, else
  // undefined: the synchronous fast path before lookup().
  current(rel) {
    const entry = this.entries.get(rel);
    if (entry === undefined || entry.pending !== null || entry.info === null) return undefined;
    const age = performance.now() - entry.checkedAt;
    if (!(age < (entry.trusted ? Math.max(this.trustMs, this.revalidateMs) : this.revalidateMs))) return undefined;
    entry.used = true;
    return entry.info;
  }

  // Resolves a FileInfo ({ kind: 'file' }) or { kind: 'dir' }; rejects with RequestError 404.
  lookup(rel) {
    const info = this.current(rel);
    if (info !== undefined) return Promise.resolve(info);
    let entry = this.entries.get(rel);
    if (entry === undefined) {
      entry = { rel, info: null, bytes: 0, checkedAt: 0, pending: null, used: false, trusted: false, watched: null, watchedDirs: null, trackedSince: 0, staleAt: 0 };
      this.entries.set(rel, entry);
      if (this.entries.size > MAX_ENTRIES) this.evict(this.victim(rel));
    } else {
      entry.used = true;
    }
    if (entry.pending !== null) return entry.pending;
    const startedAt = performance.now();
    const since = this.names === null ? 0 : this.names.tick();
    entry.trusted = false;
    entry.pending = this.revalidate(entry).then(
      (info) => {
        entry.pending = null;
        entry.checkedAt = startedAt;
        // An entry evicted during its check is not watched: nothing would unwatch it.
        entry.trusted = this.entries.get(entry.rel) === entry && this.watchEntry(entry, info, since);
        return info;
      },
      (err) => {
        entry.pending = null;
        if (this.entries.get(rel) === entry) this.evict(rel);
        throw err;
      });
    return entry.pending;
  }

  // Whether the check of `entry` that started at tick `since` holds until a watch event.
  watchEntry(entry, info, since) {
    if (this.names === null) return false;
    const names = namesFor(this.rootReal, entry.rel, info.real, this.extensions);
    if (names === null) {
      this.names.untrack(entry);
      return false;
    }
    return this.names.track(entry, names, since);
  }

  // Makes the next request for `rel` check the disk (revalidateMs aside): a response found the
  // file changed.
  invalidate(rel) {
    const entry = this.entries.get(rel);
    if (entry === undefined) return;
    entry.trusted = false;
    entry.checkedAt = -Infinity;
  }

  close() {
    if (this.names !== null) this.names.close();
  }

  // The usual case, nothing changed: realpath, stat and the variants' lstats run in parallel
  // and match what the last verified open saw (same inode, size, times), so the bytes and
  // headers built from that fd still hold. Anything else is opened afresh.
  async revalidate(entry) {
    const prev = entry.info;
    if (prev === null) return this.reopen(entry);
    const [real, { stats, siblingStats, cachedStats }] = await Promise.all([
      new Promise((resolve, reject) => realpathInRoot(this.rootReal, entry.rel, (err, r) => (err ? reject(err) : resolve(r)))),
      this.statAll(prev),
    ]);
    if (real === prev.real && stats !== null) {
      if (prev.kind === 'dir' && stats.isDirectory()) return prev;
      if (prev.kind === 'file' && sameStat(prev.stat, stats) &&
          this.variantCodings.every(([coding], i) => sameVariant(prev.found[coding], siblingStats[i], cachedStats[i]))) {
        return prev;
      }
    }
    return this.reopen(entry);
  }

  // Where the background pass caches the variants of the file at `real` (one per variant
  // coding), or null where it makes none (cache-precompress.js applies the same rules).
  cachedPaths(real, stat) {
    if (this.cacheDir === null || stat.size < this.minCompressBytes || stat.size > MAX_SOURCE_BYTES ||
        whyNotCompressible(real, typeOfName(real)) !== null) return null;
    return this.variantCodings.map(([, ext]) => cachedPath(this.cacheDir, real, stat, ext));
  }

  // Opens the file and its variants, each proven to lie inside the root (openInRoot), and
  // takes stat and bytes from those fds; unchanged parts of the previous info are kept.
  async reopen(entry) {
    const opened = await openInRoot(this.rootReal, path.join(this.rootReal, entry.rel));
    const { real, stat } = opened;
    if (stat.isDirectory()) {
      await close(opened.fd);
      return this.store(entry, { kind: 'dir', real });
    }
    const prev = entry.info && entry.info.kind === 'file' && entry.info.real === real ? entry.info : null;
    const [identity, ...variants] = await Promise.all([
      readOpened(opened, this.bufferLimit, prev),
      ...this.variantCodings.map(([coding, ext]) => this.readVariant(real + ext, prev && prev.found[coding])),
    ]);
    const found = {};
    this.variantCodings.forEach(([coding, ext], i) => {
      if (variants[i] !== null) found[coding] = { ...variants[i], path: real + ext, cached: false };
    });
    // Only a coding with no variant next to the file looks in the cache, and only in a folder
    // no other user can fill.
    const cachedPaths = this.variantCodings.every(([coding]) => found[coding]) ? null : this.cachedPaths(real, identity.stat);
    if (cachedPaths !== null && await isOurFolder(this.cacheDir)) {
      const cached = await Promise.all(this.variantCodings.map(([coding], i) => (found[coding] ? null
        : this.readVariant(cachedPaths[i], prev && prev.found[coding], { cached: true }))));
      this.variantCodings.forEach(([coding], i) => {
        if (cached[i] !== null) found[coding] = { ...cached[i], path: cachedPaths[i], cached: true };
      });
    }
    if (prev !== null && identity.stat === prev.stat &&
        this.variantCodings.every(([coding]) => (found[coding] && found[coding].stat) === (prev.found[coding] && prev.found[coding].stat))) {
      return prev;
    }
    for (const coding of Object.keys(found)) {
      const variant = found[coding];
      variant.age = variant.cached ? 'cached' : variantAge(variant.stat, identity.stat);
      if (variant.age === 'same-second') Object.assign(variant, await this.verifyVariant(coding, variant, identity, real, 'older than the file'));
      // A cached variant's name says which source it was made from; its bytes must agree.
      if (variant.age === 'cached') Object.assign(variant, await this.verifyVariant(coding, variant, identity, real, 'in the variant cache'));
    }
    const { info, stale } = this.buildInfo(entry.rel, real, identity, found, cachedPaths);
    if (stale.length > 0) this.noteStale(real, identity.stat, stale);
    return this.store(entry, info);
  }

  // { mismatch, digest }: mismatch is null when `variant` decodes to the original's bytes, else
  // why not; digest names the variant's bytes (the first 16 hex digits of their SHA-256), which
  // stay the same when the file is only touched or written again alike (a cached variant's
  // ETag: decision/file-info.js). Each pair of stats is decoded once. A failure to read either
  // file counts as a mismatch: the variant is then compressed on the fly instead, and checked
  // again once either file changes. Decoding stops one byte past the original's size (anything
  // longer cannot be it), so a small variant that expands to gigabytes costs no more memory
  // than the original.
  // `why` starts each reason: what made the check necessary.
  async verifyVariant(coding, variant, identity, real, why) {
    const key = `${variant.path}\0${statTag(variant.stat)}\0${statTag(identity.stat)}`;
    let verdict = this.verdicts.get(key);
    if (verdict !== undefined) return verdict;
    const { size } = identity.stat;
    if (size > VERIFY_MAX_BYTES || variant.stat.size > VERIFY_MAX_BYTES) {
      verdict = { mismatch: `${why} and too large (over ${VERIFY_MAX_BYTES} bytes) to check by content`, digest: null };
    } else {
      try {
        const [original, compressed] = await Promise.all([
          identity.bytes ?? this.readAgain(real, identity.stat),
          variant.bytes ?? this.readAgain(variant.path, variant.stat),
        ]);
        const plain = await this.decompress(coding, compressed, { maxOutputLength: size + 1 });
        verdict = {
          mismatch: plain.equals(original) ? null : `${why}, and does not decode to its current content`,
          digest: crypto.createHash('sha256').update(compressed).digest('hex').slice(0, 16),
        };
      } catch (err) {
        verdict = {
          mismatch: err.code === CODES.ERR_BUFFER_TOO_LARGE ? `${why}, and decodes to more than its ${size} bytes`
            : `${why}, and cannot be checked by content (${err.message})`,
          digest: null,
        };
      }
    }
    if (this.verdicts.size >= VERDICT_LIMIT) this.verdicts.clear();
    this.verdicts.set(key, verdict);
    return verdict;
  }

  // The whole content of a file opened before with `stat` (at most VERIFY_MAX_BYTES), read
  // through a new open proven to be that same file: never by name, where a FIFO swapped in
  // would hold a libuv thread forever and a swapped directory could redirect the read.
  async readAgain(file, stat) {
    const opened = await openInRoot(this.rootReal, file, { exact: true });
    if (!sameStat(opened.stat, stat)) {
      await close(opened.fd);
      throw new Error('changed while being checked');
    }
    const read = await readOpened(opened, VERIFY_MAX_BYTES, null);
    if (!sameStat(read.stat, stat)) throw new Error('changed while being checked');
    return read.bytes;
  }

  // Resolves { stat, bytes } or null: a variant that is missing, a symlink, not a regular
  // file or changing while read is not usable, nor is a cached one another user could have
  // written.
  async readVariant(file, known, { cached = false } = {}) {
    try {
      const opened = await openInRoot(this.rootReal, file, { exact: true });
      if (opened.stat.isFile() && (!cached || mayBeOurs(opened.stat))) return await readOpened(opened, this.bufferLimit, known);
      await close(opened.fd);
    } catch {
      // Not usable: see above.
    }
    return null;
  }

  // The stats of what `prev` was built from, as they are now: its file, the variants next to
  // it, and its cached variants (by the names of the stat it had) where none is next to it.
  // Never rejects: a missing file or variant is null.
  async statAll(prev) {
    const cachedPaths = prev.cachedPaths ?? [];
    const [stats, ...variantStats] = await Promise.all([
      statOrNull(fs.stat, prev.real),
      ...this.variantCodings.map(([, ext]) => statOrNull(fs.lstat, prev.real + ext)),
      ...cachedPaths.map((file, i) => (prev.found[this.variantCodings[i][0]]?.cached === false ? null : statOrNull(fs.lstat, file))),
    ]);
    const n = this.variantCodings.length;
    return { stats, siblingStats: variantStats.slice(0, n), cachedStats: cachedPaths.length === 0 ? [] : variantStats.slice(n) };
  }

  // One line per file whatever the number of its variants, once per change of the file. With
  // --watch (variantsWatched) stale variants are expected, for the moment the watcher takes to
  // rewrite them, and noted at debug level only.
  noteStale(real, stat, staleVariants) {
    const byReason = new Map();
    for (const { variant, reason } of staleVariants) byReason.set(reason, [...byReason.get(reason) ?? [], path.basename(variant.path)]);
    const why = [...byReason].map(([reason, names]) => `${names.join(', ')} ${reason}`).join('; ');
    const key = `${real}\0${stat.mtimeMs}\0${why}`;
    if (this.staleLogged.has(key)) return;
    if (this.staleLogged.size >= STALE_LOG_LIMIT) this.staleLogged.clear();
    this.staleLogged.add(key);
    this.log[this.variantsWatched ? 'debug' : 'warn'](`ignoring stale variants of ${real}: ${why}`);
  }

  store(entry, info) {
    if (entry.info === info) return info;
    if (entry.info !== null && entry.info.kind === 'file' && info.kind === 'file') this.onReplaced(entry.info, info);
    // Evicted during its check: the request still gets the info, the budget does not count it.
    if (this.entries.get(entry.rel) !== entry) {
      entry.info = info;
      return info;
    }
    const bytes = info.kind === 'file' ? infoBytes(info) : 0;
    this.totalBytes += bytes - entry.bytes;
    entry.info = info;
    entry.bytes = bytes;
    // Keep the newest entry even if it alone exceeds the budget; the request needs it.
    while (this.totalBytes > this.maxBytes) {
      const rel = this.victim(entry.rel);
      if (rel === null) break;
      this.evict(rel);
    }
    return info;
  }

  // The entry to drop next, other than `keep`, or null: the least recently used by second
  // chance, in Map order (oldest first). An entry used since it last came to the front goes to
  // the back instead; marking an entry per request is cheaper than moving it (a Map delete and
  // set per request makes the Map rehash, which allocates).
  victim(keep) {
    for (const [rel, entry] of this.entries) {
      if (rel === keep) continue;
      if (!entry.used) return rel;
      entry.used = false;
      this.entries.delete(rel);
      this.entries.set(rel, entry);
    }
    return null;
  }

  evict(rel) {
    const entry = this.entries.get(rel);
    this.entries.delete(rel);
    this.totalBytes -= entry.bytes;
    if (this.names !== null) this.names.untrack(entry);
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

// Whether a coding's places hold what `known` (the variant found at the last check, if any)
// was read from: the variant next to the file wins, so a cached one holds only while there is
// none. `cached` is undefined for a file the cache has no names for.
function sameVariant(known, sibling, cached) {
  const absent = (st) => st === null || !st.isFile();
  if (known && !known.cached) return sibling !== null && sameStat(known.stat, sibling);
  if (!absent(sibling)) return false;
  if (known) return cached !== null && cached !== undefined && sameStat(known.stat, cached);
  return cached === undefined || absent(cached) || !mayBeOurs(cached);
}

// Reads an opened file unless `known` ({ stat, bytes }) already holds its unchanged content;
// closes the fd either way.
async function readOpened({ fd, stat }, limit, known) {
  try {
    if (known && sameStat(known.stat, stat)) return { stat: known.stat, bytes: known.bytes };
    return await readConsistent(fd, limit, stat);
  } finally {
    await close(fd);
  }
}

function statOrNull(statFn, file) {
  return new Promise((resolve) => statFn(file, (err, st) => resolve(err ? null : st)));
}

module.exports = { FileStore };
