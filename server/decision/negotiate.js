'use strict';
// Content-coding negotiation: RFC 9110 Accept-Encoding semantics as implemented by `accepts`
// (negotiator 1.x), with q-value ties broken by the server's preference order and identity
// last. Results are memoised per (header value, offered set): real traffic carries a handful
// of distinct Accept-Encoding values, and parsing one per request is measurable at 30k req/s.

const accepts = require('accepts');

const MEMO_LIMIT = 1024;
// offeredKey → (header value, or undefined when absent → coding or null); two levels, so a
// lookup builds no key string.
const memo = new Map();
let memoSize = 0;

// offered: codings this file can be served with, in server preference order, 'identity' last.
// offeredKey: a string naming that set (callers precompute it). Returns a coding or null (406).
function negotiate(acceptEncoding, offered, offeredKey) {
  let byHeader = memo.get(offeredKey);
  let chosen = byHeader === undefined ? undefined : byHeader.get(acceptEncoding);
  if (chosen === undefined) {
    chosen = choose(acceptEncoding, offered);
    if (memoSize >= MEMO_LIMIT) {
      memo.clear();
      memoSize = 0;
      byHeader = undefined;
    }
    if (byHeader === undefined) memo.set(offeredKey, byHeader = new Map());
    byHeader.set(acceptEncoding, chosen);
    memoSize++;
  }
  return chosen;
}

function choose(acceptEncoding, offered) {
  // Without the header any coding is acceptable, yet a client that announces no decoder (curl
  // or a script without --compressed) most likely has none: identity, as every server sends.
  // (negotiator would read a missing header as an empty one: identity only.)
  if (acceptEncoding === undefined) return offered.includes('identity') ? 'identity' : offered[0] ?? null;
  const ranked = accepts({ headers: { 'accept-encoding': acceptEncoding } })
    .negotiator.encodings(offered, { preferred: offered });
  return ranked.length > 0 ? ranked[0] : null;
}

// Whether negotiate() could choose `coding` under this header: the /_negotiate report's
// "acceptable", from the same decision so that it never contradicts it.
function isAcceptable(acceptEncoding, coding) {
  return negotiate(acceptEncoding, [coding], coding) !== null;
}

module.exports = { negotiate, isAcceptable };
