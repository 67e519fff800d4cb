'use strict';
// The dictionary content codings of RFC 9842 section 4, made on the fly against a dictionary
// the client announced (Available-Dictionary):
//   dcb  ff 44 43 42, the dictionary's SHA-256, then a Brotli stream compressed with the
//        dictionary as a raw shared dictionary, window at most 16 MB (lgwin <= 24, no large
//        window); Brotli comes from the process (native/binding/brotli_dictionary.cc).
//   dcz  the zstd skippable frame 5e 2a 4d 18 20 00 00 00 holding the SHA-256, then a zstd
//        frame compressed with the dictionary as raw content, its window at most 8 MiB
//        (zstd-worker.js), within the RFC's max(8 MB, 1.25 x dictionary size).
// Each is offered only where its base coding is (dcb with br, dcz with zstd) and its engine is
// there, at the base coding's level (--dynamic-levels; dcb at quality 5 at least, dcz at level 3
// at least).

const { createHash } = require('node:crypto');
const { ERR_DICTIONARY_FRAME, ERR_DICTIONARY_MISMATCH, loadFailure } = require('../errors');

const HASH_BYTES = 32;
const HEADERS = Object.freeze({
  dcb: Buffer.from([0xff, 0x44, 0x43, 0x42]),
  dcz: Buffer.from([0x5e, 0x2a, 0x4d, 0x18, 0x20, 0x00, 0x00, 0x00]),
});
/** Each dictionary coding's base coding. */
const BASE_CODING = Object.freeze({ dcb: 'br', dcz: 'zstd' });
// zstd's magic for a formatted dictionary (ZSTD_MAGIC_DICTIONARY, little-endian): zstd loads a
// dictionary that starts with it as a formatted one, not as the raw content RFC 9842 requires,
// and neither zstd backend (zstd.js) exposes ZSTD_dct_rawContent, so such a dictionary gets no dcz.
const ZSTD_DICT_MAGIC = Buffer.from([0x37, 0xa4, 0x30, 0xec]);
// Brotli 1.1.0 searches a raw shared dictionary only from quality 5 up: below, dcb is no smaller
// than br (a 40 KB script against its previous release: 3,052 bytes at quality 4, 17 at 5).
const DCB_MIN_QUALITY = 5;
// zstd's levels 1 and 2 match a dictionary poorly (a 280 KB bundle a release apart: 9,894 bytes
// at level 1, 229 at 2, 212 at 3; a 135 KB document: 2,017 at level 2, 303 at 3).
const DCZ_MIN_LEVEL = 3;
// RFC 9842 4.1: a dcb window is at most 16 MB, lgwin 24 without Brotli's large window.
const DCB_MAX_LGWIN = 24;

/** `payload` with the coding's header and the dictionary hash in front. */
function frame(coding, hash, payload) {
  return Buffer.concat([HEADERS[coding], hash, payload]);
}

/** { hash, payload } of a dcb or dcz body; throws ERR_DICTIONARY_FRAME when the header is wrong. */
function unframe(coding, body) {
  const header = HEADERS[coding];
  if (body.length < header.length + HASH_BYTES || !body.subarray(0, header.length).equals(header)) {
    throw ERR_DICTIONARY_FRAME({ coding });
  }
  return { hash: body.subarray(header.length, header.length + HASH_BYTES), payload: body.subarray(header.length + HASH_BYTES) };
}

// The addon's Brotli binding, loaded when dictionary engines are made (only for a site with
// dictionary rules: the node engine needs no addon otherwise); a process whose addon cannot
// load serves without dcb.
function loadBrotliDictionary() {
  try {
    return require('../../native/js/addon').brotliDictionary;
  } catch (err) {
    return { available: false, unavailableReason: `the native addon cannot be loaded (${loadFailure(err)})` };
  }
}

/**
 * The dictionary codings this process can make, with engines from createEngines (their zstd
 * pool makes dcz; their settings give each delta its base coding's dynamic level). `log`, when
 * given, gets one line if dcb cannot be made.
 */
function createDictionaryEngines(engines, log = null) {
  const available = [];
  const brotli = loadBrotliDictionary();
  if (brotli.available) available.push('dcb');
  else if (log !== null) log.warn(`dcb (RFC 9842) not offered: ${brotli.unavailableReason}`);
  if (engines.available.includes('zstd')) available.push('dcz');
  // br's on-the-fly settings, within what dcb needs.
  const dcbSettings = () => {
    const { quality, lgwin } = engines.settingsFor('br', 'dynamic');
    return { quality: Math.max(quality, DCB_MIN_QUALITY), lgwin: Math.min(lgwin, DCB_MAX_LGWIN) };
  };
  const dczSettings = () => ({ level: Math.max(engines.settingsFor('zstd', 'dynamic').level, DCZ_MIN_LEVEL) });
  const make = {
    dcb: (input, dictionary) => {
      const { quality, lgwin } = dcbSettings();
      return brotli.compress(input, dictionary, quality, lgwin);
    },
    dcz: (input, dictionary) => engines.compressWithDictionary('zstd', input, dictionary, dczSettings()),
  };
  return {
    available,
    /** The settings `coding` makes its bytes with, for ETags: "5w22" (quality, lgwin) for dcb, "3" for dcz. */
    settingsTag(coding) {
      if (coding === 'dcb') {
        const { quality, lgwin } = dcbSettings();
        return `${quality}w${lgwin}`;
      }
      return String(dczSettings().level);
    },
    /** Whether `coding` can use this dictionary (see ZSTD_DICT_MAGIC). */
    accepts: (coding, dictionary) => coding !== 'dcz' || !dictionary.subarray(0, 4).equals(ZSTD_DICT_MAGIC),
    /** The framed body of `input` in `coding` against `dictionary` (whose SHA-256 is `hash`). */
    async compress(coding, input, dictionary, hash) {
      return frame(coding, hash, await make[coding](input, dictionary));
    },
    /**
     * The content of a dcb or dcz `body` made against `dictionary`; rejects when its header or
     * hash is not the dictionary's (ERR_DICTIONARY_FRAME, ERR_DICTIONARY_MISMATCH), or as the
     * base coding's decompress() does, maxOutputLength included.
     */
    async decompress(coding, body, dictionary, { maxOutputLength = Number.MAX_SAFE_INTEGER } = {}) {
      const { hash, payload } = unframe(coding, body);
      if (!hash.equals(sha256(dictionary))) throw ERR_DICTIONARY_MISMATCH({ coding });
      if (coding === 'dcb') return brotli.decompress(payload, dictionary, maxOutputLength);
      return engines.decompressWithDictionary('zstd', payload, dictionary, { maxOutputLength });
    },
  };
}

/**
 * The dictionary codings to offer, in server preference order: those `available` whose base
 * coding is in `encodings` (--encodings), in the order of their base codings there.
 */
function deltaOrder(encodings, available) {
  return encodings.flatMap((base) => available.filter((coding) => BASE_CODING[coding] === base));
}

function sha256(bytes) {
  return createHash('sha256').update(bytes).digest();
}

module.exports = { BASE_CODING, HEADERS, frame, unframe, sha256, deltaOrder, createDictionaryEngines };
