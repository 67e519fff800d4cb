'use strict';
// The zstd engine, and the one place that decides which backend makes it:
// - 'zlib': node:zlib's zstd (zstd-zlib.js), wherever it does all the engine needs (Node 24);
// - 'zstd-napi': the optional zstd-napi addon on worker threads (zstd-napi.js), elsewhere.
// Both run libzstd with the same parameters (zstd-params.js). The server, the background pass,
// `precompress` and `codings` all get their engine from createEngines (codings.js), hence here.

const { createZlibZstdEngine, zlibZstdProblem } = require('./zstd-zlib');
const { createNapiZstdEngine, ZSTD_POOL_SIZE } = require('./zstd-napi');
const { ERR_INVALID_ARG_VALUE, loadFailure } = require('../errors');

const ZSTD_BACKENDS = Object.freeze(['zlib', 'zstd-napi']);
// What a user without either backend does about it (npm, pnpm and yarn alike): zstd-napi's
// install script fetches or builds its addon, which --ignore-scripts and pnpm skip.
const ZSTD_FIX = 'use Node.js 24 (node:zlib has zstd), or install zstd-napi with its install script allowed';

/** The backend this process uses: node:zlib's where it can serve, else zstd-napi. */
function zstdBackend() {
  return zlibZstdProblem() === null ? 'zlib' : 'zstd-napi';
}

/**
 * @param {'zlib'|'zstd-napi'} [backend] default zstdBackend(); tests name one to compare both.
 * @returns {import('./codings').CodingEngine}
 * @throws when that backend cannot run here; without a backend named, the message says why
 *   neither can.
 */
function createZstdEngine(backend) {
  if (backend === 'zlib') return createZlibZstdEngine();
  if (backend === 'zstd-napi') return createNapiZstdEngine();
  if (backend !== undefined) throw ERR_INVALID_ARG_VALUE(`unknown zstd backend '${backend}' (expected ${ZSTD_BACKENDS.join(' or ')})`);
  if (zstdBackend() === 'zlib') return createZlibZstdEngine();
  try {
    return createNapiZstdEngine();
  } catch (err) {
    throw new Error(`${zlibZstdProblem()} and zstd-napi cannot be loaded: ${loadFailure(err)}`, { cause: err });
  }
}

module.exports = { createZstdEngine, zstdBackend, ZSTD_BACKENDS, ZSTD_FIX, ZSTD_POOL_SIZE };
