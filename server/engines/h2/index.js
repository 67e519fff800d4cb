'use strict';
// The server's own HTTP/2 engine (RFC 9113) over node:tls sockets.

const { Http2Connection } = require('./connection');

// Serves one TLS socket that negotiated "h2". ctx: { core, log, timeouts, isClosing,
// settings: { maxConcurrentStreams, maxHeaderListSize } }.
// Returns the connection: close() (graceful GOAWAY), destroy(), and a 'close' event.
function serveHttp2(tlsSocket, ctx) {
  return new Http2Connection(tlsSocket, ctx);
}

module.exports = { serveHttp2 };
