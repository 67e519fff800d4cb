'use strict';
// The content codings this server can produce, their compression settings, and
// the engines that implement them. Every call is asynchronous: zlib and
// lzma-native run on the libuv thread pool, zstd there too or on worker threads (zstd.js).

const { constants: { MAX_LENGTH } } = require('node:buffer');
const { createZlibBrotliEngine, createGzipEngine, createDeflateEngine } = require('./zlib');
const { createIltorbEngine } = require('./iltorb');
const { createLzmaEngine } = require('./lzma');
const { createZstdEngine, ZSTD_FIX } = require('./zstd');
const { ERR_ENGINE_UNAVAILABLE, ERR_INVALID_ARG_VALUE, ERR_OUT_OF_RANGE, ERR_UNKNOWN_CODING, loadFailure } = require('../errors');

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
 * The levels each coding can be set to (--dynamic-levels, --precompress-levels, `codings`), and
 * the setting in LEVELS that a level number sets. zstd stops at 19: higher levels need windows
 * beyond the 8 MiB RFC 9659 allows. gzip and deflate start at 1: level 0 stores.
 */
const LEVEL_RANGES = Object.freeze({
  br: { key: 'quality', min: 0, max: 11 },
  zstd: { key: 'level', min: 1, max: 19 },
  gzip: { key: 'level', min: 1, max: 9 },
  deflate: { key: 'level', min: 1, max: 9 },
  lzma: { key: 'preset', min: 0, max: 9 },
});

/** The level number of `coding` in LEVELS[coding][kind] (kind: 'dynamic' or 'max'). */
const defaultLevel = (coding, kind) => LEVELS[coding][kind][LEVEL_RANGES[coding].key];

/**
 * Parses "br=5,zstd=3" into { br: 5, zstd: 3 }; throws with what is wrong. `codings` limits
 * which codings may be named.
 */
function parseLevels(value, codings = CODINGS) {
  const out = {};
  for (const item of String(value).split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([a-z]+)=(\d+)$/.exec(item);
    if (!m) throw new Error(`expected coding=level items separated by commas, got "${item}"`);
    const [, coding, digits] = m;
    if (!codings.includes(coding)) throw new Error(`"${coding}" is not one of ${codings.join(', ')}`);
    const { min, max } = LEVEL_RANGES[coding];
    const level = Number(digits);
    if (level < min || level > max) throw new Error(`${coding} levels go from ${min} to ${max}, got ${level}`);
    if (Object.hasOwn(out, coding)) throw new Error(`names ${coding} twice`);
    out[coding] = level;
  }
  if (Object.keys(out).length === 0) throw new Error(`expected coding=level items, got "${value}"`);
  return out;
}

/**
 * What each per-coding module returns; `settings` is that coding's entry in LEVELS.
 *
 * decompress(input, maxOutputLength) resolves the decoded bytes when they number at most
 * maxOutputLength (an integer >= 1; undefined: no cap). Input that decodes to more rejects with
 * a RangeError whose code is ERR_BUFFER_TOO_LARGE (outputTooLarge in errors.js, as Node's zlib
 * does), and the decoder stops as soon as it has passed the cap: it works in bounded chunks, so
 * no more than the cap plus about one chunk (1 MiB at most) is ever held, and its state is
 * freed. That is what bounds the memory a decompression bomb can take.
 * @typedef {object} CodingEngine
 * @property {(input: Buffer, settings: object) => Promise<Buffer>} compress
 * @property {(settings: object, sizeHint?: number) => import('node:stream').Transform} createCompressStream
 * @property {(input: Buffer, maxOutputLength?: number) => Promise<Buffer>} decompress
 */

const BROTLI_ENGINES = { zlib: createZlibBrotliEngine, iltorb: createIltorbEngine };

// The codings whose engine a runtime may lack: why (from the engine's error) and the fix.
// zstd's engine says itself which of its backends are missing (zstd.js).
const OPTIONAL_ENGINES = {
  zstd: { create: createZstdEngine, why: loadFailure, fix: ZSTD_FIX },
  lzma: { create: createLzmaEngine, why: (err) => `its addon cannot be loaded (${loadFailure(err)})`, fix: 'run: npm rebuild lzma-native' },
};

/** The engine of `coding` (a key of OPTIONAL_ENGINES), or null with why and the fix in `unavailable`. */
function optionalEngine(coding, unavailable) {
  const { create, why, fix } = OPTIONAL_ENGINES[coding];
  try {
    return create();
  } catch (err) {
    unavailable[coding] = { reason: why(err), fix };
    return null;
  }
}

/** Says on `log`, one line each, which of `encodings` `engines` cannot produce and how to fix it. */
function warnUnavailable(engines, encodings, log) {
  for (const coding of encodings) {
    const missing = engines.unavailable[coding];
    if (missing !== undefined) log.warn(`${coding} is not offered: ${missing.reason}; to fix it ${missing.fix}`);
  }
}

