'use strict';
// lzma through lzma-native in the "LZMA alone" format (.lzma, what `lzma` and
// `xz --format=lzma` write), which is what Content-Encoding: lzma carries here.
// lzma-native codes on the libuv thread pool, never on the event loop.

const { finished } = require('node:stream');
const { ERR_BUFFER_TOO_LARGE } = require('../errors');

// Loaded when lzma is first coded, not at start: lzma-native adds about 8 MiB to the resident
// memory of a server that may never be asked for lzma.
let lzmaModule = null;
const native = () => (lzmaModule ??= require('lzma-native'));

// liblzma's lzma_lzma_preset() table, spelled out so the dictionary can be sized
// to the input: preset 9 otherwise allocates and clears ~670 MiB of match-finder
// tables even for a 2 KiB file (about 50 ms each), for output that is identical
// apart from the header's dictionary-size field.
const PRESET_DICT_LOG2 = [18, 20, 21, 22, 22, 23, 23, 24, 25, 26];
const FAST_PRESET_DEPTH = [4, 8, 24, 48];
// 64 KiB keeps header bytes 1-2 zero, which is how file(1) and other sniffers recognise .lzma data.
const MIN_DICT = 64 * 1024;

/** LZMA1 encoder options equivalent to xz preset `preset` (0-9, non-extreme). */
function presetOptions(preset) {
  if (!Number.isInteger(preset) || preset < 0 || preset > 9) throw new RangeError(`lzma preset must be 0-9, got ${preset}`);
  const dictSize = 2 ** PRESET_DICT_LOG2[preset];
  if (preset <= 3) {
    return {
      dictSize,
      mode: native().MODE_FAST,
      mf: preset === 0 ? native().MF_HC3 : native().MF_HC4,
      niceLen: preset <= 1 ? 128 : 273,
      depth: FAST_PRESET_DEPTH[preset],
    };
  }
  return { dictSize, mode: native().MODE_NORMAL, mf: native().MF_BT4, niceLen: [16, 32][preset - 4] ?? 64, depth: 0 };
}

/**
 * Encoder options for `preset` with the dictionary no larger than the input needs.
 * Kept a power of two so `xz --format=auto` still recognises the .lzma header.
 */
function encoderOptions({ preset }, sizeHint) {
  const options = presetOptions(preset);
  if (sizeHint > 0) {
    const fit = 2 ** Math.ceil(Math.log2(Math.max(sizeHint, MIN_DICT)));
    options.dictSize = Math.min(options.dictSize, fit);
  }
  return options;
}

/**
 * Ends the native coder of a destroyed stream. lzma-native ends it itself only
 * after success or an error, so without this the encoder's memory (up to
 * hundreds of MiB) would wait for garbage collection. cleanup() takes the
 * coder's lock, which a thread-pool worker holds while coding a chunk, so while
 * a chunk is in flight the release waits for that chunk's completion callback
 * instead of blocking the event loop. (Relies on lzma-native 8's chunkCallbacks,
 * the queue of write callbacks for chunks handed to the native coder.)
 */
function releaseWhenIdle(stream) {
  const inFlight = stream.chunkCallbacks;
  if (inFlight.length === 0) {
    stream.cleanup();
    return;
  }
  const last = inFlight.length - 1;
  const written = inFlight[last];
  inFlight[last] = function releaseThenContinue(...args) {
    stream.cleanup();
    written.apply(this, args);
  };
}

// lzma-native's streams do not destroy themselves once they have ended (Node's autoDestroy), so
// they never emitted 'close' after a whole body: core.js frees a streamed response's compression
// slot on its compressor's 'close', so each lzma response read to its end kept one, and after
// as many as the pool has slots no large file was compressed on the fly again.
function lzmaStream(coder, options) {
  const stream = native().createStream(coder, options);
  stream.once('close', () => releaseWhenIdle(stream));
  finished(stream, () => stream.destroy());
  return stream;
}

// lzma-native decodes each written chunk to its end on the thread pool before JS sees any of
// the output, so the input is written in slices small enough that one slice cannot carry the
// output past the cap by much. The most one input byte can decode to: a 273-byte rep0 match
// costs 14 range-coder decisions of at least 0.022 bits each (probabilities saturate at
// 31/2048), about 7,100 bytes per input byte; 1 GiB of zeros measured 7,080. Doubled for margin.
const MAX_EXPANSION = 16 * 1024;
const MIN_SLICE = 64; // at most 1 MiB decoded past the cap
const MAX_SLICE = 64 * 1024;

function sliceLength(room) {
  return Math.min(MAX_SLICE, Math.max(MIN_SLICE, Math.floor(room / MAX_EXPANSION)));
}

// Runs `input` through `stream`, stopping (and destroying the stream, which frees its coder) as
// soon as the output passes maxOutputLength; see CodingEngine in codings.js.
function runThrough(stream, input, maxOutputLength = Infinity) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let produced = 0;
    let offset = 0;
    let settled = false;
    const fail = (err) => {
      if (settled) return;
      settled = true;
      stream.destroy();
      reject(err);
    };
    stream.on('data', (chunk) => {
      produced += chunk.length;
      if (produced > maxOutputLength) fail(ERR_BUFFER_TOO_LARGE({ maxOutputLength }));
      else chunks.push(chunk);
    });
    stream.once('end', () => {
      if (settled) return;
      settled = true;
      resolve(Buffer.concat(chunks));
    });
    stream.once('error', fail);
    const feed = () => {
      if (settled) return;
      if (offset >= input.length) {
        stream.end();
        return;
      }
      const slice = input.subarray(offset, offset + sliceLength(maxOutputLength - produced));
      offset += slice.length;
      stream.write(slice, feed);
    };
    feed();
  });
}

/** @returns {import('./codings').CodingEngine} lzma engine; settings are `{ preset }`. */
function createLzmaEngine() {
  // Throws when lzma-native is not installed, which makes lzma unavailable (codings.js).
  require.resolve('lzma-native');
  return {
    compress: (input, settings) => runThrough(lzmaStream('aloneEncoder', encoderOptions(settings, input.length)), input),
    createCompressStream: (settings, sizeHint) => lzmaStream('aloneEncoder', encoderOptions(settings, sizeHint)),
    decompress: (input, maxOutputLength) => runThrough(lzmaStream('aloneDecoder', {}), input, maxOutputLength),
  };
}

module.exports = { createLzmaEngine, presetOptions };
