'use strict';
// Under descriptor pressure, the connections idle longest make room for new ones. Without it a
// client can hold HTTP/2 connections without a request for as long as the idle timeout allows
// them, and with enough of them every descriptor: new clients are then refused while they stay
// (232 connections filled a server under `ulimit -n 256`). Once a new connection brings the open
// ones past a share of the descriptor limit, the longest idle ones are closed gracefully
// (HTTP/2: GOAWAY NO_ERROR; HTTP/1.1 between requests: FIN). Busy connections are never chosen.

const { OPEN_CONNECTIONS, PENDING_HANDSHAKES } = require('../config/limits');

/** How many connections a process with `fdLimit` descriptors (null: unknown) keeps open before shedding. */
function maxOpenConnections(fdLimit) {
  return Math.max(1, Math.floor((fdLimit ?? PENDING_HANDSHAKES.unknownLimit) * OPEN_CONNECTIONS.fdShare));
}

class IdleShedder {
  #max;
  #batch;
  #log;
  // Closed by us and not gone yet (the close lingers): they no longer count as open.
  #closing = new Set();

  constructor(max, log) {
    this.#max = max;
    // Past the limit, enough are closed to go a batch below it, so the scan for the longest idle
    // is paid once per batch of new connections, not for each one.
    this.#batch = Number.isFinite(max) ? Math.max(1, Math.ceil(max * OPEN_CONNECTIONS.shedShare)) : 0;
    this.#log = log;
  }

  /**
   * Called after a connection opened. connections: the open ones, each { idleMs() (-1 while
   * busy, 0 if it was active a moment ago), close(), once('close') }. Returns how many it closed.
   */
  opened(connections) {
    const excess = connections.size - this.#closing.size - this.#max;
    if (excess <= 0) return 0;
    const idle = [];
    for (const connection of connections) {
      if (this.#closing.has(connection)) continue;
      // 0: activity within the idle timer's last tick (and the connection just opened).
      const ms = connection.idleMs();
      if (ms > 0) idle.push({ ms, connection });
    }
    idle.sort((a, b) => b.ms - a.ms);
    const chosen = idle.slice(0, excess + this.#batch - 1);
    for (const { connection } of chosen) {
      this.#closing.add(connection);
      connection.once('close', () => this.#closing.delete(connection));
      connection.close();
    }
    this.#log.debug(`${connections.size} connections open, over ${this.#max}: closed the ${chosen.length} idle longest`);
    return chosen.length;
  }
}

module.exports = { IdleShedder, maxOpenConnections };
