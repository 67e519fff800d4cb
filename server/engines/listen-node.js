'use strict';
// The `node` engine: node:http2's secure server, HTTP/1.1 through its allowHTTP1 fallback; with
// tls null (--no-tls) node:http's plain HTTP/1.1 server.

const http = require('node:http');
const http2 = require('node:http2');
const { constants: { NGHTTP2_PROTOCOL_ERROR } } = http2;
const { HTTP2_SETTINGS, HTTP2_OPTIONS, STUCK_SESSION_SWEEP_MS, applyHttp1Limits } = require('../config/limits');
const { createHttp1Handler, answerClientError } = require('./node/http1');
const { createHttp2Handler } = require('./node/http2');
const { sweepStuckSessions } = require('./node/stuck-sessions');
const { guardHandshakes } = require('./handshake-guard');
const { refuseRenegotiation, isRenegotiation } = require('./tls-renegotiation');

// Closes an HTTP/2 session that has not sent its preface and first SETTINGS within
// headersTimeout, or that has had no stream open for http2IdleTimeout, and gives sessions
// with streams open idleTimeout without a byte moving (Node's session timer, whose expiry
// destroys the session). The idle timer is ours, counting streams, not bytes: Node's restarts
// on any byte, so a PING now and then would keep a session without requests. A session whose
// streams nghttp2 no longer serves is ended by stuck-sessions.js.
function guardSession(session, timeouts) {
  const preface = setTimeout(() => session.destroy(), timeouts.headersTimeout).unref();
  session.once('remoteSettings', () => clearTimeout(preface));
  let idleTimer = null;
  const armIdle = () => { idleTimer = setTimeout(() => session.destroy(), timeouts.http2IdleTimeout).unref(); };
  session.once('close', () => {
    clearTimeout(preface);
    clearTimeout(idleTimer);
  });
  let open = 0;
  session.setTimeout(timeouts.idleTimeout);
  armIdle();
  session.on('stream', (stream) => {
    if (open++ === 0) clearTimeout(idleTimer);
    stream.once('close', () => {
      if (--open === 0 && !session.destroyed) armIdle();
    });
  });
}

// How often shutdown closes HTTP/1.1 keep-alive sockets that became idle.
const IDLE_SWEEP_MS = 100;

// Returns { server (to listen on), close() (graceful: GOAWAY to every session, HTTP/1.1
// sockets closed as their last response ends), destroy() }.
function createNodeListener({ tls, timeouts, core, log, isClosing, metrics }) {
  const server = tls === null ? http.createServer() : http2.createSecureServer({
    cert: tls.cert,
    key: tls.key,
    allowHTTP1: true,
    settings: HTTP2_SETTINGS,
    ...HTTP2_OPTIONS,
    handshakeTimeout: timeouts.handshakeTimeout,
    // Node 24's HTTP/1 fallback answers a request without Host itself, with an empty 400; the
    // server's own check (host-header.js) answers it, as on HTTP/2 and Node 20.
    http1Options: { requireHostHeader: false },
  });
  // Adding a 'request' listener makes Node also route every HTTP/2 stream through the compat
  // layer; that hook is the server's only initial 'newListener' listener. HTTP/2 is served
  // from 'stream' directly, so 'request' must only ever see HTTP/1.1.
  for (const hook of server.listeners('newListener')) server.off('newListener', hook);
  applyHttp1Limits(server, timeouts);
  if (tls !== null) {
    guardHandshakes(server, { deadlineMs: timeouts.handshakeTimeout, log, metrics });
    server.on('secureConnection', refuseRenegotiation);
  }
  server.on('stream', createHttp2Handler(core, log, HTTP2_SETTINGS.maxHeaderListSize, timeouts.sendTimeout, metrics.h2));
  server.on('request', createHttp1Handler(core, log, isClosing, metrics.h1));
  server.on('clientError', answerClientError);

  // Each session with what sweepStuckSessions() keeps about it.
  const sessions = new Map();
  const sweepStuck = setInterval(() => sweepStuckSessions(sessions), STUCK_SESSION_SWEEP_MS).unref();
  server.once('close', () => clearInterval(sweepStuck));
  server.on('session', (session) => {
    sessions.set(session, {});
    session.once('close', () => sessions.delete(session));
    guardSession(session, timeouts);
    // RFC 9113 9.2.1: a TLS renegotiation is PROTOCOL_ERROR (Node's own handler, which runs
    // after this one, would say INTERNAL_ERROR).
    session.socket.prependListener('error', (err) => { if (isRenegotiation(err)) session.destroy(NGHTTP2_PROTOCOL_ERROR); });
    if (isClosing()) session.close();
  });
  server.on('sessionError', (err) => log.debug(`http2 session error: ${err.message}`));
  return {
    server,
    close() {
      for (const session of sessions.keys()) session.close();
      // A stuck session (stuck-sessions.js) would hold the shutdown until it is forced.
      const sweep = setInterval(() => {
        server.closeIdleConnections();
        sweepStuckSessions(sessions);
      }, IDLE_SWEEP_MS);
      server.once('close', () => clearInterval(sweep));
    },
    destroy() { for (const session of sessions.keys()) session.destroy(); },
  };
}

module.exports = { createNodeListener };
