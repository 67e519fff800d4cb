'use strict';
// The `native` engine: one TLS server offering h2 and http/1.1 by ALPN. h2 sockets are served
// by server/h2; the others (http/1.1 or no ALPN) by Node's HTTP/1.1 server code.

const https = require('node:https');
const { HTTP2_SETTINGS, applyHttp1Limits } = require('./limits');
const { createHttp1Handler } = require('./http1');
const { serveHttp2 } = require('./h2');

// Returns { server (to listen on), closeHttp2() (GOAWAY to every connection), destroyHttp2() }.
function createNativeListener({ tls, timeouts, core, log, isClosing, responseHeaders }) {
  const server = https.createServer({
    cert: tls.cert,
    key: tls.key,
    ALPNProtocols: ['h2', 'http/1.1'],
    handshakeTimeout: timeouts.handshakeTimeout,
    // The Host checks (RFC 9112 3.2) are http1.js's, the same for both engines; Node's own would
    // answer a missing Host first, with an empty 400.
    requireHostHeader: false,
  }, createHttp1Handler(core, log, isClosing));
  applyHttp1Limits(server, timeouts);
  // https.Server hands every TLS socket to its HTTP/1.1 connection listener; h2 sockets are
  // taken out before it. A real https.Server (rather than an http.Server fed sockets) keeps
  // Node's HTTP/1.1 timeout sweep and closeIdleConnections() working.
  const [serveHttp1] = server.listeners('secureConnection');
  server.off('secureConnection', serveHttp1);

  const connections = new Set();
  const ctx = { core, log, timeouts, isClosing, settings: HTTP2_SETTINGS, responseHeaders };
  server.on('secureConnection', (socket) => {
    if (socket.alpnProtocol !== 'h2') {
      serveHttp1.call(server, socket);
      return;
    }
    const connection = serveHttp2(socket, ctx);
    connections.add(connection);
    connection.once('close', () => connections.delete(connection));
  });
  server.on('tlsClientError', (err) => log.debug(`tls error: ${err.message}`));
  return {
    server,
    closeHttp2() { for (const connection of connections) connection.close(); },
    destroyHttp2() { for (const connection of connections) connection.destroy(); },
  };
}

module.exports = { createNativeListener };
