'use strict';
// The server's own HTTP/3 engine (RFC 9114, with the project's QPACK) over the QUIC transport
// of native/quic.js.

const { Http3Connection } = require('./connection');

// Serves one QUIC connection that negotiated "h3". ctx: { core, log, timeouts, isClosing,
// metrics }. Returns the connection: close() (graceful GOAWAY), destroy(), and a 'close' event.
function serveHttp3(quicConnection, ctx) {
  return new Http3Connection(quicConnection, ctx);
}

module.exports = { serveHttp3 };
