'use strict';
// --watch: keeps the cached variants in step with the root's files while the server runs.
// Changes seen by a TreeWatcher (inotify on Linux, one watch per directory, new directories
// included) are collected for DEBOUNCE_MS, then handed to cache-precompress.js with `only` in a
// niced child, one batch at a time: a changed or new file gets variants under its new stat's
// names. A deleted or changed file's old variants are never found again (their names hold the
// old stat) and age out of the cache. Should an event be missed, the file store finds no
// variant for the new stat and compresses on the fly.

const path = require('node:path');
const { isVariantName } = require('../compression/compressibility');
const { startBackgroundPrecompress } = require('./background-precompress');
const { TreeWatcher } = require('../files/tree-watcher');

// Editors save in bursts (write, rename, chmod): one batch per burst.
const DEBOUNCE_MS = 250;
// Names per child, so that a mass change (a checkout) stays within the argument-list limit.
const MAX_BATCH = 500;


/**
 * @param {object} options
 * @param {string} options.root
 * @param {Promise<unknown>} options.after batches wait for this (the start-up run) to end
 * @param {object} options.precompress what startBackgroundPrecompress takes besides root and log
 * @param {import('./logger').Logger} options.log
 * @returns {{ stop(): void }}
 */
function watchRoot({ root, after, precompress, log }) {
  const pending = new Set();
  let timer = null;
  let running = null;
  let stopped = false;
  let ready = false;

  const flush = () => {
    timer = null;
    if (stopped || running !== null || !ready || pending.size === 0) return;
    const batch = [...pending].slice(0, MAX_BATCH);
    for (const name of batch) pending.delete(name);
    for (const name of batch) log.info(`watch: ${name} changed; updating its variants`);
    running = startBackgroundPrecompress({ ...precompress, root, log, only: batch });
    running.exited.then(() => {
      running = null;
      if (pending.size > 0) schedule();
    });
  };
  const schedule = () => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(flush, DEBOUNCE_MS);
  };

  // Variants are outputs, not sources (dot entries, the tool's temporaries and manifest among
  // them, never reach here).
  const watcher = new TreeWatcher(root, (name) => {
    if (isVariantName(path.basename(name))) return;
    pending.add(name);
    schedule();
  }, (err) => log.warn(`--watch: ${err.message}; changes there are picked up at the next start`));
  Promise.resolve(after).then(() => {
    ready = true;
    flush();
  });
  log.info(`watching ${root} for changes (--watch)`);
  return {
    stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      watcher.close();
      running?.stop();
    },
  };
}

module.exports = { watchRoot };
