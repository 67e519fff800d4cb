'use strict';
// Protocol limits and timeouts shared by both engines (see docs/engines.md, "HTTP/2 and timeouts").

// HTTP/2 limits, chosen for a static file server.
const HTTP2_SETTINGS = {
  maxConcurrentStreams: 128,
  maxHeaderListSize: 32 * 1024,
};
// A header list up to this multiple of the advertised limit (HTTP/2 SETTINGS_MAX_HEADER_LIST_SIZE,
// HTTP/3 SETTINGS_MAX_FIELD_SECTION_SIZE) is still decoded (the HPACK or QPACK state stays in
// sync) and answered with 431; a larger block, in octets or decoded, ends the connection, since
// its cost is ours and the peer was told the limit.
const HEADER_LIST_HARD_FACTOR = 4;
// A request body (this server serves GET and HEAD, so it has no use for one) is answered once
// this much has arrived instead of being read to its end; the rest is cut off after the response
// (HTTP/2 RST_STREAM NO_ERROR, 8.1; HTTP/3 STOP_SENDING H3_NO_ERROR, RFC 9114 4.1).
const REQUEST_BODY_LIMIT = 64 * 1024;
// RFC 9113 6.5.2: against maxHeaderListSize a field counts its name and value octets plus 32.
const HEADER_FIELD_OVERHEAD = 32;
// node:http2 only (the native engine needs neither: it bounds its own memory and never pushes).
const HTTP2_OPTIONS = {
  maxSessionMemory: 16,
  peerMaxConcurrentStreams: 100,
};
// The native HTTP/2 engine's flood limits per connection (server/engines/h2/flood-guard.js): a
// burst at once, then a rate per second, past which the connection ends with GOAWAY
// ENHANCE_YOUR_CALM.
const HTTP2_FLOOD = {
  // Frames that make us answer (SETTINGS, PING) or work for no content (empty DATA, HEADERS or
  // CONTINUATION fragments) (CVE-2019-9512, 9515, 9518). WINDOW_UPDATE and PRIORITY cost O(1)
  // and produce no output.
  control: { burst: 1000, perSecond: 100 },
  // Streams reset by the peer, or by us for the peer's errors (refused streams, malformed
  // requests, frames on closed streams): rapid reset, CVE-2023-44487 (nghttp2's values).
  reset: { burst: 1000, perSecond: 33 },
  // Frames on streams we reset, which RFC 9113 5.1 has us ignore (they may have crossed our
  // RST_STREAM), though a HEADERS block among them must still be HPACK-decoded: nghttp2's
  // glitch limit (session_update_glitch_ratelim) and its values.
  glitch: { burst: 1000, perSecond: 33 },
};
// HTTP/3 (server/engines/h3/, docs/http3.md). settings: what our SETTINGS frame advertises
// (RFC 9114 7.2.4.1, RFC 9204 5): a QPACK table as large as HTTP/2's, a few request streams
// that may wait for its inserts, and the field-section size HTTP/2 allows. Our own encoder's
// table is bounded by the same capacity whatever the peer offers. maxRequests: request streams
// open at once (the QUIC transport's stream limit is the peer's business: past this bound a new
// one is refused with H3_REQUEST_REJECTED). controlFrameMax: the longest SETTINGS, GOAWAY or
// other control-stream frame read; blockedBytes: QPACK sections waiting for inserts, all
// streams together. flood: the glitch budget (reset streams, unknown or empty frames, junk
// unidirectional streams) past which the connection closes with H3_EXCESSIVE_LOAD.
const HTTP3 = {
  settings: { qpackMaxTableCapacity: 4096, qpackBlockedStreams: 16, maxFieldSectionSize: HTTP2_SETTINGS.maxHeaderListSize },
  maxRequests: HTTP2_SETTINGS.maxConcurrentStreams,
  controlFrameMax: 4096,
  blockedBytes: 256 * 1024,
  flood: { burst: 1000, perSecond: 33 },
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
// How often the node engine looks for HTTP/2 sessions that nghttp2 stopped serving without
// closing them (server/engines/node/stuck-sessions.js); two sweeps in a row find one stuck.
const STUCK_SESSION_SWEEP_MS = 1_000;
// Once a connection's last response is flushed and its write side closed (FIN, or GOAWAY then
// FIN), input is read and dropped for this long before the socket is destroyed, so a client
// still sending does not turn our close into a reset that discards what it has not read yet
// (nginx: lingering_close). One value for both engines.
const LINGER_MS = 2_000;
// File bytes the node engine leaves in one Node response stream before it waits for them to
// go: Node 20's highWaterMark, which the engine's memory bounds were measured with.
const NODE_WRITE_BUFFER = 16 * 1024;
// Unfinished TLS handshakes one process holds at once (server/engines/handshake-guard.js): a
// share of its descriptor limit, so that connections that never finish a handshake cannot take
// every descriptor before handshakeTimeout frees them (unknownLimit where /proc does not say),
// and at most memoryBytes of them at bytesEach: what one costs in Node's TLS socket and OpenSSL,
// 55 to 71 KiB measured (bench/results/2026-11-27-pending-handshakes.md), which glibc keeps
// once they are gone: releaseAfter gives it back, delayMs after the last of a surge of at least
// `surge` pending at once has gone (server/engines/release-after-surge.js).
const PENDING_HANDSHAKES = {
  fdShare: 1 / 4, min: 16, unknownLimit: 256, memoryBytes: 48 * 1024 * 1024, bytesEach: 64 * 1024,
  releaseAfter: { surge: 64, delayMs: 1000 },
};
// Connections one native-engine process keeps open before, at each new one, it closes the
// longest idle ones (server/engines/idle-shedding.js): a share of its descriptor limit (the
// pending handshakes take up to another quarter, and files, the cache and watches need the
// rest), and the share of them closed at once, so that the scan for the longest idle is not
// paid per connection.
const OPEN_CONNECTIONS = { fdShare: 5 / 8, shedShare: 1 / 16 };
// The C transport (server/engines/transport/): output pending on a connection from highWater on
// stops its reads and makes write() return false until all is out ('drain'), as a node:net
// socket's writableHighWaterMark does; past maxPending (only an engine ignoring backpressure
// gets there: it is more than any response the engines write at once) the connection is closed.
const TRANSPORT = { highWater: 16 * 1024, maxPending: 64 * 1024 * 1024 };
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

module.exports = { HTTP2_SETTINGS, HTTP3, HEADER_LIST_HARD_FACTOR, REQUEST_BODY_LIMIT, HEADER_FIELD_OVERHEAD, HTTP2_OPTIONS, HTTP2_FLOOD, TIMEOUTS, PENDING_HANDSHAKES, OPEN_CONNECTIONS, STUCK_SESSION_SWEEP_MS, TRANSPORT, LINGER_MS, NODE_WRITE_BUFFER, MAX_HTTP1_HEADER_BYTES, DELTA_WORK, applyHttp1Limits };
