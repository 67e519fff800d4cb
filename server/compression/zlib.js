'use strict';
// br, gzip and deflate through Node's zlib, whose async calls and streams run on
// the libuv thread pool. "deflate" is the zlib-wrapped format (RFC 9110 8.4.1.2),
// not raw DEFLATE.

const zlib = require('node:zlib');
const { promisify } = require('node:util');

const { BROTLI_PARAM_QUALITY, BROTLI_PARAM_LGWIN, BROTLI_PARAM_SIZE_HINT } = zlib.constants;

/**
 * Brotli parameters. lgwin is the standard window (at most 24); the non-standard
 * BROTLI_PARAM_LARGE_WINDOW is never set because browsers cannot decode it.
 */
function brotliOptions({ quality, lgwin }, sizeHint) {
  const params = { [BROTLI_PARAM_QUALITY]: quality, [BROTLI_PARAM_LGWIN]: lgwin };
  // The size hint lets the encoder shrink its window and tables for small inputs.
  if (sizeHint > 0) params[BROTLI_PARAM_SIZE_HINT] = sizeHint;
  return { params };
}

function zlibEngine({ compress, decompress, createStream, options }) {
  const compressAsync = promisify(compress);
  const decompressAsync = promisify(decompress);
  return {
    compress: (input, settings) => compressAsync(input, options(settings, input.length)),
    createCompressStream: (settings, sizeHint) => createStream(options(settings, sizeHint)),
    // zlib stops once its output passes maxOutputLength (RangeError ERR_BUFFER_TOO_LARGE).
    decompress: (input, maxOutputLength) => decompressAsync(input, maxOutputLength === undefined ? {} : { maxOutputLength }),
  };
}

/** @returns {import('./codings').CodingEngine} br engine; settings are `{ quality, lgwin }`. */
const createZlibBrotliEngine = () =>
  zlibEngine({
    compress: zlib.brotliCompress,
    decompress: zlib.brotliDecompress,
    createStream: zlib.createBrotliCompress,
    options: brotliOptions,
  });

const levelOptions = ({ level }) => ({ level });

/** @returns {import('./codings').CodingEngine} gzip engine; settings are `{ level }`. */
const createGzipEngine = () =>
  zlibEngine({ compress: zlib.gzip, decompress: zlib.gunzip, createStream: zlib.createGzip, options: levelOptions });

/** @returns {import('./codings').CodingEngine} deflate (zlib format) engine; settings are `{ level }`. */
const createDeflateEngine = () =>
  zlibEngine({ compress: zlib.deflate, decompress: zlib.inflate, createStream: zlib.createDeflate, options: levelOptions });

module.exports = { createZlibBrotliEngine, createGzipEngine, createDeflateEngine };
