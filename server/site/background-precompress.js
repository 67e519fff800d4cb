'use strict';
// The CLI's start-up precompression: `precompress.js` over the served root in a child process,
// started after the server listens, so neither the first request nor the event loop waits for
// compression at the strongest settings. The child runs at a lower CPU priority, so requests
// (and on-the-fly compression) win when both want the cores. It writes only the variants its
// manifest records as its own (see precompress.js); the file store picks each new variant up at
// the next request for that file (after --revalidate-ms when that is above 0). Its progress line
// (on a terminal) and summary go to the server's stderr and stdout.

const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { VARIANT_EXTENSIONS } = require('../compression/codings');

const SCRIPT = path.join(__dirname, '..', '..', 'tools', 'precompress', 'index.js');
// Nice value of the child: below every interactive process, above idle batch work.
const NICENESS = 10;

/**
 * @param {object} options
 * @param {string} options.root
 * @param {string[]} options.encodings the server's codings; those with a variant are written
 * @param {string[]} [options.extraArgs] more precompress.js arguments (e.g. --levels)
 * @param {boolean} options.quiet no summary (log levels below info)
 * @param {string[]} [options.only] just these names under root (see precompressDir)
 * @param {import('./logger').Logger} options.log
 * @returns {{ stop(): void, exited: Promise<number|null> }} stop() asks the child to finish the
 *   files in progress, record them and exit; exited resolves with its exit code.
 */
function startBackgroundPrecompress({ root, encodings, extraArgs = [], quiet, log, only }) {
  const codings = encodings.filter((c) => Object.hasOwn(VARIANT_EXTENSIONS, c));
  if (codings.length === 0) return { stop() {}, exited: Promise.resolve(0) };
  const args = [SCRIPT, root, '--codings', codings.join(','), ...extraArgs, ...(quiet ? ['--quiet'] : []),
    ...(only ?? []).map((name) => `--only=${name}`)];
  // The summary is a table, not a log line: with a JSON logger (--log-format json) stdout
  // carries JSON objects only, and the table goes to stderr.
  const child = spawn(process.execPath, args, { stdio: ['ignore', log.json ? 2 : 'inherit', 'inherit'] });
  child.once('spawn', () => {
    try {
      os.setPriority(child.pid, NICENESS);
    } catch (err) {
      log.debug(`precompress: cannot lower its priority: ${err.message}`);
    }
  });
  if (only === undefined) log.info(`precompressing ${root} in the background (${codings.join(', ')}; --no-precompress to skip)`);
  const exited = new Promise((resolve) => {
    child.once('error', (err) => {
      log.warn(`precompress could not start: ${err.message}`);
      resolve(null);
    });
    child.once('exit', (code, signal) => {
      if (code !== 0) log.warn(`precompress exited (${signal || code}); variants it could not write are compressed on the fly`);
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
