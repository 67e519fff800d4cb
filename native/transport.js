'use strict';
// The transport addon (build/Release/transport.node, sources in native/transport/): for now the
// C floor of issue #21, an HTTPS/1.1 server on Node's own event loop that owns its sockets and
// TLS (OpenSSL from the node binary) and answers each request head with a prebuilt response.
// It measures what sockets and TLS cost below any HTTP engine; the engines do not run on it yet.
const path = require('node:path');
const { isIP } = require('node:net');

const addon = require(path.join(__dirname, '..', 'build', 'Release', 'transport.node'));

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

module.exports = { floorListen, HANDSHAKE_TIMEOUT_MS };
