'use strict';
// Builds and starts one server process: HTTPS with HTTP/2 and HTTP/1.1 (ALPN) on one port,
// an optional plain-HTTP redirect port, and graceful shutdown.

const fs = require('node:fs/promises');
const http2 = require('node:http2');
const os = require('node:os');
const { normalizeOptions, mergeTimeouts } = require('./options');
const { ConfigError } = require('./errors');
const { Logger } = require('./logger');
const { loadCertificate } = require('./certs');
const { createEngines, VARIANT_EXTENSIONS } = require('./codings');
const { CompressCache } = require('./compress-cache');
const { FileStore } = require('./file-store');
const { Core } = require('./core');
const { ByteBudget } = require('./byte-budget');
const { negotiateEndpoint } = require('./negotiate-endpoint');
const { createHttp1Handler } = require('./http1');
const { createHttp2Handler } = require('./http2');
const { createRedirectServer } = require('./redirect-server');

const MiB = 1024 * 1024;

// HTTP/2 limits, chosen for a static file server (see README "HTTP/2 and timeouts").
const HTTP2_SETTINGS = {
  maxConcurrentStreams: 128,
  maxHeaderListSize: 32 * 1024,
};
const HTTP2_OPTIONS = {
  maxSessionMemory: 16,
  peerMaxConcurrentStreams: 100,
};
// Timeouts in ms: slow or idle clients lose their connection instead of holding it (see README
// "HTTP/2 and timeouts"). headersTimeout also bounds an HTTP/2 client's preface and first
// SETTINGS, as nginx's client_header_timeout does. Node's HTTP/2 session timer restarts on any
// byte, so a peer stalled inside a frame cannot be told from an idle one: a session with no
// open stream gets http2IdleTimeout (nginx: keepalive_timeout), one serving streams idleTimeout.
const TIMEOUTS = {
  handshakeTimeout: 10_000,
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  http2IdleTimeout: 30_000,
  idleTimeout: 120_000,
  // An HTTP/2 streamed body that makes no progress this long is reset (nginx: send_timeout).
  sendTimeout: 60_000,
  // How often Node sweeps HTTP/1.1 connections for headersTimeout/requestTimeout (default 30 s).
  connectionsCheckingInterval: 1_000,
};
// Enough for the 8 KiB request-target limit plus ordinary headers, so over-long paths get 414.
const MAX_HTTP1_HEADER_BYTES = 32 * 1024;
const SHUTDOWN_TIMEOUT_MS = 10_000;
const IDLE_SWEEP_MS = 100;

const DEFAULT_TUNING = {
  bufferLimit: 4 * MiB,
  minCompressBytes: 1024,
  fileCacheBytes: 64 * MiB,
  compressCacheBytes: 64 * MiB,
  maxConcurrentCompressions: os.availableParallelism(),
  // Response bytes held in memory on their way to clients (see server/byte-budget.js): 5120
  // stalled HTTP/2 streams (40 connections x 128) pin one 16 KiB first chunk each, 80 MiB.
  bufferedBytesLimit: 128 * MiB,
  // Compressed output spooled to temporary files for clients slower than the compressor.
  spoolDiskBytes: 1024 * MiB,
};

function loopbackName(host) {
  return ['127.0.0.1', '::1', '::', '0.0.0.0', 'localhost'].includes(host) ? 'localhost' : host;
}

// Closes an HTTP/2 session that has not sent its preface and first SETTINGS within
// headersTimeout, and switches its idle timeout between http2IdleTimeout (no open stream)
// and idleTimeout (streams in flight). Expiry runs Node's handler, which destroys the session.
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

