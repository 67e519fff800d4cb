'use strict';
// A TLS server whose HTTP/1.1 is the native engine (server/h1) in front of a real Core over a
// temporary root: what startServer builds, reduced to that one listener.

const fs = require('node:fs/promises');
const path = require('node:path');
const tls = require('node:tls');
const { createEngines, CODINGS, VARIANT_EXTENSIONS } = require('../../server/codings');
const { CompressCache } = require('../../server/compress-cache');
const { FileStore } = require('../../server/file-store');
const { Core } = require('../../server/core');
const { negotiateEndpoint } = require('../../server/negotiate-endpoint');
const { Logger } = require('../../server/logger');
const { TIMEOUTS } = require('../../server/start-server');
const { serveHttp1 } = require('../../server/h1');
const { writeFiles, makeTempDir, testCertificate } = require('./server');
const { createClients } = require('./clients');

const MiB = 1024 * 1024;

// options: files for a fresh temporary root, timeouts (partial TIMEOUTS), logger, bufferLimit
// (files above it are streamed), core (a stand-in for the real Core).
async function startNativeH1({ files = {}, timeouts = {}, logger, bufferLimit = 4 * MiB, core: coreOverride } = {}) {
  const tmp = await makeTempDir();
  const root = path.join(tmp, 'root');
  await fs.mkdir(root);
  await writeFiles(root, files);
  const cert = await testCertificate();
  const log = logger || new Logger({ level: 'silent' });
  const engines = createEngines();
  const cache = new CompressCache({ engines, maxBytes: 64 * MiB, maxConcurrent: 2 });
  const store = new FileStore({
    rootReal: await fs.realpath(root),
    encodings: CODINGS,
    variantCodings: CODINGS.filter((c) => VARIANT_EXTENSIONS[c]).map((c) => [c, VARIANT_EXTENSIONS[c]]),
    dynamicReasons: Object.fromEntries(CODINGS.map((c) => [c, null])),
    minCompressBytes: 1024,
    bufferLimit,
    maxBytes: 64 * MiB,
    revalidateMs: 0,
    cacheControl: 'public, max-age=0',
    log,
  });
  const core = coreOverride || new Core({ store, cache, engines, log, maxConcurrentCompressions: 2, negotiateEndpoint });
  let closing = false;
  const handles = new Set();
  const ctx = { core, log, timeouts: { ...TIMEOUTS, ...timeouts }, isClosing: () => closing };
  const server = tls.createServer({ cert: cert.cert, key: cert.key, ALPNProtocols: ['http/1.1'] }, (socket) => {
    const handle = serveHttp1(socket, ctx);
    handles.add(handle);
    handle.once('close', () => handles.delete(handle));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  const clients = createClients({ port, ca: cert.cert });
  return {
    ...clients,
    port,
    root,
    core,
    ca: cert.cert,
    handles,
    // Graceful like startServer's close(): in-flight responses finish, then everything closes.
    async close() {
      closing = true;
      const closed = new Promise((resolve) => server.close(resolve));
      for (const handle of handles) handle.close();
      await clients.closeAll();
      await closed;
      await fs.rm(tmp, { recursive: true, force: true });
    },
  };
}

module.exports = { startNativeH1 };
