'use strict';
// Builds the response core (file store, compression cache, engines) from normalised options
// (server/config/options.js):
// shared by startServer and by handler() for use inside an existing Node app.

const cluster = require('node:cluster');
const fs = require('node:fs');
const { ConfigError } = require('../errors');
const { createEngines, warnUnavailable, VARIANT_EXTENSIONS } = require('../compression/codings');
const { createDictionaryEngines, deltaOrder } = require('../dictionaries/dictionary-codings');
const { DictionaryIndex } = require('../dictionaries/dictionary-index');
const { retiredDir } = require('../dictionaries/retired-dictionaries');
const { DeltaBudget } = require('../dictionaries/delta-budget');
const { DeltaStore } = require('../dictionaries/delta-store');
const { DeltaMaker } = require('../dictionaries/delta-maker');
const { CompressCache } = require('../compression/compress-cache');
const { CompressionBudget } = require('../compression/compression-budget');
const { DELTA_WORK } = require('../config/limits');
const { FileStore } = require('../files/file-store');
const { createFileInfoBuilder } = require('../decision/file-info');
const { rootCacheDir, realCacheDir } = require('../files/variant-cache');
const { Core } = require('../decision/core');
const { ByteBudget } = require('../files/byte-budget');
const { negotiateEndpoint } = require('../decision/negotiate-endpoint');
const { createAccessLog } = require('../log/access-log');
const { createSite } = require('.');
const { optionName } = require('../config/options');

// fn()'s result; its failure is the option `key`'s, named as the user wrote it.
function blame(options, key, fn) {
  try {
    return fn();
  } catch (err) {
    throw new ConfigError(`${optionName(options, key)}: ${err.message}`);
  }
}

// Synchronous so that handler() can report a bad root when it is called, not at the first request.
function createCore(options, log) {
  let rootReal;
  try {
    rootReal = fs.realpathSync(options.root);
    if (!fs.statSync(rootReal).isDirectory()) rootReal = null;
  } catch {
    rootReal = null;
  }
  if (rootReal === null) throw new ConfigError(`${optionName(options, 'root')}: ${options.root} is not a directory`);
  const engines = blame(options, 'brotliEngine', () => createEngines({ brotliEngine: options.brotliEngine, levels: { dynamic: options.dynamicLevels } }));
  // maxConcurrentCompressions (tests, tuning) replaces the slots of each pool.
  const n = options.maxConcurrentCompressions;
  const compressionBudget = new CompressionBudget(n === undefined ? undefined : { libuv: n, zstd: n });
  const cache = new CompressCache({ engines, budget: compressionBudget, maxBytes: options.compressCacheBytes });
  // A cluster's primary said it once (server/cli.js).
  if (!cluster.isWorker) warnUnavailable(engines, options.encodings, log);
  const dynamicReasons = {};
  for (const coding of options.encodings) {
    dynamicReasons[coding] = !options.dynamic ? 'no variant and dynamic compression is off (--no-dynamic)'
      : !engines.available.includes(coding) ? 'no variant and no engine for it in this runtime' : null;
  }
  const site = createSite(options);
  const cacheDir = rootCacheDir(realCacheDir(options.cacheDir), rootReal);
  // The index needs the store and hears from it: a file rewritten in place leaves its previous
  // content as a dictionary.
  let dictionaries = null;
  const store = new FileStore({
    rootReal,
    variantCodings: options.encodings.filter((c) => VARIANT_EXTENSIONS[c]).map((c) => [c, VARIANT_EXTENSIONS[c]]),
    buildInfo: createFileInfoBuilder({
      encodings: options.encodings,
      dynamicReasons,
      minCompressBytes: options.minCompressBytes,
      cacheControl: options.cacheControl,
      headerRules: site.headerRules,
      dictionaryRules: site.dictionaryRules,
    }),
    minCompressBytes: options.minCompressBytes,
    bufferLimit: options.bufferLimit,
    maxBytes: options.fileCacheBytes,
    revalidateMs: options.revalidateMs,
    trustMs: options.watchMaxAgeMs,
    log,
    decompress: engines.decompress,
    cacheDir,
    onReplaced: (previous, current) => dictionaries.retire(previous, current),
    variantsWatched: options.watch,
  });
  // Previous contents of rewritten files are kept in the cache folder only when a rule can
  // use them.
  dictionaries = new DictionaryIndex({ store, rules: site.dictionaryRules, hidden: site.hidden, log, retiredDir: site.dictionaryRules.length > 0 ? retiredDir(cacheDir) : null });
  const hasRules = site.dictionaryRules.length > 0;
  // Without rules there is nothing to make deltas against, and the addon is not loaded.
  const dictionaryEngines = hasRules ? createDictionaryEngines(engines, log) : null;
  // Deltas are compressed on the fly: --no-dynamic makes none.
  if (hasRules && !options.dynamic) log.warn('dictionaries: no dcb or dcz deltas with --no-dynamic (they are compressed on the fly); files are still marked with Use-As-Dictionary');
  const deltas = new DeltaMaker({
    cache, engines: dictionaryEngines, log, index: dictionaries, files: store,
    codings: hasRules && options.dynamic ? deltaOrder(options.encodings, dictionaryEngines.available) : [],
    store: new DeltaStore(cacheDir, options.cacheBytes),
    budget: new DeltaBudget(DELTA_WORK),
  });
  const core = new Core({
    store, encodings: options.encodings, cache, engines, log, compressionBudget,
    dictionaries, deltas,
    secure: options.https,
    negotiateEndpoint, negotiatePath: options.negotiateEndpoint,
    budget: new ByteBudget(options.bufferedBytesLimit),
    spoolDisk: new ByteBudget(options.spoolDiskBytes),
    logAccess: blame(options, 'logFormat', () => createAccessLog(log, options.logFormat)), site,
  });
  // In the background: a request meanwhile finds what is known so far. The deltas made ahead
  // of time are those of the files the scan found; deltasAhead resolves with their number
  // (tools/precompress waits for it).
  // Over plain HTTP no delta is ever asked for.
  core.deltasAhead = hasRules ? dictionaries.load().then(() => dictionaries.scan()).then(() => (options.https ? deltas.ahead() : 0)) : Promise.resolve(0);
  return core;
}

module.exports = { createCore };
