'use strict';
// Finds the files `npm run precompress` considers: regular files under a
// directory, minus dotfiles (and dot-directories) and the variants themselves,
// and the entries it passed over with the reason.

const fs = require('node:fs/promises');
const path = require('node:path');
const { typeOfName, isVariantName, whyNotCompressible } = require('../compression/compressibility');
const { CONFIG_NAME } = require('../config/config-file');
const { hasDotSegment } = require('./resolve-path');
const { isDotName } = require('../http/request-path');

const NONE = new Set();

/** Whether the file (by its name) is worth compressing, by the rule the server applies. */
function isCompressibleName(name) {
  return whyNotCompressible(name, typeOfName(name)) === null;
}

/** Why a directory entry that is not a regular file or a directory is not compressed. */
function nonRegularReason(entry) {
  if (entry.isSymbolicLink()) return 'symbolic link (not followed)';
  if (entry.isFIFO()) return 'FIFO, not a regular file';
  if (entry.isSocket()) return 'socket, not a regular file';
  if (entry.isCharacterDevice() || entry.isBlockDevice()) return 'device, not a regular file';
  return 'not a regular file';
}

/**
 * Every regular file under `dir`, sorted for a stable order, and what was passed over with the
 * reason. Symbolic links are not followed: a variant written next to a link target outside the
 * tree would surprise its owner, and links could form cycles. Dot entries (dotfiles, the
 * manifest, temporaries), site configurations (never served) and variants are left out without
 * a word, as are directories named in `excludeDirs`.
 * @param {string} dir
 * @param {object} [options]
 * @param {Set<string>} [options.excludeDirs] names of directories not entered (e.g. node_modules)
 * @returns {Promise<{ files: string[], skipped: { file: string, reason: string }[] }>} absolute paths;
 *   rejects only when `dir` itself cannot be read.
 */
async function listSourceFiles(dir, { excludeDirs = NONE } = {}) {
  const files = [];
  const skipped = [];
  async function visit(current) {
    const entries = await fs.readdir(current, { withFileTypes: true });
    for (const entry of entries) {
      if (isDotName(entry.name) || entry.name === CONFIG_NAME) continue;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (excludeDirs.has(entry.name)) continue;
        await visit(full).catch((err) => skipped.push({ file: full, reason: `unreadable directory (${err.code || err.message})` }));
      } else if (entry.isFile()) {
        if (!isVariantName(entry.name)) files.push(full);
      } else if (!isVariantName(entry.name)) {
        skipped.push({ file: full, reason: nonRegularReason(entry) });
      }
    }
  }
  await visit(path.resolve(dir));
  const byName = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  return { files: files.sort(byName), skipped: skipped.sort((a, b) => byName(a.file, b.file)) };
}

/**
 * The files `names` (relative to `dir`, e.g. from a file watcher) stand for, by the walk's rules:
 * a directory stands for the files under it; dot entries, variants and names outside `dir` stand
 * for nothing, nor does a site configuration file
 * (config/config-file.js: it is never served, so it needs no variants), nor does a name with a
 * directory of `excludeDirs` on its way. `missing` are the names of sources that are gone
 * (their variants may go too).
 * @returns {Promise<{ files: string[], skipped: { file: string, reason: string }[], missing: string[] }>}
 */
async function listNamedFiles(dir, names, { excludeDirs = NONE } = {}) {
  const root = path.resolve(dir);
  const files = [];
  const skipped = [];
  const missing = [];
  for (const name of new Set(names)) {
    const full = path.resolve(root, name);
    const rel = path.relative(root, full);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel) || hasDotSegment(rel) ||
        isVariantName(path.basename(full)) || path.basename(full) === CONFIG_NAME ||
        rel.split(path.sep).some((segment) => excludeDirs.has(segment))) continue;
    let stat;
    try {
      stat = await fs.lstat(full);
    } catch (err) {
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') missing.push(full);
      else skipped.push({ file: full, reason: `unreadable (${err.code || err.message})` });
      continue;
    }
    if (stat.isFile()) files.push(full);
    else if (stat.isDirectory()) {
      const inside = await listSourceFiles(full, { excludeDirs });
      files.push(...inside.files);
      skipped.push(...inside.skipped);
    } else skipped.push({ file: full, reason: nonRegularReason(stat) });
  }
  return { files: [...new Set(files)], skipped, missing };
}

module.exports = { listSourceFiles, listNamedFiles, isCompressibleName };
