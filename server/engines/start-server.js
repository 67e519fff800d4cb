'use strict';
// Builds and starts one server process: HTTPS with HTTP/2 and HTTP/1.1 (ALPN) on one port, HTTP/3
// on the same port number over UDP when the QUIC transport runs here (listen-h3.js),
// served by the engine chosen with --engine (listen-native.js or listen-node.js), an optional
// plain-HTTP redirect port, and graceful shutdown. With https: false (--no-tls) the same engines
// serve plain HTTP/1.1 instead.

const cluster = require('node:cluster');
const { normalizeOptions, optionName } = require('../config/options');
const { ConfigError } = require('../errors');
const { loggerFor } = require('../log/logger');
const { loadCertificate, certificateNames } = require('../tls/certs');
const { isWildcardHost, reachableAddresses, urlHost } = require('../tls/local-names');
const { createCore } = require('../site/create-core');
const { createRedirectServer } = require('./redirect-server');
const { watchCertificates } = require('../tls/reload');
const { HTTP2_SETTINGS, HTTP2_OPTIONS, TIMEOUTS } = require('../config/limits');
const { engineFor } = require('./hpack-addon');
const { Recorder, NO_METRICS } = require('../metrics/recorder');
const { createMetricsServer, metricsUrl, endpointAccess } = require('../metrics/endpoint');
const { transportFor } = require('./transport');
const { listenHttp3 } = require('./listen-h3');

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
  let tls = null;
  let listener = null;
  let redirectServer = null;
  let metricsServer = null;
  let http3 = null;
  let metricsAccess = null;
  let metrics = NO_METRICS;
  let stopWatchingCertificates = () => {};
  let closing = null;
  const sockets = new Set();
  try {
    tls = options.https ? options.tls || await loadCertificate(options, log) : null;
    // --metrics: counted only when asked for; refused before listening when it would be open.
    metricsAccess = options.metrics === undefined ? null : endpointAccess(options, tls);
    if (metricsAccess !== null) metrics = new Recorder(() => core.stats);
    // A cluster's workers fall back silently: the primary said it once (server/cli.js).
    const engine = engineFor(options.engine, cluster.isWorker ? null : log);
    // Only the native engine runs on the C transport, and only over TLS; a cluster's workers each
    // open the port with SO_REUSEPORT there, instead of sharing the primary's.
    const transport = engine === 'native' && tls !== null ? transportFor(options.transport, cluster.isWorker ? null : log) : 'node';
    listener = LISTENERS[engine]({
      tls, transport, reusePort: cluster.isWorker, timeouts, core, log, isClosing: () => closing !== null, metrics,
    });
    listener.server.on('connection', (socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    if (metrics !== NO_METRICS) listener.server.on(tls === null ? 'connection' : 'secureConnection', (socket) => metrics.connectionOpened(socket));
    await listen(listener.server, options.host, options.port, optionName(options, 'port'), optionName(options, 'host'));
    // A cluster's workers would each need the UDP port, which the QUIC listener cannot share.
    if (tls !== null && options.http3 && !cluster.isWorker) {
      http3 = listenHttp3({ tls, host: options.host, port: listener.server.address().port, timeouts, core, log, isClosing: () => closing !== null, metrics });
      if (http3 !== null) core.advertise(`h3=":${http3.port}"; ma=86400`);
    }
    if (options.httpPort !== undefined) {
      const hostNames = [...certificateNames(tls.cert), ...(options.publicHost !== undefined ? [options.publicHost] : [])];
      redirectServer = createRedirectServer({ httpsPort: listener.server.address().port, hostNames });
      Object.assign(redirectServer, {
        headersTimeout: timeouts.headersTimeout,
        requestTimeout: timeouts.requestTimeout,
        keepAliveTimeout: timeouts.keepAliveTimeout,
        connectionsCheckingInterval: timeouts.connectionsCheckingInterval,
      });
      await listen(redirectServer, options.host, options.httpPort, optionName(options, 'httpPort'), optionName(options, 'host'));
    }
    if (metricsAccess !== null) {
      metricsServer = createMetricsServer(metricsAccess, () => metrics.render());
      const { host: metricsHost, port: metricsPort } = options.metrics;
      await listen(metricsServer, metricsHost, metricsPort, optionName(options, 'metrics'), optionName(options, 'metrics'));
    }
    const secureServers = [listener.server, ...(metricsAccess?.tls ? [metricsServer] : []), ...(http3 !== null ? [http3.secure] : [])];
    if (tls !== null) stopWatchingCertificates = watchCertificates(secureServers, options, log);
  } catch (err) {
    // A start that fails part way stops what it started: the core (its watches, and the deltas
    // it would go on writing into the cache folder) and whatever port it bound already.
    await Promise.all([core.close(), closeListening(listener?.server), closeListening(redirectServer), closeListening(metricsServer), http3?.destroy()]);
    await log.drain();
    throw err;
  }
  const server = listener.server;
  const port = server.address().port;
  const name = loopbackName(options.host);
  const scheme = tls !== null ? 'https' : 'http';
  const url = `${scheme}://${urlHost(name)}:${port}/`;
  // Listening on every interface: the addresses other devices reach it at (the local
  // certificate covers them, server/tls/local-names.js).
  const lanUrls = isWildcardHost(options.host) ? reachableAddresses(options.host).map((address) => `${scheme}://${urlHost(address)}:${port}/`) : [];

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
      if (metricsServer !== null) {
        done.push(new Promise((resolve) => metricsServer.close(resolve)));
        metricsServer.closeAllConnections();
      }
      listener.close();
      if (http3 !== null) done.push(http3.close());
      const force = setTimeout(() => {
        log.warn(`shutdown: forcing ${sockets.size} connection(s) closed after ${timeoutMs} ms`);
        listener.destroy();
        http3?.destroy();
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
    http3Port: http3 !== null ? http3.port : null,
    httpPort: redirectServer !== null ? redirectServer.address().port : null,
    httpUrl: redirectServer !== null ? `http://${urlHost(name)}:${redirectServer.address().port}/` : null,
    lanUrls,
    certificate: tls !== null ? tls.cert : null,
    metricsUrl: metricsServer !== null ? metricsUrl(metricsServer, metricsAccess, options.metrics.host) : null,
    close,
    get stats() { return core.stats; },
    log,
  };
}

// Resolves once `server` (a net.Server, or nothing) no longer listens.
function closeListening(server) {
  return server?.listening ? new Promise((resolve) => server.close(resolve)) : Promise.resolve();
}

// Listen failures the user can fix, reported as one line naming the option to change.
const PORT_ERRORS = { EADDRINUSE: 'in use', EACCES: 'permission denied (ports below 1024 need privileges)' };
const HOST_ERRORS = {
  EADDRNOTAVAIL: 'not an address of this machine',
  ENOTFOUND: 'cannot be resolved',
  EAI_AGAIN: 'cannot be resolved',
  EAI_FAIL: 'cannot be resolved',
};

// portName, hostName: the options as the user wrote them (--port, --host), for the errors.
function listen(server, host, port, portName, hostName) {
  return new Promise((resolve, reject) => {
    const onError = (err) => {
      if (PORT_ERRORS[err.code]) reject(new ConfigError(`${portName}: ${host}:${port}: ${PORT_ERRORS[err.code]}`));
      else if (HOST_ERRORS[err.code]) reject(new ConfigError(`${hostName}: ${host}: ${HOST_ERRORS[err.code]}`));
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
