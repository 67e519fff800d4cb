'use strict';
// Client-initiated TLS 1.2 renegotiation is refused on every connection of the native engines:
// each one costs the server a full handshake for one ClientHello (a DoS that testssl.sh and
// sslyze report), and RFC 9113 9.2.1 makes it a connection error PROTOCOL_ERROR on HTTP/2.
// Node's own limit (3 in 10 minutes, ERR_TLS_SESSION_ATTACK) only emits an 'error' and leaves
// the socket open. TLS 1.3 has no renegotiation; its KeyUpdate is not a handshake and passes.

const { CODES, ERR_TLS_RENEGOTIATION_DISABLED } = require('../errors');

// Node emits one of these on the socket at a renegotiation attempt (the first: disabled; the
// second only where renegotiation was allowed and passed Node's limit).
const RENEGOTIATION_ERRORS = new Set([CODES.ERR_TLS_RENEGOTIATION_DISABLED, CODES.ERR_TLS_SESSION_ATTACK]);

/** Called on each accepted TLS socket, before its first renegotiation can arrive. */
function refuseRenegotiation(socket) {
  if (typeof socket.disableRenegotiation === 'function') socket.disableRenegotiation();
}

/** The 'error' node:tls emits at a renegotiation on a socket that disabled it: the C transport's sockets emit it too. */
function renegotiationRefused() {
  return ERR_TLS_RENEGOTIATION_DISABLED();
}

/** Whether a socket 'error' is a client's renegotiation attempt (the connection must end). */
function isRenegotiation(err) {
  return RENEGOTIATION_ERRORS.has(err?.code);
}

module.exports = { refuseRenegotiation, renegotiationRefused, isRenegotiation };
