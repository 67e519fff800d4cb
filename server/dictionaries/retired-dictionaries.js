'use strict';
// Previous contents of files rewritten in place, kept on disk so that a returning visitor's
// Available-Dictionary still finds them after a restart (RFC 9842; dictionary-index.js keeps
// them in memory). They live in the `dictionaries/` folder of the root's variant-cache folder
// (files/variant-cache.js), 0700: each content as a file named by its SHA-256 in hex, and beside it
// `<hash>.json`, { "rel": "/assets/lib.js" }, the path it was served at (its rule is the one that
// covers that path when it is loaded, so a changed configuration never offers it elsewhere).
// Both are written through a temporary file and a rename.
//
// Nothing is trusted for its name: load() reads only regular files of this user that nobody
// else may write, opened without following a link, and deletes a content whose bytes do not
// hash to its name, so a tampered file never becomes a dictionary.

const fs = require('node:fs/promises');
const path = require('node:path');
const { sha256 } = require('./dictionary-codings');
const { readOurs, isOurFolder, prepareCacheDir, writeCached, TEMP_PREFIX, TEMP_MAX_AGE_MS } = require('../files/variant-cache');

const FOLDER = 'dictionaries';
const NAME = /^[0-9a-f]{64}$/;

/** The folder of the retired dictionaries of a root whose variant-cache folder is `rootDir`. */
const retiredDir = (rootDir) => path.join(rootDir, FOLDER);

/** Keeps `bytes` (whose SHA-256 in hex is `hex`), served at `rel`, in `dir`. */
async function saveRetired(dir, hex, rel, bytes) {
  await prepareCacheDir(dir);
  // The path first: a content is never on disk without it.
  await writeCached(path.join(dir, `${hex}.json`), JSON.stringify({ rel }));
  await writeCached(path.join(dir, hex), bytes);
}

/** Deletes the content `hex` and its path from `dir`. */
async function removeRetired(dir, hex) {
  await fs.rm(path.join(dir, hex), { force: true });
  await fs.rm(path.join(dir, `${hex}.json`), { force: true });
}

/**
 * The contents kept in `dir`, newest first, as many as fit in the limits: [{ hash (Buffer), rel,
 * bytes, ageMs }]. Deletes the rest, those past maxAgeMs, those whose bytes do not hash to their
 * name or that lack a path, and the temporaries of writers that died. A missing folder holds
 * nothing.
 * @param {string} dir
 * @param {{ maxEntries: number, maxBytes: number, maxEntryBytes: number, maxAgeMs: number, nowMs: number }} limits
 */
async function loadRetired(dir, { maxEntries, maxBytes, maxEntryBytes, maxAgeMs, nowMs }) {
  // Another user's folder is neither read nor cleaned (a missing one holds nothing either).
  if (!await isOurFolder(dir)) return [];
  let names;
  try {
    names = await fs.readdir(dir);
  } catch {
    return [];
  }
  const found = [];
  const drop = [];
  for (const name of names) {
    if (!NAME.test(name)) {
      // A path whose content is gone (or never came) goes below, with its content's name.
      if (!(name.endsWith('.json') && names.includes(name.slice(0, -5)))) drop.push(name);
      continue;
    }
    const content = await readOurs(path.join(dir, name), maxEntryBytes);
    const hash = content === null ? null : sha256(content.bytes);
    const meta = hash === null || hash.toString('hex') !== name ? null : await readOurs(path.join(dir, `${name}.json`), 4096);
    let rel = null;
    try {
      rel = meta === null ? null : JSON.parse(meta.bytes.toString()).rel;
    } catch {}
    const ageMs = content === null ? Infinity : nowMs - content.mtimeMs;
    if (typeof rel !== 'string' || !rel.startsWith('/') || ageMs > maxAgeMs) drop.push(name);
    else found.push({ hash, rel, bytes: content.bytes, ageMs });
  }
  found.sort((a, b) => a.ageMs - b.ageMs);
  const kept = [];
  let bytes = 0;
  for (const entry of found) {
    if (kept.length < maxEntries && bytes + entry.bytes.length <= maxBytes) {
      kept.push(entry);
      bytes += entry.bytes.length;
    } else {
      drop.push(entry.hash.toString('hex'));
    }
  }
  for (const name of drop) {
    if (NAME.test(name)) {
      await removeRetired(dir, name);
      continue;
    }
    // Another server may be writing a temporary right now: only a dead writer's goes.
    const stat = await fs.lstat(path.join(dir, name)).catch(() => null);
    if (stat !== null && stat.isFile() && (!name.startsWith(TEMP_PREFIX) || nowMs - stat.mtimeMs > TEMP_MAX_AGE_MS)) await fs.rm(path.join(dir, name), { force: true });
  }
  return kept;
}

module.exports = { retiredDir, saveRetired, removeRetired, loadRetired };
