'use strict';
// Waiting for a condition, and counting this process's open descriptors: the one definition of
// each for every test.

const fs = require('node:fs');
const { setTimeout: sleep } = require('node:timers/promises');

/**
 * Resolves once `check()` (sync or async) returns a truthy value, with that value; fails after
 * timeoutMs with "timed out after N ms waiting for <what>" (what may be a function, called then,
 * to report the state at that moment).
 * @param {() => unknown} check
 * @param {{ what?: string | (() => string), timeoutMs?: number, intervalMs?: number }} [options]
 */
async function waitFor(check, { what = 'the condition', timeoutMs = 5000, intervalMs = 20 } = {}) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (performance.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'function' ? what() : what}`);
    }
    await sleep(intervalMs);
  }
}

const PROC_FD = '/proc/self/fd';

/** false where /proc/self/fd lists this process's descriptors, else the reason to skip. */
function fdSkipReason() {
  return fs.existsSync(PROC_FD) ? false : `needs ${PROC_FD}`;
}

/** What each open descriptor of this process points at ('/path', 'socket:[n]', 'pipe:[n]', ...). */
function openFdTargets() {
  const targets = [];
  for (const fd of fs.readdirSync(PROC_FD)) {
    try {
      targets.push(fs.readlinkSync(`${PROC_FD}/${fd}`));
    } catch {
      // closed between listing and reading
    }
  }
  return targets;
}

/** How many descriptors point at something `accept` accepts (default: every one). */
function countOpenFds(accept = () => true) {
  return openFdTargets().filter(accept).length;
}

/**
 * Open files and sockets: what a response holds. Event fds, epoll instances and pipes belong to
 * threads an engine starts once and keeps (zstd's worker pool grows with load), so they are left out.
 */
const isFileOrSocket = (target) => target.startsWith('/') || target.startsWith('socket:');

module.exports = { waitFor, fdSkipReason, openFdTargets, countOpenFds, isFileOrSocket, PROC_FD };
