'use strict';
// The one Accept-Encoding parser (RFC 9110 12.5.3): the decision (server/decision/negotiate.js)
// and the /_negotiate report's q-values both read the header here, so the two cannot disagree.
// It reads the field as negotiator 1.1 (what express, koa and Node's ecosystem use) does, so a
// client gets the coding it would get there: members split by the `content-type` parser
// (`comma: true`), an unparsable q read with parseFloat, identity added at the lowest q when the
// header names neither it nor `*`. test/unit/accept-encoding.test.js holds it to negotiator's
// acceptability and ranking on generated well-formed and malformed headers.

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
