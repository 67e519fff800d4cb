'use strict';
// The server's own HTTP/1.1 engine (RFC 9112) for TLS sockets that negotiated http/1.1 or no
// ALPN protocol: serveHttp1(socket, { core, log, timeouts, isClosing }) serves the connection
// and returns a handle with close() (graceful: the responses asked for are sent, then the
// connection closes), destroy(), and a 'close' event.

const { Http1Connection } = require('./connection');

function serveHttp1(socket, ctx) {
  // Responses go out in one write per batch; Nagle would only hold the last one back.
  socket.setNoDelay(true);
  return new Http1Connection(socket, ctx);
}

module.exports = { serveHttp1 };