// API options: everything the CLI takes (camelCase), plus `tls: { cert, key }` contents,
// `logger`, the DEFAULT_TUNING knobs above, and `timeouts` (a partial override of TIMEOUTS).
async function startServer(input = {}) {
  const options = normalizeOptions(input);
  const timeouts = mergeTimeouts(TIMEOUTS, input.timeouts);
  const tuning = { ...DEFAULT_TUNING };
  for (const key of Object.keys(DEFAULT_TUNING)) if (input[key] !== undefined) tuning[key] = input[key];
  const log = input.logger || new Logger({ level: options.logLevel });

  const rootReal = await fs.realpath(options.root).catch(() => null);
  if (rootReal === null || !(await fs.stat(rootReal)).isDirectory()) {
    throw new ConfigError(`--root: ${options.root} is not a directory`);
  }
  let engines;
  try {
    engines = createEngines({ brotliEngine: options.brotliEngine });
  } catch (err) {
    throw new ConfigError(`--brotli-engine: ${err.message}`);
  }
  const tls = input.tls || await loadCertificate(options, log);

  const cache = new CompressCache({ engines, maxBytes: tuning.compressCacheBytes, maxConcurrent: tuning.maxConcurrentCompressions });
  const dynamicReasons = {};
  for (const coding of options.encodings) {
    dynamicReasons[coding] = !options.dynamic ? 'no variant and dynamic compression is off (--no-dynamic)'
      : !engines.available.includes(coding) ? 'no variant and no engine for it in this runtime' : null;
  }
  const store = new FileStore({
    rootReal,
    encodings: options.encodings,
    variantCodings: options.encodings.filter((c) => VARIANT_EXTENSIONS[c]).map((c) => [c, VARIANT_EXTENSIONS[c]]),
    dynamicReasons,
    minCompressBytes: tuning.minCompressBytes,
    bufferLimit: tuning.bufferLimit,
    maxBytes: tuning.fileCacheBytes,
    revalidateMs: options.revalidateMs,
    cacheControl: options.cacheControl,
    log,
  });
  const core = new Core({
    store, cache, engines, log, maxConcurrentCompressions: tuning.maxConcurrentCompressions, negotiateEndpoint,
    budget: new ByteBudget(tuning.bufferedBytesLimit),
    spoolDisk: new ByteBudget(tuning.spoolDiskBytes),
  });

  let closing = null;
  const server = http2.createSecureServer({
    cert: tls.cert,
    key: tls.key,
    allowHTTP1: true,
    settings: HTTP2_SETTINGS,
    ...HTTP2_OPTIONS,
    handshakeTimeout: timeouts.handshakeTimeout,
  });
  // Adding a 'request' listener makes Node also route every HTTP/2 stream through the compat
  // layer; that hook is the server's only initial 'newListener' listener. HTTP/2 is served
  // from 'stream' directly, so 'request' must only ever see HTTP/1.1.
  for (const hook of server.listeners('newListener')) server.off('newListener', hook);
  server.headersTimeout = timeouts.headersTimeout;
  server.requestTimeout = timeouts.requestTimeout;
  server.keepAliveTimeout = timeouts.keepAliveTimeout;
  // Read when the server starts listening (allowHTTP1 servers run Node's HTTP/1.1 sweep).
  server.connectionsCheckingInterval = timeouts.connectionsCheckingInterval;
  server.maxHeaderSize = MAX_HTTP1_HEADER_BYTES;
  server.setTimeout(timeouts.idleTimeout);
  server.on('stream', createHttp2Handler(core, log, HTTP2_SETTINGS.maxHeaderListSize, timeouts.sendTimeout));
  server.on('request', createHttp1Handler(core, log, () => closing !== null));

  const sockets = new Set();
  const sessions = new Set();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
    guardSession(session, timeouts);
    if (closing !== null) session.close();
  });
  server.on('sessionError', (err) => log.debug(`http2 session error: ${err.message}`));

  await listen(server, options.port, options.host);
  const port = server.address().port;

  let redirectServer = null;
  if (options.httpPort !== undefined) {
    redirectServer = createRedirectServer({ httpsPort: port, fallbackHost: loopbackName(options.host) });
    Object.assign(redirectServer, {
      headersTimeout: timeouts.headersTimeout,
      requestTimeout: timeouts.requestTimeout,
      keepAliveTimeout: timeouts.keepAliveTimeout,
      connectionsCheckingInterval: timeouts.connectionsCheckingInterval,
    });
    try {
      await listen(redirectServer, options.httpPort, options.host);
    } catch (err) {
      server.close();
      throw err;
    }
  }

  const name = loopbackName(options.host);
  const url = `https://${name.includes(':') ? `[${name}]` : name}:${port}/`;

  // Stops accepting, lets in-flight responses finish (HTTP/2 sessions get GOAWAY), and forces
  // whatever is left after timeoutMs.
  function close({ timeoutMs = SHUTDOWN_TIMEOUT_MS } = {}) {
    if (closing !== null) return closing;
    closing = (async () => {
      const done = [new Promise((resolve) => server.close(resolve))];
      if (redirectServer !== null) {
        done.push(new Promise((resolve) => redirectServer.close(resolve)));
        redirectServer.closeIdleConnections();
      }
      for (const session of sessions) session.close();
      // Keep-alive HTTP/1.1 sockets become idle as their last response ends.
      const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
      const force = setTimeout(() => {
        log.warn(`shutdown: forcing ${sockets.size} connection(s) closed after ${timeoutMs} ms`);
        for (const session of sessions) session.destroy();
        for (const socket of sockets) socket.destroy();
        if (redirectServer !== null) redirectServer.closeAllConnections();
      }, timeoutMs);
      try {
        await Promise.all(done);
      } finally {
        clearInterval(sweep);
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
    certificate: tls.cert,
    close,
    get stats() { return core.stats; },
    log,
  };
}

function listen(server, port, host) {
  return new Promise((resolve, reject) => {
    const onError = (err) => {
      reject(err.code === 'EADDRINUSE' || err.code === 'EACCES' || err.code === 'EADDRNOTAVAIL'
        ? new ConfigError(`cannot listen on ${host}:${port}: ${err.code}`) : err);
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
