'use strict';
// br through the deprecated iltorb addon, kept only so benchmarks can compare it with zlib's
// brotli: no dependency of the package (4.4 MB a server never needs), installed by hand where
// wanted (npm install --no-save iltorb). Loaded lazily: requiring this module never fails.

const { createZlibBrotliEngine } = require('./zlib');
const { ERR_ENGINE_UNAVAILABLE } = require('../errors');

function loadIltorb() {
  try {
    return require('iltorb');
  } catch (cause) {
    throw ERR_ENGINE_UNAVAILABLE({
      message: "brotli engine 'iltorb' is not available (iltorb is not installed: npm install iltorb, or use --brotli-engine zlib)",
      cause,
    });
  }
}

const iltorbParams = ({ quality, lgwin }, sizeHint) => ({ quality, lgwin, ...(sizeHint > 0 && { size_hint: sizeHint }) });

/**
 * @returns {import('./codings').CodingEngine} br engine backed by iltorb; settings are `{ quality, lgwin }`.
 * @throws {Error} code ERR_ENGINE_UNAVAILABLE when iltorb cannot be loaded.
 */
function createIltorbEngine() {
  const iltorb = loadIltorb();
  return {
    // iltorb.compress() always overrides size_hint with the input length.
    compress: (input, settings) => iltorb.compress(input, iltorbParams(settings)),
    createCompressStream: (settings, sizeHint) => iltorb.compressStream(iltorbParams(settings, sizeHint)),
    // Decoding is engine-independent: the output is standard brotli either way.
    decompress: createZlibBrotliEngine().decompress,
  };
}

module.exports = { createIltorbEngine };
