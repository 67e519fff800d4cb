'use strict';
// HTTP/3 beside HTTPS: a QUIC listener (native/quic.js) on the same host and port number, with
// the same certificate, whose connections server/engines/h3 serves. The transport needs Node
// 22.20+ or 24 (OpenSSL 3.5's QUIC); where it cannot run, one log line says why and the server
// goes on with HTTP/2 and HTTP/1.1 only.

const { loadFailure } = require('../errors');

const NOT_BUILT = 'the QUIC addon is not built';

// native/quic.js, or null while it is not there (a checkout or package without the transport).
function loadQuic() {
  try {
    return require('../../native/quic');
  } catch (err) {
    if (err.code === 'MODULE_NOT_FOUND' && /native[\\/]quic\b/.test(err.message)) return null;
    throw err;
  }
}

// The QUIC transport's support() without throwing: { ok } or { ok: false, reason }.
function quicSupport(quic) {
  return quic === null ? { ok: false, reason: NOT_BUILT } : quic.support();
}

// Returns null when HTTP/3 does not run (logged), else { port, close() (graceful: GOAWAY on
// every connection, then the socket closes; resolves then), destroy(), secure (a target for
// tls/reload.js: the certificate it reloads goes to new QUIC connections too) }.
function listenHttp3({ tls, host, port, timeouts, core, log, isClosing, metrics, quic = loadQuic() }) {
  const support = quicSupport(quic);
  if (!support.ok) {
    log.info(`HTTP/3 off: ${support.reason}`);
    return null;
  }
  // The engine's QPACK is the HPACK addon's: loaded only here, so that a server without HTTP/3
  // (the node engine over plain HTTP, an install whose addon does not load) never needs it.
  let serveHttp3;
  try {
    ({ serveHttp3 } = require('./h3'));
  } catch (err) {
    log.warn(`HTTP/3 off: the QPACK addon cannot be loaded (${loadFailure(err)}); to fix it run: npm rebuild negotiate-h2`);
    return null;
  }
  const connections = new Set();
  const ctx = { core, log, timeouts, isClosing, metrics };
  let listener;
  try {
    listener = quic.listen({
      host,
      port,
      cert: Buffer.from(tls.cert),
      key: Buffer.from(tls.key),
      alpn: ['h3'],
      // A connection without requests lives as long as an idle HTTP/2 one.
      idleTimeoutMs: timeouts.http2IdleTimeout,
      handshakeTimeoutMs: timeouts.handshakeTimeout,
      onconnection: (conn) => {
        const connection = serveHttp3(conn, ctx);
        connections.add(connection);
        connection.once('close', () => connections.delete(connection));
        metrics.connectionOpened(connection);
      },
    });
  } catch (err) {
    // HTTP/3 is an extra: a UDP port taken by something else costs it, not the server.
    log.warn(`HTTP/3 off: udp ${host}:${port}: ${err.errno ?? err.code ?? ''} ${err.message}`.replace(/ {2,}/g, ' '));
    return null;
  }
  const closed = new Promise((resolve) => { listener.onclose = resolve; });
  log.info(`HTTP/3 runs on udp ${listener.address}:${listener.port}`);
  return {
    port: listener.port,
    close() {
      for (const connection of connections) connection.close();
      listener.close();
      return closed;
    },
    destroy() {
      listener.destroy();
      return closed;
    },
    secure: {
      cert: tls.cert,
      key: tls.key,
      getTicketKeys: () => undefined,
      setSecureContext: ({ cert, key }) => listener.setSecureContext({ cert: Buffer.from(cert), key: Buffer.from(key) }),
    },
  };
}

module.exports = { listenHttp3, quicSupport, loadQuic };
