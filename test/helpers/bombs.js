'use strict';
// Decompression bombs: small inputs that decode to `bytes` zero bytes, one per content coding,
// built in well under a second each without ever holding the decoded bytes. gzip and zstd
// repeat one member (frame) of a chunk of zeros, which their formats concatenate; brotli
// streams the zeros through the encoder; lzma is written directly (see lzmaZeros).

const zlib = require('node:zlib');
const { Compressor } = require('zstd-napi');

const CHUNK = 16 * 1024 * 1024;

function repeated(member, bytes) {
  return Buffer.concat(Array.from({ length: Math.ceil(bytes / CHUNK) }, () => member));
}

async function brotliZeros(bytes) {
  const encoder = zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } });
  const out = [];
  encoder.on('data', (c) => out.push(c));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let left = bytes; left > 0; left -= zeros.length) {
    if (!encoder.write(left >= zeros.length ? zeros : zeros.subarray(0, left))) await new Promise((r) => encoder.once('drain', r));
  }
  await new Promise((resolve, reject) => encoder.once('end', resolve).once('error', reject).end());
  return Buffer.concat(out);
}

// An "LZMA alone" stream (lc 3, lp 0, pb 2, known size, no end marker): one literal zero, then
// rep0 matches of 273 bytes, the longest LZMA has, encoded with the LZMA SDK's range coder.
// xz needs tens of seconds of match finding to make the same ~7,000:1 stream.
function lzmaZeros(bytes) {
  const MATCH = 273;
  const matches = Math.ceil((bytes - 1) / MATCH);
  const out = [];
  let low = 0;
  let range = 0xFFFFFFFF;
  let cache = 0;
  let cacheSize = 1;
  const shiftLow = () => {
    const carry = low >= 2 ** 32 ? 1 : 0;
    const low32 = low % 2 ** 32;
    if (low32 < 0xFF000000 || carry) {
      let temp = cache;
      do {
        out.push((temp + carry) & 0xFF);
        temp = 0xFF;
      } while (--cacheSize !== 0);
      cache = Math.floor(low32 / 2 ** 24);
    }
    cacheSize++;
    low = (low32 % 2 ** 24) * 256;
  };
  const bit = (probs, i, b) => {
    const p = probs[i];
    const bound = (range >>> 11) * p;
    if (b === 0) {
      range = bound;
      probs[i] = p + ((2048 - p) >> 5);
    } else {
      low += bound;
      range -= bound;
      probs[i] = p - (p >> 5);
    }
    while (range < 2 ** 24) {
      range *= 256;
      shiftLow();
    }
  };
  const probs = (n) => new Uint16Array(n).fill(1024);
  const isMatch = probs(12 * 4);
  const isRep = probs(12);
  const isRepG0 = probs(12);
  const isRep0Long = probs(12 * 4);
  const literal = probs(0x300);
  const [choice, choice2, high] = [probs(1), probs(1), probs(256)];

  // The literal 0 at position 0, state 0.
  bit(isMatch, 0, 0);
  for (let i = 0, sym = 1; i < 8; i++, sym <<= 1) bit(literal, sym, 0);
  let state = 0;
  let pos = 1;
  for (let m = 0; m < matches; m++) {
    const posState = pos & 3;
    bit(isMatch, state * 4 + posState, 1);
    bit(isRep, state, 1);
    bit(isRepG0, state, 0);
    bit(isRep0Long, state * 4 + posState, 1);
    // Length 273 = 2 + 8 + 8 + 255: choice 1, choice2 1, then 255 in the 8-bit high tree.
    bit(choice, 0, 1);
    bit(choice2, 0, 1);
    for (let i = 0, sym = 1; i < 8; i++, sym = (sym << 1) | 1) bit(high, sym, 1);
    state = state < 7 ? 8 : 11;
    pos += MATCH;
  }
  for (let i = 0; i < 5; i++) shiftLow();

  const header = Buffer.alloc(13);
  header[0] = (2 * 5 + 0) * 9 + 3;
  header.writeUInt32LE(1 << 16, 1);
  header.writeBigUInt64LE(BigInt(1 + matches * MATCH), 5);
  return Buffer.concat([header, Buffer.from(out)]);
}

// coding → async (bytes) => Buffer decoding to at least `bytes` zeros.
const BOMBS = {
  br: brotliZeros,
  gzip: async (bytes) => repeated(zlib.gzipSync(Buffer.alloc(CHUNK), { level: 9 }), bytes),
  deflate: null, // no variant file: deflate is only ever compressed on the fly
  zstd: async (bytes) => repeated(new Compressor().compress(Buffer.alloc(CHUNK)), bytes),
  lzma: async (bytes) => lzmaZeros(bytes),
};

module.exports = { BOMBS, lzmaZeros };
