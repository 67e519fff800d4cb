'use strict';
// The `native` engine: one TLS server offering h2, http/1.1 and http/1.0 by ALPN. h2 sockets are
// served by server/engines/h2; the others (http/1.1, http/1.0 or no ALPN) by server/engines/h1. With tls null
// (--no-tls), a plain TCP server whose connections server/engines/h1 serves. transport 'c' puts
// the TLS connections on the C transport (server/engines/transport/), whose own guard bounds
// the handshakes (heard here for the metrics and the memory after a surge) and whose OpenSSL
// context refuses renegotiation (an 'error' on the socket, as node:tls's).

const net = require('node:net');
const tls = require('node:tls');
const { HTTP2_SETTINGS } = require('../config/limits');
const { serveHttp1 } = require('./h1');
const { serveHttp2 } = require('./h2');
const { guardHandshakes, heedTransportHandshakes, openFileLimit } = require('./handshake-guard');
const { IdleShedder, maxOpenConnections } = require('./idle-shedding');
const { refuseRenegotiation } = require('./tls-renegotiation');
// Loaded only when chosen: it loads the transport addon, which an installed package may lack.
const transportServer = (options) => new (require('./transport/server').TransportServer)(options);

// Returns { server (to listen on), close() (graceful: every connection finishes what it was
// asked, HTTP/2 with GOAWAY, HTTP/1.1 with Connection: close, then closes), destroy() }.
function createNativeListener({ tls: credentials, transport = 'node', reusePort = false, timeouts, core, log, isClosing, metrics }) {
  const secure = {
    cert: credentials?.cert,
    key: credentials?.key,
    // http/1.0 too: `curl -0` offers only that, and a server offering none of a client's
    // protocols ends the handshake (no_application_protocol).
    ALPNProtocols: ['h2', 'http/1.1', 'http/1.0'],
    handshakeTimeout: timeouts.handshakeTimeout,
  };
  const onC = credentials !== null && transport === 'c';
  const onNodeTls = credentials !== null && !onC;
  const server = credentials === null ? net.createServer()
    : onC ? transportServer({ ...secure, alpn: secure.ALPNProtocols, reusePort, idleTimeout: Math.max(timeouts.idleTimeout, timeouts.http2IdleTimeout) })
      : tls.createServer(secure);
  const connections = new Set();
  const shedder = new IdleShedder(maxOpenConnections(openFileLimit()), log);
  const ctx = { core, log, timeouts, isClosing, settings: HTTP2_SETTINGS, metrics };
  server.on(credentials === null ? 'connection' : 'secureConnection', (socket) => {
    if (onNodeTls) refuseRenegotiation(socket);
    const connection = socket.alpnProtocol === 'h2' ? serveHttp2(socket, ctx) : serveHttp1(socket, ctx);
    connections.add(connection);
    connection.once('close', () => connections.delete(connection));
    shedder.opened(connections);
  });
  if (onNodeTls) guardHandshakes(server, { deadlineMs: timeouts.handshakeTimeout, log, metrics });
  if (onC) heedTransportHandshakes(server, { metrics });
  return {
    server,
    close() { for (const connection of connections) connection.close(); },
    destroy() { for (const connection of connections) connection.destroy(); },
  };
}

module.exports = { createNativeListener };
