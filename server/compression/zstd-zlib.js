'use strict';
// The node:zlib backend of the zstd engine (zstd.js picks it where node:zlib has all it needs):
// zstd runs on libuv's thread pool like Node's other zlib codings, with no addon and no worker.

const zlib = require('node:zlib');
const { promisify } = require('node:util');
const { CODES, ERR_BUFFER_TOO_LARGE, ERR_ENGINE_UNAVAILABLE, ERR_ZSTD_TRUNCATED } = require('../errors');
const { WINDOW_LOG_MAX, dictionaryTableLog } = require('./zstd-params');
const { splitFrames } = require('./zstd-frames');

const {
  ZSTD_c_compressionLevel, ZSTD_c_windowLog, ZSTD_c_hashLog, ZSTD_c_chainLog, ZSTD_d_windowLogMax,
} = zlib.constants;
// 256 distinct bytes: zstd cannot shrink them alone, but against themselves as the dictionary
// they become a frame of a few bytes.
const PROBE = Buffer.from(Array.from({ length: 256 }, (_, i) => (i * 167 + 13) % 256));

let problem;

/**
 * Why node:zlib's zstd cannot serve here (null: it can). The engine needs zstd itself (Node
 * 22.15+), dictionaries (dcz, RFC 9842) and truncated frames refused (the decoder's contract in
 * codings.js); an older Node has the first without the others, and would silently make dcz
 * frames without their dictionary.
 */
function zlibZstdProblem() {
  problem ??= probe();
  return problem;
}

function probe() {
  const runtime = `Node.js ${process.versions.node}`;
  if (typeof zlib.zstdCompressSync !== 'function') return `node:zlib has no zstd in ${runtime}`;
  const frame = zlib.zstdCompressSync(PROBE, { dictionary: PROBE });
  if (frame.length >= PROBE.length / 2) return `node:zlib's zstd takes no dictionary in ${runtime}`;
  try {
    zlib.zstdDecompressSync(frame.subarray(0, frame.length - 1), { dictionary: PROBE });
  } catch {
    return null;
  }
  return `node:zlib's zstd accepts truncated frames in ${runtime}`;
}

const levelParams = (level) => ({ [ZSTD_c_compressionLevel]: level });
// Whole buffers get their size pledged: the frame header then holds the content size, as
// zstd-napi's one-shot compress writes it, and the frames of both backends are the same bytes.

// Raw-content dictionaries (RFC 9842's) and the same parameters as the zstd-napi backend.
function dictionaryOptions(input, dictionary, level) {
  const params = { ...levelParams(level), [ZSTD_c_windowLog]: WINDOW_LOG_MAX };
  const tableLog = dictionaryTableLog(level, dictionary.length, input.length);
  if (tableLog !== null) Object.assign(params, { [ZSTD_c_hashLog]: tableLog, [ZSTD_c_chainLog]: tableLog });
  return { params, dictionary, pledgedSrcSize: input.length };
}

/** node:zlib's errors as the zstd-napi backend reports them (see CodingEngine in codings.js). */
function decodeError(err, maxOutputLength) {
  if (err.code === CODES.ERR_BUFFER_TOO_LARGE) return ERR_BUFFER_TOO_LARGE({ maxOutputLength });
  if (err.code === 'Z_BUF_ERROR') return ERR_ZSTD_TRUNCATED({ cause: err });
  return err;
}

// Frame by frame (node:zlib decodes only the first), each capped at what the cap leaves.
async function decode(decompress, input, maxOutputLength = Infinity, dictionary = undefined) {
  const parts = [];
  let left = maxOutputLength;
  for (const frame of splitFrames(input)) {
    const options = { params: { [ZSTD_d_windowLogMax]: WINDOW_LOG_MAX }, dictionary };
    // node:zlib's cap is at least 1: a frame decoding to one byte more than is left is too much.
    if (left !== Infinity) options.maxOutputLength = Math.max(left, 1);
    let output;
    try {
      output = await decompress(frame, options);
    } catch (err) {
      throw decodeError(err, maxOutputLength);
    }
    left -= output.length;
    if (left < 0) throw outputTooLarge(maxOutputLength);
    parts.push(output);
  }
  return parts.length === 1 ? parts[0] : Buffer.concat(parts);
}

/**
 * @returns {import('./codings').CodingEngine} the zstd engine on node:zlib; settings are `{ level }`.
 * @throws when node:zlib's zstd cannot serve (zlibZstdProblem).
 */
function createZlibZstdEngine() {
  const why = zlibZstdProblem();
  if (why !== null) throw ERR_ENGINE_UNAVAILABLE(why);
  const compress = promisify(zlib.zstdCompress);
  const decompress = promisify(zlib.zstdDecompress);
  return {
    compress: (input, { level }) => compress(input, { params: levelParams(level), pledgedSrcSize: input.length }),
    createCompressStream: ({ level }) => zlib.createZstdCompress({ params: levelParams(level) }),
    decompress: (input, maxOutputLength) => decode(decompress, input, maxOutputLength),
    compressWithDictionary: (input, dictionary, { level }) => compress(input, dictionaryOptions(input, dictionary, level)),
    decompressWithDictionary: (input, dictionary, maxOutputLength) => decode(decompress, input, maxOutputLength, dictionary),
  };
}

module.exports = { createZlibZstdEngine, zlibZstdProblem };
