'use strict';
// Builds the response core (file store, compression cache, engines) from normalised options:
// shared by startServer and by handler() for use inside an existing Node app.

const fs = require('node:fs');
const os = require('node:os');
const { ConfigError } = require('../errors');
const { createEngines, VARIANT_EXTENSIONS } = require('../compression/codings');
const { CompressCache } = require('../compression/compress-cache');
const { MIN_COMPRESS_BYTES } = require('../compression/compressibility');
const { FileStore } = require('../files/file-store');
const { Core } = require('./core');
const { ByteBudget } = require('../files/byte-budget');
const { negotiateEndpoint } = require('./negotiate-endpoint');
const { createAccessLog } = require('../log/access-log');
const { createSite } = require('../site');
const { MODES: RESPONSE_HEADER_MODES } = require('../engines/h2/response-headers');

const MiB = 1024 * 1024;

const DEFAULT_TUNING = {
  bufferLimit: 4 * MiB,
  minCompressBytes: MIN_COMPRESS_BYTES,
  fileCacheBytes: 64 * MiB,
  // How long a file whose directories are watched is served from one check of the disk should
  // no change event come (see server/files/file-store.js).
  watchMaxAgeMs: 1000,
  compressCacheBytes: 64 * MiB,
  maxConcurrentCompressions: os.availableParallelism(),
  // Response bytes held in memory on their way to clients (see server/files/byte-budget.js): 5120
  // stalled HTTP/2 streams (40 connections x 128) pin one 16 KiB first chunk each, 80 MiB.
  bufferedBytesLimit: 128 * MiB,
  // Compressed output spooled to temporary files for clients slower than the compressor.
  spoolDiskBytes: 1024 * MiB,
  // How the native engine encodes response headers (see server/engines/h2/response-headers.js).
  responseHeaders: 'cached',
};

// DEFAULT_TUNING with the keys `input` sets.
function resolveTuning(input) {
  const tuning = { ...DEFAULT_TUNING };
  for (const key of Object.keys(DEFAULT_TUNING)) if (input[key] !== undefined) tuning[key] = input[key];
  if (!RESPONSE_HEADER_MODES.includes(tuning.responseHeaders)) {
    throw new ConfigError(`responseHeaders: expected one of ${RESPONSE_HEADER_MODES.join(', ')}`);
  }
  return tuning;
}

// Synchronous so that handler() can report a bad root when it is called, not at the first request.
function createCore(options, tuning, log) {
  let rootReal;
  try {
    rootReal = fs.realpathSync(options.root);
    if (!fs.statSync(rootReal).isDirectory()) rootReal = null;
  } catch {
    rootReal = null;
  }
  if (rootReal === null) throw new ConfigError(`--root: ${options.root} is not a directory`);
  let engines;
  try {
    engines = createEngines({ brotliEngine: options.brotliEngine, levels: { dynamic: options.dynamicLevels } });
  } catch (err) {
    throw new ConfigError(`--brotli-engine: ${err.message}`);
  }
  const cache = new CompressCache({ engines, maxBytes: tuning.compressCacheBytes, maxConcurrent: tuning.maxConcurrentCompressions });
  const dynamicReasons = {};
  for (const coding of options.encodings) {
    dynamicReasons[coding] = !options.dynamic ? 'no variant and dynamic compression is off (--no-dynamic)'
      : !engines.available.includes(coding) ? 'no variant and no engine for it in this runtime' : null;
  }
  const site = createSite(options);
  const store = new FileStore({
    rootReal,
    encodings: options.encodings,
    variantCodings: options.encodings.filter((c) => VARIANT_EXTENSIONS[c]).map((c) => [c, VARIANT_EXTENSIONS[c]]),
    dynamicReasons,
    minCompressBytes: tuning.minCompressBytes,
    bufferLimit: tuning.bufferLimit,
    maxBytes: tuning.fileCacheBytes,
    revalidateMs: options.revalidateMs,
    trustMs: tuning.watchMaxAgeMs,
    cacheControl: options.cacheControl,
    headerRules: site.headerRules,
    log,
    decompress: engines.decompress,
  });
  return new Core({
    store, cache, engines, log, maxConcurrentCompressions: tuning.maxConcurrentCompressions,
    negotiateEndpoint, negotiatePath: options.negotiateEndpoint,
    budget: new ByteBudget(tuning.bufferedBytesLimit),
    spoolDisk: new ByteBudget(tuning.spoolDiskBytes),
    logAccess: createAccessLog(log, options.logFormat), site,
  });
}

module.exports = { createCore, resolveTuning };
