'use strict';
// The variant cache: where the server keeps the variants it makes itself, outside the root it
// serves (the root is the user's, and may hold node_modules or be read-only). One folder per
// root, named by a hash of the root's real path, made 0700. A variant's name is a hash of its
// source's real path and every stat field a rewrite changes (device, inode, size, mtime,
// ctime), so a changed source never finds an old variant: it looks under a new name. Nothing in
// the folder is trusted for its name alone: the file store serves a cached variant only when it
// is a regular file of this user that nobody else may write and that decodes to the source's
// current bytes (file-store.js); writers put a temporary file in place with a rename, so a
// reader, or a second server on the same root, never sees half a variant.

const crypto = require('node:crypto');
const fs = require('node:fs/promises');
const fsSync = require('node:fs');
const path = require('node:path');
const { promisify } = require('node:util');
const { writeFileAtomic, TEMP_PREFIX } = require('./write-file-atomic');
const { openInRoot } = require('./open-in-root');
const { readConsistent } = require('./read-file');

// Sources larger than this are not cached: a cached variant is checked by content before it
// is first served, which holds the source and its decoded variant in memory at once (for each
// large file first requested at the same time); larger files are compressed on the fly.
const MAX_SOURCE_BYTES = 16 * 1024 * 1024;
// Kept for a source whose coding saves no bytes, so that it is not compressed again at every
// start; never served.
const NOT_SMALLER = '.none';
// A temporary file older than this was left by a writer that died: removed by evict().
const TEMP_MAX_AGE_MS = 3600 * 1000;

const close = promisify(fsSync.close);
const hash = (text) => crypto.createHash('sha256').update(text).digest('hex');

/**
 * cacheDir with its symbolic links resolved, as far as it exists yet (the background pass may
 * make it later): variants are opened with proof of their real path (open-in-root.js).
 */
function realCacheDir(cacheDir) {
  const rest = [];
  for (let dir = path.resolve(cacheDir); ; dir = path.dirname(dir)) {
    try {
      return path.join(fsSync.realpathSync.native(dir), ...rest);
    } catch {
      if (dir === path.dirname(dir)) return path.resolve(cacheDir);
      rest.unshift(path.basename(dir));
    }
  }
}

/** The folder of `rootReal`'s variants under cacheDir. */
function rootCacheDir(cacheDir, rootReal) {
  return path.join(cacheDir, hash(rootReal).slice(0, 32));
}

/** Where the variant (extension `ext`) of the file at `real`, as `stat` saw it, is cached. */
function cachedPath(dir, real, stat, ext) {
  return path.join(dir, hash(`${real}\0${stat.dev}\0${stat.ino}\0${stat.size}\0${stat.mtimeMs}\0${stat.ctimeMs}`) + ext);
}

/** Whether a file found in the cache may be one this user wrote (lstat or fstat). */
function mayBeOurs(stat) {
  return stat.isFile() && (process.getuid === undefined || stat.uid === process.getuid()) && (stat.mode & 0o022) === 0;
}

/**
 * { bytes, mtimeMs } of `file` when it is a regular file of ours (mayBeOurs) of at most
 * maxBytes in a folder of ours (isOurFolder); else null. Opened as the root's files are
 * (open-in-root.js): without following a link, and without waiting for a writer should it be
 * a FIFO, which would hold a libuv thread for as long as none comes.
 */
async function readOurs(file, maxBytes) {
  if (!await isOurFolder(path.dirname(file))) return null;
  let opened;
  try {
    opened = await openInRoot(path.dirname(file), file, { exact: true });
  } catch {
    return null;
  }
  try {
    if (!mayBeOurs(opened.stat)) return null;
    const { stat, bytes } = await readConsistent(opened.fd, maxBytes, opened.stat);
    return bytes === null ? null : { bytes, mtimeMs: stat.mtimeMs };
  } catch {
    return null;
  } finally {
    await close(opened.fd);
  }
}

// Why the folder `dir`, as lstat saw it, is not one only this user can reach; null when it is.
function folderProblem(dir, stat) {
  if (!stat.isDirectory()) return `${dir} is not a directory`;
  if (process.getuid !== undefined && stat.uid !== process.getuid()) return `${dir} belongs to another user`;
  if ((stat.mode & 0o077) !== 0) return `${dir} is open to other users (mode ${(stat.mode & 0o777).toString(8)}; expected 700)`;
  return null;
}

/**
 * Whether `dir` is a folder of the cache as prepareCacheDir makes it (this user's, 0700, not a
 * link): nothing is read from one that another user may have filled.
 */
async function isOurFolder(dir) {
  const stat = await fs.lstat(dir).catch(() => null);
  return stat !== null && folderProblem(dir, stat) === null;
}

/**
 * Makes `dir` (0700, parents included) and checks it is a directory of this user that no one
 * else can enter; rejects with why not.
 */
async function prepareCacheDir(dir) {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const problem = folderProblem(dir, await fs.lstat(dir));
  if (problem !== null) throw new Error(problem);
}

/**
 * Puts `data` at `file` (in a prepared cache folder) through a temporary file and a rename,
 * unflushed: a cache entry is checked by content before it is used.
 */
const writeCached = (file, data) => writeFileAtomic(file, data, { mode: 0o600, sync: false });

/**
 * Deletes the least recently written files of `dir` until the rest fit in maxBytes, and
 * temporaries left by a writer that died. Another writer may delete the same files at the same
 * time: a file already gone is not an error. Resolves { bytes, files, evicted }.
 * @param {string} dir
 * @param {number} maxBytes
 * @param {number} [now] Date.now() stand-in
 */
async function evict(dir, maxBytes, now = Date.now()) {
  const entries = [];
  let evicted = 0;
  for (const name of await fs.readdir(dir)) {
    const file = path.join(dir, name);
    const stat = await fs.lstat(file).catch(() => null);
    if (stat === null || !stat.isFile()) continue;
    if (name.startsWith(TEMP_PREFIX)) {
      if (now - stat.mtimeMs > TEMP_MAX_AGE_MS) await fs.rm(file, { force: true });
      continue;
    }
    entries.push({ file, size: stat.size, mtimeMs: stat.mtimeMs });
  }
  let bytes = entries.reduce((sum, e) => sum + e.size, 0);
  entries.sort((a, b) => a.mtimeMs - b.mtimeMs || (a.file < b.file ? -1 : 1));
  for (const entry of entries) {
    if (bytes <= maxBytes) break;
    await fs.rm(entry.file, { force: true });
    bytes -= entry.size;
    evicted++;
  }
  return { bytes, files: entries.length - evicted, evicted };
}

module.exports = { realCacheDir, rootCacheDir, cachedPath, mayBeOurs, readOurs, isOurFolder, prepareCacheDir, writeCached, evict, MAX_SOURCE_BYTES, NOT_SMALLER, TEMP_PREFIX, TEMP_MAX_AGE_MS };