/**
 * Creates the compression engines.
 * @param {object} [options]
 * @param {'zlib'|'iltorb'} [options.brotliEngine='zlib'] implementation of br; iltorb exists for benchmarks.
 * @param {{ dynamic?: Record<string, number>, max?: Record<string, number> }} [options.levels] level numbers
 *   (see LEVEL_RANGES, parseLevels) replacing LEVELS' defaults per coding.
 * @returns {Engines}
 * @throws {Error} code ERR_ENGINE_UNAVAILABLE when 'iltorb' is asked for but cannot be loaded,
 *   code ERR_INVALID_ARG_VALUE for an unknown brotliEngine.
 */
function createEngines({ brotliEngine = 'zlib', levels = {} } = {}) {
  const createBrotli = BROTLI_ENGINES[brotliEngine];
  if (!createBrotli) throw ERR_INVALID_ARG_VALUE(`unknown brotli engine '${brotliEngine}' (expected zlib or iltorb)`);
  const unavailable = {};
  const byCoding = {
    br: createBrotli(),
    zstd: optionalEngine('zstd', unavailable),
    gzip: createGzipEngine(),
    deflate: createDeflateEngine(),
    lzma: optionalEngine('lzma', unavailable),
  };

  function engineFor(coding) {
    if (!Object.hasOwn(byCoding, coding)) throw ERR_UNKNOWN_CODING({ coding });
    if (!byCoding[coding]) throw ERR_ENGINE_UNAVAILABLE(`content coding '${coding}' is not available in this runtime`);
    return byCoding[coding];
  }

  // level: 'dynamic', 'max', or a level number (kept with the dynamic settings' other parameters).
  function settingsFor(coding, level = 'dynamic') {
    const range = LEVEL_RANGES[coding];
    if (Number.isInteger(level) && level >= range.min && level <= range.max) return { ...LEVELS[coding].dynamic, [range.key]: level };
    if (!Object.hasOwn(LEVELS[coding], level)) {
      throw ERR_INVALID_ARG_VALUE(`unknown compression level '${level}' (expected dynamic, max or ${range.min}-${range.max})`);
    }
    const chosen = levels[level]?.[coding];
    return chosen === undefined ? LEVELS[coding][level] : { ...LEVELS[coding][level], [range.key]: chosen };
  }

  /**
   * @typedef {object} Engines
   * @property {string[]} available codings this runtime can produce, in CODINGS order.
   * @property {Record<string, { reason: string, fix: string }>} unavailable the others: why
   *   (one line) and what the user can do about it.
   * @property {'zlib'|'iltorb'} brotliEngine
   * @property {(coding: string, input: Buffer, options?: { level?: 'dynamic'|'max'|number }) => Promise<Buffer>} compress
   * @property {(coding: string, options?: { level?: 'dynamic'|'max', sizeHint?: number }) => import('node:stream').Transform} createCompressStream
   *   sizeHint (optional, bytes) lets br and lzma size their windows; destroying the stream releases its native state.
   * @property {(coding: string, input: Buffer, options?: { maxOutputLength?: number }) => Promise<Buffer>} decompress
   *   maxOutputLength caps the decoded size as CodingEngine describes.
   */
  return {
    available: CODINGS.filter((coding) => byCoding[coding]),
    unavailable,
    brotliEngine,
    async compress(coding, input, { level } = {}) {
      return engineFor(coding).compress(input, settingsFor(coding, level));
    },
    createCompressStream(coding, { level, sizeHint } = {}) {
      return engineFor(coding).createCompressStream(settingsFor(coding, level), sizeHint);
    },
    /** The settings `level` of `coding` stands for (LEVELS, with --dynamic-levels and friends applied). */
    settingsFor,
    /**
     * zstd only: a frame made with `dictionary` as raw content (the dcz coding's,
     * dictionaries/dictionary-codings.js), with `settings` (default: the on-the-fly ones).
     */
    async compressWithDictionary(coding, input, dictionary, settings = settingsFor(coding, 'dynamic')) {
      return engineFor(coding).compressWithDictionary(input, dictionary, settings);
    },
    async decompressWithDictionary(coding, input, dictionary, { maxOutputLength } = {}) {
      return engineFor(coding).decompressWithDictionary(input, dictionary, maxOutputLength);
    },
    async decompress(coding, input, { maxOutputLength } = {}) {
      if (maxOutputLength !== undefined && !(Number.isInteger(maxOutputLength) && maxOutputLength >= 1 && maxOutputLength <= MAX_LENGTH)) {
        throw ERR_OUT_OF_RANGE(`maxOutputLength must be an integer from 1 to ${MAX_LENGTH}, got ${maxOutputLength}`);
      }
      return engineFor(coding).decompress(input, maxOutputLength);
    },
  };
}

module.exports = { CODINGS, VARIANT_EXTENSIONS, LEVELS, LEVEL_RANGES, defaultLevel, parseLevels, createEngines, warnUnavailable };
