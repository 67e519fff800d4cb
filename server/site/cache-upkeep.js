'use strict';
// While the CLI serves a root: its cache folder is noted as in use at start and twice a day
// (files/cache-folders.js), and the folders of roots no server has used for --cache-max-age-days
// are removed, so the cache folder does not grow for ever with one folder per root ever served.
// Only the CLI's primary process does this; handler() inside someone's app removes nothing.

const path = require('node:path');
const { noteRootUse, pruneUnused } = require('../files/cache-folders');
const { realCacheDir, rootCacheDir } = require('../files/variant-cache');
const { formatBytes } = require('../../tools/report/format-bytes');

const DAY_MS = 86_400_000;
const NOTE_EVERY_MS = DAY_MS / 2;

const REAL_TIMERS = {
  now: () => Date.now(),
  setInterval: (fn, ms) => setInterval(fn, ms).unref(),
  clearInterval: (timer) => clearInterval(timer),
};

/**
 * @param {{ cacheDir: string, rootReal: string, maxAgeDays: number, log: object, timers?: typeof REAL_TIMERS }} options
 * @returns {{ done: Promise<void>, stop(): void }} done: the start-up note and pruning
 */
function startCacheUpkeep({ cacheDir, rootReal, maxAgeDays, log, timers = REAL_TIMERS }) {
  const base = realCacheDir(cacheDir);
  const keep = path.basename(rootCacheDir(base, rootReal));
  // A read-only or foreign cache folder only costs the upkeep: say so once, at debug.
  const note = () => noteRootUse(base, rootReal, timers.now()).catch((err) => log.debug(`cache folder: ${err.message}`));
  const prune = async () => {
    if (maxAgeDays === 0) return;
    const removed = await pruneUnused(base, { maxAgeMs: maxAgeDays * DAY_MS, now: timers.now(), keep })
      .catch((err) => { log.debug(`cache folder: ${err.message}`); return []; });
    if (removed.length === 0) return;
    const bytes = removed.reduce((sum, f) => sum + f.bytes, 0);
    log.info(`cache: removed ${removed.length} folder(s) of roots not served for ${maxAgeDays} days (${formatBytes(bytes)}) from ${base}`);
  };
  const done = note().then(prune);
  const timer = timers.setInterval(() => { note().then(prune); }, NOTE_EVERY_MS);
  return { done, stop: () => timers.clearInterval(timer) };
}

module.exports = { startCacheUpkeep, NOTE_EVERY_MS };
