'use strict';
// The transport addon (transport.node: a local build, else the prebuild, native/js/platform-addon.js;
// sources in native/transport/), on Node's own event loop with sockets and TLS in C (OpenSSL from
// the node binary):
// - floorListen: the C floor of issue #21, an HTTPS/1.1 server that answers each request head
//   with a prebuilt response, which measures what sockets and TLS cost below any HTTP engine;
// - transportListen: the connection transport under the engines (issue #26), which hands
//   plaintext to JavaScript and sends what it writes (server/engines/transport/ builds sockets
//   on it).
const { isIP } = require('node:net');
const { requirePlatformAddon } = require('./js/platform-addon');

const addon = requirePlatformAddon('transport');

const HANDSHAKE_TIMEOUT_MS = 10_000;
const MAX_RESPONSES = 64;

function invalid(message) {
  return Object.assign(new TypeError(message), { code: 'ERR_TRANSPORT_INVALID_ARGUMENT' });
}

const asBuffer = (value, name) => {
  if (typeof value === 'string') return Buffer.from(value, 'latin1');
  if (Buffer.isBuffer(value)) return value;
  throw invalid(`${name} must be a Buffer or a string`);
};

// responses: Map or object of request-target -> whole response (head and body) bytes; any other
// target gets notFound. handshakeTimeoutMs: a connection that has not finished its TLS handshake
// by then is closed. Returns { port, close() }; close() stops listening and closes every
// connection at once.
function floorListen({
  host = '127.0.0.1', port = 0, reusePort = false, cert, key, responses, notFound,
  handshakeTimeoutMs = HANDSHAKE_TIMEOUT_MS,
} = {}) {
  if (!isIP(host)) throw invalid(`host must be an IP address, got ${host}`);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw invalid(`port must be 0-65535, got ${port}`);
  if (!Number.isInteger(handshakeTimeoutMs) || handshakeTimeoutMs < 1 || handshakeTimeoutMs > 2 ** 31) {
    throw invalid(`handshakeTimeoutMs must be a positive integer, got ${handshakeTimeoutMs}`);
  }
  const entries = responses instanceof Map ? [...responses] : Object.entries(responses ?? {});
  if (entries.length > MAX_RESPONSES) throw invalid(`at most ${MAX_RESPONSES} responses`);
  const handle = addon.floorListen(host, port, Boolean(reusePort), handshakeTimeoutMs, asBuffer(cert, 'cert'),
    asBuffer(key, 'key'), entries.map(([target]) => Buffer.from(target, 'latin1')),
    entries.map(([target, bytes]) => asBuffer(bytes, `the response for ${target}`)), asBuffer(notFound, 'notFound'));
  return { port: addon.floorPort(handle), close: () => addon.floorClose(handle) };
}

// What onEvent(type, id, ...) reports, as native/transport/binding_conn.c numbers them:
// OPEN (alpn or false, address, port), DATA (Buffer), END, DRAIN, FINISH, TIMEOUT,
// CLOSE (hadError), FREED (the server and all its connections are gone; id 0),
// RENEGOTIATION (a TLS 1.2 client asked to renegotiate: refused, and the connection closes right
// after; what onEvent writes on it then goes out first), HANDSHAKES (id 0; the handshakes dropped
// since the last one, counts by reason in conn.h's order: deadline, over_cap, tls_error; the
// most unfinished at once since; how many now: at most one per turn of the loop, after drops and
// when the last unfinished one is done).
const EVENT = Object.freeze({ OPEN: 0, DATA: 1, END: 2, DRAIN: 3, FINISH: 4, TIMEOUT: 5, CLOSE: 6, FREED: 7, RENEGOTIATION: 8, HANDSHAKES: 9 });
const CONTROL = Object.freeze({ PAUSE: 0, RESUME: 1, END: 2, DESTROY: 3, IDLE: 4 });
const U32 = 2 ** 32 - 1;

const alpnWire = (protocols) => Buffer.concat(protocols.map((name) => {
  if (name.length < 1 || name.length > 255) throw invalid(`ALPN protocol ${name} must be 1-255 bytes`);
  return Buffer.concat([Buffer.from([name.length]), Buffer.from(name, 'latin1')]);
}));

function checkCount(value, name, min) {
  if (!Number.isInteger(value) || value < min || value > U32) throw invalid(`${name} must be an integer ${min}-${U32}, got ${value}`);
  return value;
}

// alpn: protocol names, most preferred first (the server's order wins). Timeouts in ms
// (idleTimeoutMs 0: none). highWater: pending output at which reads stop and a write asks for
// DRAIN; maxPending: pending output past which a connection is closed. onEvent(type, id, a, b,
// c) gets EVENT. Returns the calls on the server and its connections (ids from OPEN).
function transportListen({
  host = '127.0.0.1', port = 0, reusePort = false, cert, key, alpn, handshakeTimeoutMs = HANDSHAKE_TIMEOUT_MS,
  maxHandshakes, idleTimeoutMs, highWater, maxPending, onEvent,
}) {
  if (!isIP(host)) throw invalid(`host must be an IP address, got ${host}`);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw invalid(`port must be 0-65535, got ${port}`);
  if (typeof onEvent !== 'function') throw invalid('onEvent must be a function');
  const handle = addon.connListen(host, port, Boolean(reusePort), checkCount(handshakeTimeoutMs, 'handshakeTimeoutMs', 1),
    checkCount(maxHandshakes, 'maxHandshakes', 1), checkCount(idleTimeoutMs, 'idleTimeoutMs', 0),
    checkCount(highWater, 'highWater', 1), checkCount(maxPending, 'maxPending', highWater),
    asBuffer(cert, 'cert'), asBuffer(key, 'key'), alpnWire(alpn), onEvent);
  return {
    port: addon.connPort(handle),
    setContext: (newCert, newKey) => addon.connSetContext(handle, asBuffer(newCert, 'cert'), asBuffer(newKey, 'key'), alpnWire(alpn)),
    // Stops accepting; with all, closes every connection too. FREED follows the last close.
    stop: (all) => addon.connStop(handle, Boolean(all)),
    // Bytes left pending after writing one Buffer or an array of at most 64; -1: closed.
    write: (id, data) => addon.connWrite(handle, id, data),
    pending: (id) => addon.connPending(handle, id),
    control: (id, what, value = 0) => addon.connControl(handle, id, what, value),
  };
}

module.exports = { floorListen, transportListen, EVENT, CONTROL, HANDSHAKE_TIMEOUT_MS };
