'use strict';
// The content codings this server can produce, their compression settings, and
// the engines that implement them. Every call is asynchronous: zlib and
// lzma-native run on the libuv thread pool, zstd on worker threads.

const { createZlibBrotliEngine, createGzipEngine, createDeflateEngine } = require('./codings-zlib');
const { createIltorbEngine } = require('./codings-iltorb');
const { createLzmaEngine } = require('./codings-lzma');
const { createZstdEngine } = require('./codings-zstd');

/** Server preference order, best first. */
const CODINGS = Object.freeze(['br', 'zstd', 'gzip', 'deflate', 'lzma']);

/** File-name suffix of each precompressed variant (deflate has none). `.lzma` is the "LZMA alone" format. */
const VARIANT_EXTENSIONS = Object.freeze({ br: '.br', zstd: '.zst', gzip: '.gz', lzma: '.lzma' });

/**
 * Settings per coding and level.
 * - dynamic: on-the-fly compression of responses; chosen for throughput at a ratio
 *   close to the next level up (measured on 2 MiB of JavaScript, one core:
 *   br q5 36 MB/s 24.0% vs q4 59 MB/s 25.9%; lzma preset 1 6.7 MB/s 27.3%, while
 *   preset 6 manages only 1.5 MB/s; gzip 6 42 MB/s 31.9%).
 * - max: precompression, done once per file: the strongest settings every client
 *   can decode. brotli keeps the standard 16 MiB window (lgwin 24); zstd 19 stays
 *   within the 8 MiB window RFC 9659 allows for the "zstd" content coding.
 */
const LEVELS = Object.freeze({
  br: { dynamic: { quality: 5, lgwin: 22 }, max: { quality: 11, lgwin: 24 } },
  zstd: { dynamic: { level: 3 }, max: { level: 19 } },
  gzip: { dynamic: { level: 6 }, max: { level: 9 } },
  deflate: { dynamic: { level: 6 }, max: { level: 9 } },
  lzma: { dynamic: { preset: 1 }, max: { preset: 9 } },
});

/**
 * What each per-coding module returns; `settings` is that coding's entry in LEVELS.
 * @typedef {object} CodingEngine
 * @property {(input: Buffer, settings: object) => Promise<Buffer>} compress
 * @property {(settings: object, sizeHint?: number) => import('node:stream').Transform} createCompressStream
 * @property {(input: Buffer) => Promise<Buffer>} decompress
 */

const BROTLI_ENGINES = { zlib: createZlibBrotliEngine, iltorb: createIltorbEngine };

function codedError(message, code, ErrorClass = Error) {
  return Object.assign(new ErrorClass(message), { code });
}

/** Engines for zstd and lzma come from addons; a runtime without one simply cannot produce that coding. */
function optionalEngine(create) {
  try {
    return create();
  } catch {
    return null;
  }
}

/**
 * Creates the compression engines.
 * @param {object} [options]
 * @param {'zlib'|'iltorb'} [options.brotliEngine='zlib'] implementation of br; iltorb exists for benchmarks.
 * @returns {Engines}
 * @throws {Error} code ERR_ENGINE_UNAVAILABLE when 'iltorb' is asked for but cannot be loaded,
 *   code ERR_INVALID_ARG_VALUE for an unknown brotliEngine.
 */
function createEngines({ brotliEngine = 'zlib' } = {}) {
  const createBrotli = BROTLI_ENGINES[brotliEngine];
  if (!createBrotli) throw codedError(`unknown brotli engine '${brotliEngine}' (expected zlib or iltorb)`, 'ERR_INVALID_ARG_VALUE', TypeError);
  const byCoding = {
    br: createBrotli(),
    zstd: optionalEngine(createZstdEngine),
    gzip: createGzipEngine(),
    deflate: createDeflateEngine(),
    lzma: optionalEngine(createLzmaEngine),
  };

  function engineFor(coding) {
    if (!Object.hasOwn(byCoding, coding)) throw codedError(`unknown content coding '${coding}'`, 'ERR_UNKNOWN_CODING', TypeError);
    if (!byCoding[coding]) throw codedError(`content coding '${coding}' is not available in this runtime`, 'ERR_ENGINE_UNAVAILABLE');
    return byCoding[coding];
  }

  function settingsFor(coding, level = 'dynamic') {
    if (!Object.hasOwn(LEVELS[coding], level)) {
      throw codedError(`unknown compression level '${level}' (expected dynamic or max)`, 'ERR_INVALID_ARG_VALUE', TypeError);
    }
    return LEVELS[coding][level];
  }

  /**
   * @typedef {object} Engines
   * @property {string[]} available codings this runtime can produce, in CODINGS order.
   * @property {'zlib'|'iltorb'} brotliEngine
   * @property {(coding: string, input: Buffer, options?: { level?: 'dynamic'|'max' }) => Promise<Buffer>} compress
   * @property {(coding: string, options?: { level?: 'dynamic'|'max', sizeHint?: number }) => import('node:stream').Transform} createCompressStream
   *   sizeHint (optional, bytes) lets br and lzma size their windows; destroying the stream releases its native state.
   * @property {(coding: string, input: Buffer) => Promise<Buffer>} decompress
   */
  return {
    available: CODINGS.filter((coding) => byCoding[coding]),
    brotliEngine,
    async compress(coding, input, { level } = {}) {
      return engineFor(coding).compress(input, settingsFor(coding, level));
    },
    createCompressStream(coding, { level, sizeHint } = {}) {
      return engineFor(coding).createCompressStream(settingsFor(coding, level), sizeHint);
    },
    async decompress(coding, input) {
      return engineFor(coding).decompress(input);
    },
  };
}

module.exports = { CODINGS, VARIANT_EXTENSIONS, LEVELS, createEngines };
