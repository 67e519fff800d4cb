'use strict';
// The one Accept-Encoding parser (RFC 9110 section 12.5.3): negotiation and the /_negotiate
// report both read q-values through it, so what is explained is what was decided. On headers
// within the RFC grammar it decides as negotiator 1.x did (test/accept-encoding.test.js checks
// a generated corpus against it); where negotiator reads a malformed q as a number
// ("q=2", "q=-1", "q=0.5x", "q=\"1\"") this parser makes that coding unacceptable.

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

// header: the field value, or undefined when the request has none.
// Returns { absent, exact: Map<lowercase coding, q>, star: q | null, lowestQ }.
function parseAcceptEncoding(header) {
  const parsed = { absent: header === undefined, exact: new Map(), star: null, lowestQ: 1 };
  if (header === undefined) return parsed;
  for (const member of splitOutsideQuotes(header, ',')) {
    const entry = parseMember(member);
    if (entry === null) continue;
    if (entry.name === '*') parsed.star = Math.max(parsed.star ?? 0, entry.q);
    else parsed.exact.set(entry.name, Math.max(parsed.exact.get(entry.name) ?? 0, entry.q));
    if (entry.q > 0) parsed.lowestQ = Math.min(parsed.lowestQ, entry.q);
  }
  return parsed;
}

// The q that governs `coding`: its own entries (the highest when named twice), else `*`'s,
// else, for identity only, the lowest positive q in the header, so that any coding the client
// names is preferred to identity (negotiator's rule; the RFC leaves identity's weight open).
// With no header at all every coding is acceptable (12.5.3); the choice of identity then is
// negotiate()'s.
function qualityOf(parsed, coding) {
  if (parsed.absent) return 1;
  const q = parsed.exact.get(coding);
  if (q !== undefined) return q;
  if (parsed.star !== null) return parsed.star;
  return coding === 'identity' ? parsed.lowestQ : 0;
}

// codings = token / "*", then parameters; only q is meaningful (weight). A member whose name is
// not a token is ignored; a q that is not a qvalue makes the coding unacceptable (0).
function parseMember(member) {
  const [rawName, ...params] = splitOutsideQuotes(member, ';');
  const name = rawName.trim().toLowerCase();
  if (!TOKEN.test(name)) return null;
  let q = 1;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq === -1 || param.slice(0, eq).trim().toLowerCase() !== 'q') continue;
    const value = param.slice(eq + 1).trim();
    q = QVALUE.test(value) ? Number(value) : 0;
    break;
  }
  return { name, q };
}

// Splits on `sep` except inside quoted-strings (a parameter value may quote a comma).
function splitOutsideQuotes(s, sep) {
  const parts = [];
  let from = 0;
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quoted && c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    else if (!quoted && c === sep) {
      parts.push(s.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(s.slice(from));
  return parts;
}

module.exports = { parseAcceptEncoding, qualityOf };
