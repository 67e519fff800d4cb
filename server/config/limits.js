'use strict';
// Protocol limits and timeouts shared by both engines (see docs/engines.md, "HTTP/2 and timeouts").

// HTTP/2 limits, chosen for a static file server.
const HTTP2_SETTINGS = {
  maxConcurrentStreams: 128,
  maxHeaderListSize: 32 * 1024,
};
// RFC 9113 6.5.2: against maxHeaderListSize a field counts its name and value octets plus 32.
const HEADER_FIELD_OVERHEAD = 32;
// node:http2 only (the native engine needs neither: it bounds its own memory and never pushes).
const HTTP2_OPTIONS = {
  maxSessionMemory: 16,
  peerMaxConcurrentStreams: 100,
};
// Timeouts in ms: slow or idle clients lose their connection instead of holding it.
// headersTimeout also bounds an HTTP/2 client's preface and first SETTINGS, as nginx's
// client_header_timeout does. A peer stalled inside a frame cannot be told from an idle one:
// an HTTP/2 connection with no open stream gets http2IdleTimeout (nginx: keepalive_timeout),
// one serving streams idleTimeout.
const TIMEOUTS = {
  handshakeTimeout: 10_000,
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  http2IdleTimeout: 30_000,
  idleTimeout: 120_000,
  // An HTTP/2 streamed body that gets no DATA out this long is reset (nginx: send_timeout).
  sendTimeout: 60_000,
  // How often Node sweeps HTTP/1.1 connections for headersTimeout/requestTimeout (default 30 s).
  connectionsCheckingInterval: 1_000,
};
// Once a connection's last response is flushed and its write side closed (FIN, or GOAWAY then
// FIN), input is read and dropped for this long before the socket is destroyed, so a client
// still sending does not turn our close into a reset that discards what it has not read yet
// (nginx: lingering_close). One value for both engines.
const LINGER_MS = 2_000;
// Unfinished TLS handshakes one process holds at once (server/engines/handshake-guard.js): a
// share of its descriptor limit, so that connections that never finish a handshake cannot take
// every descriptor before handshakeTimeout frees them; unknownLimit where /proc does not say.
const PENDING_HANDSHAKES = { fdShare: 1 / 4, min: 16, max: 4096, unknownLimit: 256 };
// Enough for the 8 KiB request-target limit plus ordinary headers, so over-long paths get 414.
const MAX_HTTP1_HEADER_BYTES = 32 * 1024;
// On-the-fly dictionary delta work (server/dictionaries/delta-budget.js), in bytes of input made
// into a delta or checked once: dcb at quality 5 makes 50 to 100 MB a second on one core, so the
// process's rate costs at most about a sixth of a core, and a connection's burst covers a page's
// scripts and styles after a release (a returning visitor's first page), then an eighth of that.
const MiB = 1024 * 1024;
const DELTA_WORK = {
  global: { bytesPerSecond: 8 * MiB, burstBytes: 32 * MiB },
  connection: { bytesPerSecond: 1 * MiB, burstBytes: 8 * MiB },
};

// Node's HTTP/1.1 timeouts and header limit on a server that serves HTTP/1.1 sockets.
function applyHttp1Limits(server, timeouts) {
  server.headersTimeout = timeouts.headersTimeout;
  server.requestTimeout = timeouts.requestTimeout;
  server.keepAliveTimeout = timeouts.keepAliveTimeout;
  // Read when the server starts listening.
  server.connectionsCheckingInterval = timeouts.connectionsCheckingInterval;
  server.maxHeaderSize = MAX_HTTP1_HEADER_BYTES;
  server.setTimeout(timeouts.idleTimeout);
}

module.exports = { HTTP2_SETTINGS, HEADER_FIELD_OVERHEAD, HTTP2_OPTIONS, TIMEOUTS, PENDING_HANDSHAKES, LINGER_MS, MAX_HTTP1_HEADER_BYTES, DELTA_WORK, applyHttp1Limits };
