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
// The C transport (server/engines/transport/): output pending on a connection from highWater on
// stops its reads and makes write() return false until all is out ('drain'), as a node:net
// socket's writableHighWaterMark does; past maxPending (only an engine ignoring backpressure
// gets there: it is more than any response the engines write at once) the connection is closed.
const TRANSPORT = { highWater: 16 * 1024, maxPending: 64 * 1024 * 1024 };
// Enough for the 8 KiB request-target limit plus ordinary headers, so over-long paths get 414.
const MAX_HTTP1_HEADER_BYTES = 32 * 1024;

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

module.exports = { HTTP2_SETTINGS, HEADER_FIELD_OVERHEAD, HTTP2_OPTIONS, TIMEOUTS, PENDING_HANDSHAKES, TRANSPORT, LINGER_MS, MAX_HTTP1_HEADER_BYTES, applyHttp1Limits };
