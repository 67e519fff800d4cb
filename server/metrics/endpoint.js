'use strict';
// The metrics listener (--metrics HOST:PORT), apart from the site's port: GET /metrics in the
// Prometheus text format, 404 for any other path, 405 for other methods. On a loopback address
// it is plain HTTP, open to this machine's processes; anywhere else it is HTTPS with the
// server's certificate and answers only requests carrying the bearer token read from
// --metrics-token-file (RFC 6750), and the server refuses to start without one.

const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const https = require('node:https');
const net = require('node:net');
const { ConfigError } = require('../errors');
const { optionName, switchName } = require('../config/options');
const { TIMEOUTS, applyHttp1Limits } = require('../config/limits');
const { CONTENT_TYPE } = require('./exposition');

const PATH = '/metrics';

function isLoopback(host) {
  return host === 'localhost' || host === '::1' || (net.isIPv4(host) && host.startsWith('127.'));
}

// The token from options.metricsTokenFile (null: none), read once at start.
function readToken(options) {
  if (options.metricsTokenFile === undefined) return null;
  const name = `${optionName(options, 'metricsTokenFile')} ${options.metricsTokenFile}`;
  let token;
  try {
    token = fs.readFileSync(options.metricsTokenFile, 'utf8').trim();
  } catch (err) {
    throw new ConfigError(`${name}: cannot be read (${err.code || err.message})`);
  }
  if (token === '') throw new ConfigError(`${name}: is empty`);
  if (/[^\x21-\x7e]/.test(token)) throw new ConfigError(`${name}: the token must be one line of printable ASCII without spaces`);
  return token;
}

/**
 * How the endpoint of options.metrics ({ host, port }) is served: { tls (credentials or null),
 * token (or null) }; throws a ConfigError naming the option when it would be open to other
 * machines without TLS or without a token.
 */
function endpointAccess(options, credentials) {
  const token = readToken(options);
  const { host, port } = options.metrics;
  if (isLoopback(host)) return { tls: null, token };
  const where = `${optionName(options, 'metrics')} ${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (credentials === null) throw new ConfigError(`${where}: not a loopback address, so it is served over HTTPS with the server's certificate, which ${switchName(options, 'https', false)} turns off`);
  if (token === null) throw new ConfigError(`${where}: not a loopback address, so scrapes need a bearer token: give ${optionName(options, 'metricsTokenFile')} FILE`);
  return { tls: credentials, token };
}

// Compares digests, so the time taken says nothing about how much of the token matched.
function sameToken(header, token) {
  const m = /^Bearer +(\S+) *$/i.exec(header ?? '');
  if (m === null) return false;
  const digest = (s) => crypto.createHash('sha256').update(s).digest();
  return crypto.timingSafeEqual(digest(m[1]), digest(token));
}

function reply(res, status, text, extra = {}) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), ...extra });
  res.end(text);
}

// render(): the exposition text of one scrape.
function handler(render, token) {
  return (req, res) => {
    if (token !== null && !sameToken(req.headers.authorization, token)) {
      reply(res, 401, 'a bearer token is needed\n', { 'www-authenticate': 'Bearer realm="metrics"' });
      return;
    }
    if (req.url.split('?')[0] !== PATH) {
      reply(res, 404, 'not found: the metrics are at /metrics\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      reply(res, 405, 'method not allowed\n', { 'allow': 'GET, HEAD' });
      return;
    }
    const body = Buffer.from(render());
    res.writeHead(200, { 'content-type': CONTENT_TYPE, 'content-length': body.length, 'cache-control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}

/** The endpoint's server (not listening yet). access: from endpointAccess(). */
function createMetricsServer(access, render) {
  const onRequest = handler(render, access.token);
  const server = access.tls === null ? http.createServer(onRequest) : https.createServer({ cert: access.tls.cert, key: access.tls.key }, onRequest);
  applyHttp1Limits(server, TIMEOUTS);
  return server;
}

/** Where a listening endpoint's server scrapes are answered. */
function metricsUrl(server, access, host) {
  return `${access.tls === null ? 'http' : 'https'}://${host.includes(':') ? `[${host}]` : host}:${server.address().port}${PATH}`;
}

module.exports = { createMetricsServer, metricsUrl, endpointAccess, isLoopback };
