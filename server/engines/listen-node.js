'use strict';
// The `node` engine: node:http2's secure server, HTTP/1.1 through its allowHTTP1 fallback; with
// tls null (--no-tls) node:http's plain HTTP/1.1 server.

const http = require('node:http');
const http2 = require('node:http2');
const { HTTP2_SETTINGS, HTTP2_OPTIONS, applyHttp1Limits } = require('../config/limits');
const { createHttp1Handler } = require('./node/http1');
const { createHttp2Handler } = require('./node/http2');
const { guardHandshakes } = require('./handshake-guard');

// Closes an HTTP/2 session that has not sent its preface and first SETTINGS within
// headersTimeout, and switches its idle timeout between http2IdleTimeout (no open stream)
// and idleTimeout (streams in flight). Expiry runs Node's handler, which destroys the session.
// Node's session timer restarts on any byte.
function guardSession(session, timeouts) {
  const preface = setTimeout(() => session.destroy(), timeouts.headersTimeout).unref();
  session.once('remoteSettings', () => clearTimeout(preface));
  session.once('close', () => clearTimeout(preface));
  let open = 0;
  session.setTimeout(timeouts.http2IdleTimeout);
  session.on('stream', (stream) => {
    if (open++ === 0) session.setTimeout(timeouts.idleTimeout);
    stream.once('close', () => {
      if (--open === 0 && !session.destroyed) session.setTimeout(timeouts.http2IdleTimeout);
    });
  });
}

// How often shutdown closes HTTP/1.1 keep-alive sockets that became idle.
const IDLE_SWEEP_MS = 100;

// Returns { server (to listen on), close() (graceful: GOAWAY to every session, HTTP/1.1
// sockets closed as their last response ends), destroy() }.
function createNodeListener({ tls, timeouts, core, log, isClosing }) {
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
  if (tls !== null) guardHandshakes(server, { deadlineMs: timeouts.handshakeTimeout, log });
  server.on('stream', createHttp2Handler(core, log, HTTP2_SETTINGS.maxHeaderListSize, timeouts.sendTimeout));
  server.on('request', createHttp1Handler(core, log, isClosing));

  const sessions = new Set();
  server.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
    guardSession(session, timeouts);
    if (isClosing()) session.close();
  });
  server.on('sessionError', (err) => log.debug(`http2 session error: ${err.message}`));
  return {
    server,
    close() {
      for (const session of sessions) session.close();
      const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
      server.once('close', () => clearInterval(sweep));
    },
    destroy() { for (const session of sessions) session.destroy(); },
  };
}

module.exports = { createNodeListener };
