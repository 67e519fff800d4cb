'use strict';
// `negotiate-h2 cache [list]` and `negotiate-h2 cache clean [DIR]` (both take --cache-dir DIR):
// what the server keeps in its cache folder, one folder per root it served, and their removal.
// Only folders the server made are listed or removed (files/cache-folders.js).

const fs = require('node:fs');
const path = require('node:path');
const { parseCli, normalizeOptions } = require('../config/options');
const { ConfigError } = require('../errors');
const { listRootFolders, removeRootFolder } = require('../files/cache-folders');
const { realCacheDir, rootCacheDir } = require('../files/variant-cache');
const { formatBytes } = require('../../tools/report/format-bytes');

const USAGE = 'usage: negotiate-h2 cache [list] [--cache-dir DIR] | negotiate-h2 cache clean [DIR] [--cache-dir DIR]';
const DAY_MS = 86_400_000;

function age(ms, now) {
  const days = Math.floor((now - ms) / DAY_MS);
  return days <= 0 ? 'today' : days === 1 ? 'yesterday' : `${days} days ago`;
}

function listLines(base, folders, maxAgeDays, now) {
  const total = folders.reduce((sum, f) => sum + f.bytes, 0);
  const lines = [`${base}: ${folders.length} folder(s), ${formatBytes(total)}`];
  for (const f of folders) {
    lines.push(`  ${formatBytes(f.bytes).padStart(10)}  last used ${new Date(f.lastUsedMs).toISOString().slice(0, 10)} (${age(f.lastUsedMs, now)})  ${f.root ?? '(root not noted: made by an older version)'}  ${f.name}`);
  }
  lines.push(maxAgeDays === 0 ? 'Folders are never removed at start (--cache-max-age-days 0).'
    : `A server start removes the folders of roots not served for ${maxAgeDays} days (--cache-max-age-days).`);
  return lines;
}

/** The folders `clean` removes: DIR's own, or all of them. */
function chosen(folders, base, dir, options) {
  if (dir === undefined) return folders;
  let rootReal;
  try {
    rootReal = fs.realpathSync(dir);
  } catch {
    throw new ConfigError(`${dir}: no such directory (give the root as the server served it)`);
  }
  const name = path.basename(rootCacheDir(base, rootReal));
  const mine = folders.filter((f) => f.name === name);
  if (mine.length === 0) throw new ConfigError(`no cache folder for ${rootReal} in ${options.cacheDir}`);
  return mine;
}

// Resolves the exit code.
async function runCacheCommand(argv, env, out = (line) => process.stdout.write(`${line}\n`)) {
  const [first, ...more] = argv;
  const action = first === 'clean' ? 'clean' : 'list';
  const rest = first === 'list' || first === 'clean' ? more : argv;
  const given = parseCli(rest, {});
  // A directory only for clean; server options would be silently ignored: refused like unknown ones.
  const extra = Object.keys(given).filter((key) => key !== 'cacheDir' && key !== 'cacheMaxAgeDays' && !(action === 'clean' && key === 'root'));
  if (extra.length > 0) throw new ConfigError(USAGE);
  const options = normalizeOptions({ ...parseCli(rest, env), root: '.' });
  const base = realCacheDir(options.cacheDir);
  const folders = await listRootFolders(base);
  const now = Date.now();
  if (action === 'list') {
    for (const line of listLines(base, folders, options.cacheMaxAgeDays, now)) out(line);
    return 0;
  }
  const removing = chosen(folders, base, given.root, options);
  for (const folder of removing) {
    await removeRootFolder(base, folder);
    out(`removed ${folder.dir} (${formatBytes(folder.bytes)}${folder.root !== null ? `, for ${folder.root}` : ''})`);
  }
  if (removing.length === 0) out(`${base}: no cache folder to remove`);
  return 0;
}

module.exports = { runCacheCommand };
