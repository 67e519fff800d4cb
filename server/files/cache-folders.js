'use strict';
// The server's cache folder (--cache-dir) as a whole: one folder per served root
// (variant-cache.js rootCacheDir, named by a hash of the root's real path), and beside them
// `roots/`, where a server notes for each folder the root it serves (which the hash cannot
// give back) and, by the note's mtime, when it last served it. From these: the list that
// `negotiate-h2 cache` shows, and the removal of folders no server has used for a while.
// Only what the server made is touched: folders with a root folder's name that pass
// isOurFolder (this user's, 0700, not a link); anything else in the cache folder is left alone.

const fs = require('node:fs/promises');
const path = require('node:path');
const { rootCacheDir, isOurFolder, prepareCacheDir, readOurs, writeCached } = require('./variant-cache');

const NOTES = 'roots';
const FOLDER_NAME = /^[0-9a-f]{32}$/;
const NOTE_MAX_BYTES = 64 * 1024;

const noteFile = (cacheDir, name) => path.join(cacheDir, NOTES, `${name}.json`);

/**
 * Notes that `rootReal` is served from its folder under `cacheDir` (a real path), now: the note
 * is written when missing or naming another root, else only its mtime is set.
 */
async function noteRootUse(cacheDir, rootReal, now = Date.now()) {
  const name = path.basename(rootCacheDir(cacheDir, rootReal));
  await prepareCacheDir(path.join(cacheDir, NOTES));
  const file = noteFile(cacheDir, name);
  const text = `${JSON.stringify({ root: rootReal })}\n`;
  const held = await readOurs(file, NOTE_MAX_BYTES);
  if (held === null || held.bytes.toString('utf8') !== text) await writeCached(file, text);
  const when = new Date(now);
  await fs.utimes(file, when, when);
}

/** The root a folder's note names and when it was last used, or nulls without a note. */
async function readNote(cacheDir, name) {
  const held = await readOurs(noteFile(cacheDir, name), NOTE_MAX_BYTES);
  if (held === null) return { root: null, usedMs: null };
  let root = null;
  try {
    const parsed = JSON.parse(held.bytes.toString('utf8'));
    if (typeof parsed.root === 'string') root = parsed.root;
  } catch {
    // A note cut short or written by hand names no root; its mtime still says when.
  }
  return { root, usedMs: held.mtimeMs };
}

/** Bytes and the newest mtime of the regular files under `dir`, links not followed. */
async function measure(dir) {
  let bytes = 0;
  let newestMs = 0;
  for (const entry of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = await measure(full);
      bytes += inner.bytes;
      newestMs = Math.max(newestMs, inner.newestMs);
    } else if (entry.isFile()) {
      const stat = await fs.lstat(full).catch(() => null);
      if (stat === null) continue;
      bytes += stat.size;
      newestMs = Math.max(newestMs, stat.mtimeMs);
    }
  }
  return { bytes, newestMs };
}

/**
 * Every root folder of `cacheDir`: [{ name, dir, root (null: not noted, made by an older
 * version), bytes, lastUsedMs (the note's mtime, else the newest file's) }], most recent first.
 */
async function listRootFolders(cacheDir) {
  const names = await fs.readdir(cacheDir).catch((err) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  const folders = [];
  for (const name of names.filter((n) => FOLDER_NAME.test(n)).sort()) {
    const dir = path.join(cacheDir, name);
    if (!await isOurFolder(dir)) continue;
    const [{ root, usedMs }, { bytes, newestMs }] = await Promise.all([readNote(cacheDir, name), measure(dir)]);
    const lastUsedMs = usedMs ?? (newestMs || (await fs.lstat(dir)).mtimeMs);
    folders.push({ name, dir, root, bytes, lastUsedMs });
  }
  return folders.sort((a, b) => b.lastUsedMs - a.lastUsedMs || (a.name < b.name ? -1 : 1));
}

/** Removes a root folder listRootFolders gave and its note. */
async function removeRootFolder(cacheDir, folder) {
  await fs.rm(folder.dir, { recursive: true, force: true });
  await fs.rm(noteFile(cacheDir, folder.name), { force: true });
}

/**
 * Removes the root folders last used more than maxAgeMs before `now`, except `keep` (a
 * folder's name), and the notes as old whose folder is gone (a root served without ever
 * caching anything); resolves with the folders removed.
 */
async function pruneUnused(cacheDir, { maxAgeMs, now = Date.now(), keep = null }) {
  const folders = await listRootFolders(cacheDir);
  const removed = folders.filter((f) => f.name !== keep && now - f.lastUsedMs > maxAgeMs);
  for (const folder of removed) await removeRootFolder(cacheDir, folder);
  const notes = await fs.readdir(path.join(cacheDir, NOTES)).catch(() => []);
  const held = new Set(folders.map((f) => f.name));
  for (const name of notes.map((n) => n.replace(/\.json$/, '')).filter((n) => FOLDER_NAME.test(n) && !held.has(n) && n !== keep)) {
    const { usedMs } = await readNote(cacheDir, name);
    if (usedMs !== null && now - usedMs > maxAgeMs) await fs.rm(noteFile(cacheDir, name), { force: true });
  }
  return removed;
}

module.exports = { noteRootUse, listRootFolders, removeRootFolder, pruneUnused };
