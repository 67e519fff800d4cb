'use strict';
// Builds and starts one server process: HTTPS with HTTP/2 and HTTP/1.1 (ALPN) on one port,
// served by the engine chosen with --engine (listen-native.js or listen-node.js), an optional
// plain-HTTP redirect port, and graceful shutdown. With https: false (--no-tls) the same engines
// serve plain HTTP/1.1 instead.

const cluster = require('node:cluster');
const { normalizeOptions, optionName } = require('../config/options');
const { ConfigError } = require('../errors');
const { loggerFor } = require('../log/logger');
const { loadCertificate, certificateNames } = require('../tls/certs');
const { createCore } = require('../site/create-core');
const { createRedirectServer } = require('./redirect-server');
const { watchCertificates } = require('../tls/reload');
const { HTTP2_SETTINGS, HTTP2_OPTIONS, TIMEOUTS } = require('../config/limits');
const { engineFor } = require('./hpack-addon');
const { transportFor } = require('./transport');

// Each engine's modules are loaded only when it is chosen (node:http2 is memory the native engine never uses).
const LISTENERS = {
  node: (ctx) => require('./listen-node').createNodeListener(ctx),
  native: (ctx) => require('./listen-native').createNativeListener(ctx),
};

const SHUTDOWN_TIMEOUT_MS = 10_000;

function loopbackName(host) {
  return ['127.0.0.1', '::1', '::', '0.0.0.0', 'localhost'].includes(host) ? 'localhost' : host;
}

// API options: the keys of server/config/schema.js (the CLI's, camelCase, plus API-only ones
// such as `tls: { cert, key }` contents, `logger` and `timeouts`).
async function startServer(input = {}) {
  const options = normalizeOptions(input);
  const timeouts = options.timeouts;
  const log = loggerFor(options);
  const core = createCore(options, log);
  const tls = options.https ? options.tls || await loadCertificate(options, log) : null;

  let closing = null;
  // A cluster's workers fall back silently: the primary said it once (server/cli.js).
  const engine = engineFor(options.engine, cluster.isWorker ? null : log);
  // Only the native engine runs on the C transport, and only over TLS; a cluster's workers each
  // open the port with SO_REUSEPORT there, instead of sharing the primary's.
  const transport = engine === 'native' && tls !== null ? transportFor(options.transport, cluster.isWorker ? null : log) : 'node';
  const listener = LISTENERS[engine]({
    tls, transport, reusePort: cluster.isWorker, timeouts, core, log, isClosing: () => closing !== null, responseHeaders: options.responseHeaders,
  });
  const server = listener.server;
  const sockets = new Set();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  await listen(server, options, 'port');
  const port = server.address().port;

  let redirectServer = null;
  if (options.httpPort !== undefined) {
    const hostNames = [...certificateNames(tls.cert), ...(options.publicHost !== undefined ? [options.publicHost] : [])];
    redirectServer = createRedirectServer({ httpsPort: port, hostNames });
    Object.assign(redirectServer, {
      headersTimeout: timeouts.headersTimeout,
      requestTimeout: timeouts.requestTimeout,
      keepAliveTimeout: timeouts.keepAliveTimeout,
      connectionsCheckingInterval: timeouts.connectionsCheckingInterval,
    });
    try {
      await listen(redirectServer, options, 'httpPort');
    } catch (err) {
      server.close();
      throw err;
    }
  }

  const stopWatchingCertificates = tls !== null ? watchCertificates(server, options, log) : () => {};
  const name = loopbackName(options.host);
  const url = `${tls !== null ? 'https' : 'http'}://${name.includes(':') ? `[${name}]` : name}:${port}/`;

  // Stops accepting, lets in-flight responses finish (HTTP/2 connections get GOAWAY, HTTP/1.1
  // ones Connection: close), and forces whatever is left after timeoutMs.
  function close({ timeoutMs = SHUTDOWN_TIMEOUT_MS } = {}) {
    if (closing !== null) return closing;
    closing = (async () => {
      stopWatchingCertificates();
      const done = [core.close(), new Promise((resolve) => server.close(resolve))];
      if (redirectServer !== null) {
        done.push(new Promise((resolve) => redirectServer.close(resolve)));
        redirectServer.closeIdleConnections();
      }
      listener.close();
      const force = setTimeout(() => {
        log.warn(`shutdown: forcing ${sockets.size} connection(s) closed after ${timeoutMs} ms`);
        listener.destroy();
        for (const socket of sockets) socket.destroy();
        if (redirectServer !== null) redirectServer.closeAllConnections();
      }, timeoutMs);
      try {
        await Promise.all(done);
      } finally {
        clearTimeout(force);
      }
      await log.drain();
    })();
    return closing;
  }

  return {
    url,
    port,
    httpPort: redirectServer !== null ? redirectServer.address().port : null,
    httpUrl: redirectServer !== null ? `http://${name.includes(':') ? `[${name}]` : name}:${redirectServer.address().port}/` : null,
    certificate: tls !== null ? tls.cert : null,
    close,
    get stats() { return core.stats; },
    log,
  };
}

// Listen failures the user can fix, reported as one line naming the option to change.
const PORT_ERRORS = { EADDRINUSE: 'in use', EACCES: 'permission denied (ports below 1024 need privileges)' };
const HOST_ERRORS = {
  EADDRNOTAVAIL: 'not an address of this machine',
  ENOTFOUND: 'cannot be resolved',
  EAI_AGAIN: 'cannot be resolved',
  EAI_FAIL: 'cannot be resolved',
};

// portKey: the option holding the port, 'port' or 'httpPort'.
function listen(server, options, portKey) {
  const { host, [portKey]: port } = options;
  return new Promise((resolve, reject) => {
    const onError = (err) => {
      if (PORT_ERRORS[err.code]) reject(new ConfigError(`${optionName(options, portKey)}: ${host}:${port}: ${PORT_ERRORS[err.code]}`));
      else if (HOST_ERRORS[err.code]) reject(new ConfigError(`${optionName(options, 'host')}: ${host}: ${HOST_ERRORS[err.code]}`));
      else reject(err);
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

// The limits are exported for the tests that check the server enforces what it advertises.
module.exports = { startServer, HTTP2_SETTINGS, HTTP2_OPTIONS, TIMEOUTS };
