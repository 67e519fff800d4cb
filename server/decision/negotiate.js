'use strict';
// Content-coding negotiation: the highest q the client gives a coding the file is offered in
// (server/http/accept-encoding.js reads the header), ties to the server's preference order, with
// identity last. Results are memoised per (header value, offered set): real traffic carries a handful
// of distinct Accept-Encoding values, and parsing one per request is measurable at 30k req/s.

const { parseAcceptEncoding, qualityOf } = require('../http/accept-encoding');

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
  if (acceptEncoding === undefined) return offered.includes('identity') ? 'identity' : offered[0] ?? null;
  const parsed = parseAcceptEncoding(acceptEncoding);
  let chosen = null;
  let best = 0;
  // Strictly higher: q must be above 0 (NaN never is), and a tie keeps the earlier, preferred coding.
  for (const coding of offered) {
    const q = qualityOf(parsed, coding);
    if (q > best) [chosen, best] = [coding, q];
  }
  return chosen;
}

// Whether negotiate() could choose `coding` under this header: the /_negotiate report's
// "acceptable", from the same decision so that it never contradicts it.
function isAcceptable(acceptEncoding, coding) {
  return negotiate(acceptEncoding, [coding], coding) !== null;
}

module.exports = { negotiate, isAcceptable };
