'use strict';
// Bounds the TLS handshakes a listener has not finished, for every engine: each connection must
// finish its handshake within deadlineMs of its arrival, and at most maxPending may be
// unfinished at once (a new one past that drops the oldest). Without it a client that connects
// and sends nothing, or half a ClientHello, holds a descriptor for as long as it likes: on
// Node 20 a 'tlsClientError' listener that does not destroy the socket leaves it open, and
// Node's handshakeTimeout is an inactivity timer that a byte now and then keeps alive.
//
// Dropping the oldest rather than refusing the newest keeps the server reachable under a flood
// of silent connections: a real client's handshake finishes within a round trip, long before
// maxPending newer connections push it out, while the attacker has to keep opening connections
// faster than that to hold the slots.
//
// Every pending connection has the same deadline, so arrival order is deadline order: one timer,
// armed for the oldest, serves them all.

const fs = require('node:fs');
const { CODES } = require('../errors');
const { PENDING_HANDSHAKES } = require('../config/limits');
const { NO_METRICS } = require('../metrics/recorder');
const { releaseFreeMemory } = require('./hpack-addon');
const { releaseAfterSurge } = require('./release-after-surge');

const REAL_TIMERS = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (timer) => clearTimeout(timer),
};

/** The soft limit on this process's open descriptors, or null where /proc does not say. */
function openFileLimit(limitsText = readProcLimits()) {
  const m = /^Max open files\s+(\d+|unlimited)\s/m.exec(limitsText ?? '');
  if (m === null) return null;
  return m[1] === 'unlimited' ? Infinity : Number(m[1]);
}

function readProcLimits() {
  try {
    return fs.readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return null;
  }
}

/** How many unfinished handshakes a process with `fdLimit` descriptors (null: unknown) allows: a share of them, within the memory bound. */
function maxPendingHandshakes(fdLimit) {
  const { fdShare, min, unknownLimit, memoryBytes, bytesEach } = PENDING_HANDSHAKES;
  if (fdLimit === null) return unknownLimit;
  return Math.max(min, Math.min(Math.floor(memoryBytes / bytesEach), Math.floor(fdLimit * fdShare)));
}

// A connection's key on both sides of the handshake: the raw TCP socket ('connection') and the
// TLS socket built on it ('secureConnection', 'tlsClientError') share the peer's address and port.
const peerKey = (socket) => (socket.remotePort === undefined ? null : `${socket.remoteAddress}|${socket.remotePort}`);

/**
 * Watches `server` (a tls.Server): returns { pending (how many are unfinished now) }.
 * @param {import('node:tls').Server} server
 * @param {{ deadlineMs: number, maxPending?: number, log: { debug(msg: string): void }, timers?: typeof REAL_TIMERS,
 *   metrics?: { handshakeDropped(reason: string): void }, release?: () => boolean }} options
 *   release: gives freed memory back after a surge (releaseAfterSurge)
 */
function guardHandshakes(server, {
  deadlineMs, maxPending = maxPendingHandshakes(openFileLimit()), log, timers = REAL_TIMERS, metrics = NO_METRICS,
  release = releaseFreeMemory,
}) {
  // key -> { socket (raw), arrived }, oldest first.
  const pending = new Map();
  const surges = releaseAfterSurge({ ...PENDING_HANDSHAKES.releaseAfter, release, timers });
  let timer = null;

  // Whether the connection was still pending.
  function forget(key) {
    if (key === null || !pending.delete(key)) return false;
    surges.note(pending.size);
    return true;
  }

  // reason: the metrics' label, 'deadline' or 'over_cap' ('tls_error' below).
  function drop(key, entry, why, reason) {
    forget(key);
    metrics.handshakeDropped(reason);
    log.debug(`tls handshake from ${key} dropped: ${why}`);
    entry.socket.destroy();
  }

  function expire() {
    timer = null;
    const now = timers.now();
    for (const [key, entry] of pending) {
      if (entry.arrived + deadlineMs > now) break;
      drop(key, entry, `not finished within ${deadlineMs} ms`, 'deadline');
    }
    arm();
  }

  function arm() {
    if (timer !== null || pending.size === 0) return;
    const oldest = pending.values().next().value;
    timer = timers.setTimeout(expire, Math.max(0, oldest.arrived + deadlineMs - timers.now()));
  }

  server.on('connection', (socket) => {
    const key = peerKey(socket);
    if (key === null) return; // already gone
    pending.set(key, { socket, arrived: timers.now() });
    surges.note(pending.size);
    socket.once('close', () => forget(key));
    if (pending.size > maxPending) {
      const [oldestKey, oldest] = pending.entries().next().value;
      drop(oldestKey, oldest, `more than ${maxPending} handshakes unfinished`, 'over_cap');
    }
    arm();
  });
  server.on('secureConnection', (socket) => forget(peerKey(socket)));
  server.on('tlsClientError', (err, socket) => {
    // Node's handshakeTimeout, an inactivity timer, can expire at the deadline just before ours;
    // a connection the guard dropped already was counted then.
    if (forget(peerKey(socket))) metrics.handshakeDropped(err.code === CODES.ERR_TLS_HANDSHAKE_TIMEOUT ? 'deadline' : 'tls_error');
    log.debug(`tls error: ${err.message}`);
    socket.destroy();
  });

  return {
    get pending() { return pending.size; },
  };
}

/**
 * Hears the C transport's own guard (native/transport/handshakes.c) through its server's
 * 'handshakes' reports (transport/server.js): its drops feed the same metric, and the pending
 * count the same release after a surge, as guardHandshakes does for node:tls.
 * @param {import('node:events').EventEmitter} server a TransportServer
 * @param {{ metrics?: { handshakeDropped(reason: string, count: number): void }, release?: () => boolean, timers?: typeof REAL_TIMERS }} options
 */
function heedTransportHandshakes(server, { metrics = NO_METRICS, release = releaseFreeMemory, timers = REAL_TIMERS } = {}) {
  const surges = releaseAfterSurge({ ...PENDING_HANDSHAKES.releaseAfter, release, timers });
  server.on('handshakes', ({ dropped, peak, pending }) => {
    for (const [reason, count] of Object.entries(dropped)) if (count > 0) metrics.handshakeDropped(reason, count);
    surges.note(peak);
    surges.note(pending);
  });
}

module.exports = { guardHandshakes, heedTransportHandshakes, maxPendingHandshakes, openFileLimit };
