'use strict';
// The CLI's background precompression: cache-precompress.js over the served root in a child
// process, started after the server listens, so neither the first request nor the event loop
// waits for compression at the strongest settings. The child runs at a lower CPU priority, so
// requests (and on-the-fly compression) win when both want the cores. It writes to the variant
// cache (files/variant-cache.js), never into the root; the file store finds a new variant at
// the next check of its file. The child's summary is logged in one line, the pass's end.

const os = require('node:os');
const path = require('node:path');
const { fork } = require('node:child_process');
const { VARIANT_EXTENSIONS, createEngines } = require('../compression/codings');

const SCRIPT = path.join(__dirname, 'cache-precompress.js');
// Nice value of the child: below every interactive process, above idle batch work.
const NICENESS = 10;
const MiB = 1024 * 1024;

/**
 * @param {object} options
 * @param {string} options.root
 * @param {string} options.cacheDir
 * @param {number} options.cacheBytes the size limit of the root's folder in cacheDir
 * @param {string[]} options.encodings the server's codings; those with a variant are made,
 *   but for a coding whose addon did not load (the server said so once, create-core.js)
 * @param {Record<string, number>} [options.levels] levels replacing the strongest
 * @param {number} options.minBytes smaller files get no variants
 * @param {string[]} [options.only] just these names under root (see listNamedFiles)
 * @param {import('../log/logger').Logger} options.log
 * @returns {{ stop(): void, exited: Promise<number|null> }} stop() asks the child to finish the
 *   files in progress and exit; exited resolves with its exit code.
 */
function startBackgroundPrecompress({ root, cacheDir, cacheBytes, encodings, levels, minBytes, only, log }) {
  const { available } = createEngines();
  const codings = encodings.filter((c) => Object.hasOwn(VARIANT_EXTENSIONS, c) && available.includes(c));
  if (codings.length === 0) return { stop() {}, exited: Promise.resolve(0) };
  const job = { root, cacheDir, codings, levels, minBytes, maxBytes: cacheBytes, only };
  const child = fork(SCRIPT, [JSON.stringify(job)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.once('spawn', () => {
    try {
      os.setPriority(child.pid, NICENESS);
    } catch (err) {
      log.debug(`precompress: cannot lower its priority: ${err.message}`);
    }
  });
  if (only === undefined) log.info(`precompressing ${root} in the background into ${cacheDir} (${codings.join(', ')}; --no-precompress to skip)`);
  child.on('message', ({ warn, summary }) => {
    if (warn !== undefined) log.warn(`precompress: ${warn}`);
    if (summary === undefined) return;
    const line = `precompressed ${summary.files} files of ${only === undefined ? root : only.join(', ')} into ${summary.dir}: ` +
      `${summary.written} variants written, ${summary.fresh} already cached, ${summary.evicted} evicted; ` +
      `${(summary.bytes / MiB).toFixed(1)} of ${(cacheBytes / MiB).toFixed(1)} MiB (--cache-bytes)`;
    if (only === undefined) log.info(line);
    else log.debug(line);
  });
  const exited = new Promise((resolve) => {
    child.once('error', (err) => {
      log.warn(`precompress could not start: ${err.message}`);
      resolve(null);
    });
    child.once('exit', (code, signal) => {
      if (code !== 0) log.warn(`precompress exited (${signal || code}); files without a variant are compressed on the fly`);
      resolve(code);
    });
  });
  return {
    stop() {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) child.kill('SIGTERM');
    },
    exited,
  };
}

module.exports = { startBackgroundPrecompress };
