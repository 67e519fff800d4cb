'use strict';
// Content-coding negotiation: RFC 9110 Accept-Encoding semantics as implemented by `accepts`
// (negotiator 1.x), with q-value ties broken by the server's preference order and identity
// last. Results are memoised per (header value, offered set): real traffic carries a handful
// of distinct Accept-Encoding values, and parsing one per request is measurable at 30k req/s.

const accepts = require('accepts');

const MEMO_LIMIT = 1024;
const memo = new Map();

// offered: codings this file can be served with, in server preference order, 'identity' last.
// offeredKey: a string naming that set (callers precompute it). Returns a coding or null (406).
function negotiate(acceptEncoding, offered, offeredKey) {
  const key = offeredKey + '\n' + (acceptEncoding === undefined ? '\0' : acceptEncoding);
  let chosen = memo.get(key);
  if (chosen === undefined) {
    const ranked = accepts({ headers: { 'accept-encoding': acceptEncoding } })
      .negotiator.encodings(offered, { preferred: offered });
    chosen = ranked.length > 0 ? ranked[0] : null;
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(key, chosen);
  }
  return chosen;
}

function isAcceptable(acceptEncoding, coding) {
  return negotiate(acceptEncoding, [coding], coding) !== null;
}

// The q a client wrote for exactly this coding, or null. Only used to explain a decision
// (the /_negotiate endpoint); the decision itself is negotiate()'s.
function explicitQ(acceptEncoding, coding) {
  if (!acceptEncoding) return null;
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim());
    if (name.toLowerCase() !== coding) continue;
    const q = params.find((p) => /^q=/i.test(p));
    return q ? Number.parseFloat(q.slice(2)) : 1;
  }
  return null;
}

module.exports = { negotiate, isAcceptable, explicitQ };
