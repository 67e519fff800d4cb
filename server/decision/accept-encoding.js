'use strict';
// The q-value negotiator 1.x gives each coding, for the /_negotiate report only: the decision
// and whether a coding is acceptable come from `accepts` itself (server/decision/negotiate.js), so they
// have one source. The q cannot: negotiator returns only names, in order, and its lib/ files
// are private and return no q either. So this reads the header exactly as negotiator 1.1 does:
// members split by the `content-type` parser it uses (the documented options its lib/accept.js
// passes), then the rules of its lib/encoding.js. test/unit/accept-encoding.test.js proves on
// generated well-formed and malformed headers that q > 0 is negotiator's acceptability and that
// sorting by q (ties to the server preference) is its ranking; a negotiator upgrade that reads
// differently fails that test.

const contentType = require('content-type');

// header: the field value, or undefined when the request has none.
// Returns { absent, entries: [{ name (lower case), q }] } in header order, identity appended
// when neither it nor `*` is named.
function parseAcceptEncoding(header) {
  const parsed = { absent: header === undefined, entries: [] };
  if (header === undefined) return parsed;
  let minQ = 1;
  let hasIdentity = false;
  for (let index = 0; index < header.length;) {
    const member = contentType.parse(header, { comma: true, start: index });
    index = member.index + 1;
    // An empty name (",,", ", ;q=1") is no member at all.
    if (member.type === '') continue;
    // parseFloat: "q=2" weighs 2, "q=0.5x" 0.5, "q=-1" -1, "q=abc" NaN (never acceptable);
    // "q=" and a missing q weigh 1.
    const q = member.parameters.q ? Number.parseFloat(member.parameters.q) : 1;
    parsed.entries.push({ name: member.type, q });
    hasIdentity ||= member.type === 'identity' || member.type === '*';
    // q=0 and NaN count as 1 here, a negative q lowers identity's below zero.
    minQ = Math.min(minQ, q || 1);
  }
  // Unnamed identity weighs the lowest q in the header, so any named coding is preferred to it.
  if (!hasIdentity) parsed.entries.push({ name: 'identity', q: minQ });
  return parsed;
}

// The q negotiator ranks `coding` by: an entry naming it beats `*`; among equally specific
// entries the higher q wins, and a later one wins an equal or NaN comparison. Nothing matching
// is 0. With no header at all every coding is acceptable (RFC 9110 12.5.3): 1.
function qualityOf(parsed, coding) {
  if (parsed.absent) return 1;
  let best = { s: 0, q: 0 };
  for (const entry of parsed.entries) {
    const s = entry.name === coding ? 1 : entry.name === '*' ? 0 : -1;
    if (s < 0) continue;
    if ((best.s - s || best.q - entry.q || -1) < 0) best = { s, q: entry.q };
  }
  return best.q;
}

module.exports = { parseAcceptEncoding, qualityOf };
