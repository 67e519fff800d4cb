'use strict';
// Decodes a response body by its Content-Encoding, with the same libraries
// the server family uses, so a benchmark can check that what it measured was
// a correct response and not a fast error.
const zlib = require('node:zlib');
const { promisify } = require('node:util');

const DECODERS = {
  identity: async (buf) => buf,
  br: promisify(zlib.brotliDecompress),
  gzip: promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
  // Node 20's zlib has no zstd.
  zstd: async (buf) => require('zstd-napi').decompress(buf),
  // lzma-native's decompressor detects both the .lzma and .xz containers.
  lzma: (buf) => new Promise((resolve, reject) => {
    require('lzma-native').decompress(buf, {}, (out, err) => (err ? reject(err) : resolve(out)));
  }),
};

async function decodeBody(contentEncoding, body) {
  const coding = (contentEncoding || 'identity').trim().toLowerCase();
  const decode = DECODERS[coding];
  if (!decode) throw Object.assign(new Error(`unsupported content-encoding "${coding}"`), { code: 'EUNKNOWNCODING' });
  return decode(body);
}

module.exports = { decodeBody, CODINGS: Object.keys(DECODERS) };
