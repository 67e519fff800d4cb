'use strict';
// Which files are worth compressing: the one rule that on-the-fly compression (file-store.js,
// core.js) and precompression (tools/precompress) both apply. The demo page's table of
// compressible types (static/js/compressible-types.js) is generated from it by
// docs/tools/compressible-types.js.

const mime = require('mime-types');
const compressible = require('compressible');
const { VARIANT_EXTENSIONS } = require('./codings');

// Below ~1 KiB a response fits in one packet and one DATA frame compressed or not, so
// compressing it saves no round trip, while a variant still costs a stat per request.
const MIN_COMPRESS_BYTES = 1024;
// What a name with no known extension is served as; its bytes could be anything, and are
// usually already compressed or random, so they are not compressed.
const UNKNOWN_TYPE = 'application/octet-stream';
const CODING_SUFFIXES = Object.values(VARIANT_EXTENSIONS);

/** The media type a file is served as, from its name. */
function typeOfName(name) {
  return mime.lookup(name) || UNKNOWN_TYPE;
}

/** Whether a name ends in a content coding's own suffix (.br .zst .gz .lzma): its bytes are compressed already. */
function isVariantName(name) {
  const lower = name.toLowerCase();
  return CODING_SUFFIXES.some((suffix) => lower.endsWith(suffix));
}

/** The name a precompressed variant's name is made from ("a.js" for "a.js.br"), else null. */
function variantOf(name) {
  const suffix = CODING_SUFFIXES.find((s) => name.endsWith(s) && name.length > s.length);
  return suffix === undefined ? null : name.slice(0, -suffix.length);
}

/**
 * Whether a media type is worth compressing: mime-db flags it compressible, or it is text-like
 * with no flag (the `compressible` package's rule), and it is not the unknown type (mime-db
 * flags application/octet-stream compressible, which random or compressed bytes are not).
 * Images, archives, fonts like woff2 and audio/video are not.
 */
function isCompressibleType(type) {
  const essence = type.split(';')[0].trim().toLowerCase();
  return essence !== UNKNOWN_TYPE && compressible(essence) === true;
}

/** Why a file named `name` and served as `type` is not compressed, or null when it is worth it. */
function whyNotCompressible(name, type) {
  if (isVariantName(name)) return 'already compressed (its name ends in a coding\'s suffix)';
  if (!isCompressibleType(type)) return `not compressible (${type})`;
  return null;
}

/** Whether a compressed form is worth sending or keeping instead of the identity bytes. */
function savesBytes(compressedSize, identitySize) {
  return compressedSize < identitySize;
}

module.exports = { MIN_COMPRESS_BYTES, UNKNOWN_TYPE, typeOfName, isVariantName, variantOf, isCompressibleType, whyNotCompressible, savesBytes };
