'use strict';
// Content-coding negotiation (RFC 9110 section 12.5.3) over the q-values of
// server/accept-encoding.js: the highest q wins, ties go to the server's preference order
// (the order of `offered`, identity last), q=0 excludes. Results are memoised per (header
// value, offered set): real traffic carries a handful of distinct Accept-Encoding values, and
// parsing one per request is measurable at 30k req/s.

const { parseAcceptEncoding, qualityOf } = require('./accept-encoding');

const MEMO_LIMIT = 1024;
const memo = new Map();

// offered: codings this file can be served with, in server preference order, 'identity' last.
// offeredKey: a string naming that set (callers precompute it). Returns a coding or null (406).
function negotiate(acceptEncoding, offered, offeredKey) {
  const key = offeredKey + '\n' + (acceptEncoding === undefined ? '\0' : acceptEncoding);
  let chosen = memo.get(key);
  if (chosen === undefined) {
    chosen = choose(acceptEncoding, offered);
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(key, chosen);
  }
  return chosen;
}

function choose(acceptEncoding, offered) {
  // Without the header any coding is acceptable, yet a client that announces no decoder (curl
  // or a script without --compressed) most likely has none: identity, as every server sends.
  if (acceptEncoding === undefined) return offered.includes('identity') ? 'identity' : offered[0] ?? null;
  const parsed = parseAcceptEncoding(acceptEncoding);
  let best = null;
  let bestQ = 0;
  for (const coding of offered) {
    const q = qualityOf(parsed, coding);
    if (q > bestQ) [best, bestQ] = [coding, q];
  }
  return best;
}

module.exports = { negotiate };
