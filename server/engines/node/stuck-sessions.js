'use strict';
// nghttp2 stops reading a session once it has answered a connection error with GOAWAY (a DATA or
// CONTINUATION frame after END_STREAM: h2spec 5.1/5, 5.1/7) and stops writing it too, but Node
// never closes such a session: its streams keep their unsent responses and stay open, its socket
// stays in CLOSE-WAIT once the peer has closed, only Node's session timer (idleTimeout, 2
// minutes) ends it, and a graceful shutdown waits for it in vain. It is told apart by what it
// does not do: nghttp2 holds frames to send while the socket has nothing queued, and no byte went
// out since the sweep before. A session waiting for flow control holds none in that queue (its
// DATA waits on the stream), and one waiting for a slow reader has bytes queued in the socket.

/**
 * Destroys the sessions stuck for two sweeps in a row. sessions: Map of Http2Session -> the
 * record this function keeps ({} to begin with). Returns how many it destroyed.
 */
function sweepStuckSessions(sessions) {
  let destroyed = 0;
  for (const [session, seen] of sessions) {
    if (session.destroyed) continue;
    const socket = session.socket;
    const written = socket.bytesWritten;
    const still = session.state.outboundQueueSize > 0 && socket.writableLength === 0 && written === seen.written;
    seen.written = written;
    seen.sweeps = still ? (seen.sweeps ?? 0) + 1 : 0;
    if (seen.sweeps >= 2) {
      session.destroy();
      destroyed++;
    }
  }
  return destroyed;
}

module.exports = { sweepStuckSessions };
