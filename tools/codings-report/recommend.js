'use strict';
// Choosing levels from measurements, and what a population of browsers would download.
// Pure functions over rows { coding, level, inputBytes, outputBytes, compressMBps, ... }.

const { negotiate } = require('../../server/decision/negotiate');
const { VARIANT_EXTENSIONS } = require('../../server/compression/codings');

// Output within this fraction of the smallest counts as equally small: the faster level wins.
const SIZE_TIE = 0.001;

/**
 * Per coding: `precompress`, the level with the smallest output (speed matters little for a
 * file compressed once), the fastest of those within SIZE_TIE of it; `dynamic`, the smallest
 * output among levels compressing at least minMBps on this machine (one core), else the fastest
 * level. Codings without a variant get no precompress level.
 */
function recommend(rows, minMBps) {
  const out = {};
  for (const coding of [...new Set(rows.map((r) => r.coding))]) {
    const levels = rows.filter((r) => r.coding === coding);
    const smallest = Math.min(...levels.map((r) => r.outputBytes));
    const fastestOf = (list) => list.reduce((a, b) => (b.compressMBps > a.compressMBps ? b : a));
    const bySize = (a, b) => a.outputBytes - b.outputBytes || b.compressMBps - a.compressMBps;
    const quick = levels.filter((r) => r.compressMBps >= minMBps).sort(bySize);
    out[coding] = {
      precompress: Object.hasOwn(VARIANT_EXTENSIONS, coding)
        ? fastestOf(levels.filter((r) => r.outputBytes <= smallest * (1 + SIZE_TIE))).level : null,
      dynamic: quick.length > 0 ? quick[0].level : fastestOf(levels).level,
    };
  }
  return out;
}

/**
 * Parses a browser mix "gzip, deflate, br, zstd:75|gzip, deflate, br:25": Accept-Encoding
 * values with their weights (any positive numbers; normalised to shares).
 */
function parseMix(text) {
  const mix = String(text).split('|').map((part) => {
    const at = part.lastIndexOf(':');
    const weight = Number(part.slice(at + 1));
    if (at < 0 || !(weight > 0)) throw new Error(`expected "Accept-Encoding:weight" items separated by |, got "${part}"`);
    return { acceptEncoding: part.slice(0, at).trim(), weight };
  });
  const total = mix.reduce((n, m) => n + m.weight, 0);
  return mix.map(({ acceptEncoding, weight }) => ({ acceptEncoding, share: weight / total }));
}

/**
 * Bytes the mix downloads per copy of the sample, on average, when each coding is served at
 * `levelOf(coding)` and negotiated the way the server does (its preference order `codings`).
 */
function mixBytes(mix, rows, codings, levelOf, identityBytes) {
  const sizeOf = (coding) => rows.find((r) => r.coding === coding && r.level === levelOf(coding)).outputBytes;
  const offered = [...codings, 'identity'];
  let total = 0;
  for (const { acceptEncoding, share } of mix) {
    const chosen = negotiate(acceptEncoding === '' ? undefined : acceptEncoding, offered, offered.join(','));
    total += share * (chosen === 'identity' || chosen === null ? identityBytes : sizeOf(chosen));
  }
  return Math.round(total);
}

module.exports = { recommend, parseMix, mixBytes };
