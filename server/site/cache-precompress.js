'use strict';
// The background pass: variants of the root's compressible files at the strongest settings,
// written to the variant cache (files/variant-cache.js), never into the root. Run by
// background-precompress.js in a niced child (this file, given its options as JSON), so the
// compression never competes with requests on the server's event loop. node_modules and dot
// entries are never entered. A variant already cached for the source's current stat is only
// touched (its mtime set to now), so the cache's eviction, oldest first, drops the variants of
// sources that changed or went before those still served.

const fs = require('node:fs/promises');
const { constants: fsConstants } = require('node:fs');
const os = require('node:os');
const { createEngines, VARIANT_EXTENSIONS } = require('../compression/codings');
const { savesBytes } = require('../compression/compressibility');
const { rootCacheDir, cachedPath, mayBeOurs, prepareCacheDir, writeCached, evict, MAX_SOURCE_BYTES, NOT_SMALLER } = require('../files/variant-cache');
const { CacheBound } = require('../files/cache-bound');
const { listSourceFiles, listNamedFiles, isCompressibleName } = require('../files/tree-walk');
const { forEachLimited } = require('../files/for-each-limited');

// Never precompressed in the background: dependencies are not the site, and are large.
const EXCLUDE_DIRS = new Set(['node_modules']);

/**
 * @param {object} options
 * @param {string} options.root
 * @param {string} options.cacheDir the cache's base folder (the root gets a folder in it)
 * @param {string[]} options.codings
 * @param {Record<string, number>} [options.levels] per-coding levels replacing the strongest
 * @param {number} options.minBytes smaller files get no variants
 * @param {number} options.maxBytes the size limit of the root's folder
 * @param {string[]} [options.only] just these names under root (a watcher's)
 * @param {AbortSignal} [options.signal] stops starting files; those in progress finish
 * @param {(message: string) => void} [options.warn] told about each file that failed
 * @returns {Promise<{ dir: string, files: number, written: number, fresh: number, errors: number, bytes: number, evicted: number }>}
 */
async function precompressToCache({ root, cacheDir, codings, levels, minBytes, maxBytes, only, signal, warn = () => {} }) {
  const engines = createEngines({ levels: { max: levels } });
  const rootReal = await fs.realpath(root);
  const dir = rootCacheDir(cacheDir, rootReal);
  await prepareCacheDir(dir);
  const listing = only === undefined ? await listSourceFiles(rootReal, { excludeDirs: EXCLUDE_DIRS })
    : await listNamedFiles(rootReal, only, { excludeDirs: EXCLUDE_DIRS });
  const sources = listing.files.filter(isCompressibleName);
  const usable = codings.filter((c) => engines.available.includes(c));
  const summary = { dir, files: 0, written: 0, fresh: 0, errors: 0, bytes: 0, evicted: 0 };
  // Shared with the server's deltas: the folder stays within maxBytes at every write.
  const bound = new CacheBound(dir, maxBytes);

  await forEachLimited(sources, os.availableParallelism(), async (source) => {
    try {
      await cacheFile(source);
    } catch (err) {
      summary.errors++;
      warn(`${source}: ${err.message}`);
    }
  }, signal);
  const final = await evict(dir, maxBytes);
  summary.evicted += bound.evicted + final.evicted;
  summary.bytes = final.bytes;
  return summary;

  async function cacheFile(source) {
    // O_NOFOLLOW: a source that became a link is not read; O_NONBLOCK: nor does a FIFO block.
    const handle = await fs.open(source, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK).catch((err) => {
      if (err.code === 'ELOOP' || err.code === 'ENOENT') return null;
      throw err;
    });
    if (handle === null) return;
    try {
      const stat = await handle.stat();
      if (!stat.isFile() || stat.size < minBytes || stat.size > MAX_SOURCE_BYTES) return;
      summary.files++;
      let content;
      for (const coding of usable) {
        const target = cachedPath(dir, source, stat, VARIANT_EXTENSIONS[coding]);
        if (await touchIfCached(target) || await touchIfCached(target + NOT_SMALLER)) {
          summary.fresh++;
          continue;
        }
        content ??= await handle.readFile();
        const compressed = await engines.compress(coding, content, { level: 'max' });
        // A source that changed while read has a new stat, hence other names: what was read
        // must not be filed under the old one.
        const after = await handle.stat();
        if (after.size !== stat.size || after.mtimeMs !== stat.mtimeMs || after.ctimeMs !== stat.ctimeMs) return;
        const saves = savesBytes(compressed.length, stat.size);
        if (!saves) {
          await writeCached(target + NOT_SMALLER, Buffer.alloc(0));
          continue;
        }
        // A variant larger than the whole folder may hold is not kept.
        if (!await bound.reserve(compressed.length)) continue;
        await writeCached(target, compressed);
        summary.written++;
      }
    } finally {
      await handle.close();
    }
  }
}

// Whether a file we may have written is at `file`; if so it becomes the newest.
async function touchIfCached(file) {
  const stat = await fs.lstat(file).catch(() => null);
  if (stat === null || !mayBeOurs(stat)) return false;
  const now = new Date();
  await fs.utimes(file, now, now).catch(() => {});
  return true;
}

// As a child: the options come as JSON in argv[2], the summary goes back over IPC. SIGTERM
// (the server stopping) lets the files in progress finish, so no temporary is left behind.
if (require.main === module) {
  const stop = new AbortController();
  process.once('SIGTERM', () => stop.abort());
  const send = (message) => (process.send ? process.send(message) : undefined);
  precompressToCache({ ...JSON.parse(process.argv[2]), signal: stop.signal, warn: (message) => send({ warn: message }) }).then(
    (summary) => send({ summary }),
    (err) => {
      send({ warn: err.message });
      process.exitCode = 1;
    },
  );
}

module.exports = { precompressToCache };
