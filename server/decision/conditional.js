'use strict';
// Conditional requests (RFC 9110 section 13) for GET/HEAD on the selected representation,
// evaluated in the order of 13.2.2. Only reached once a representation is selected: a response
// that would be other than 2xx without the preconditions (404, 406, 503) ignores them (13.2.1).
//
// rep: { etag, lastModifiedMs }. An ETag starting with W/ is weak: it never satisfies If-Match
// or If-Range (strong comparison, 13.1.1 and 13.1.5), only If-None-Match (weak comparison).

const { parseHttpDate } = require('../http/http-date');

const PROCEED = 'proceed';
const NOT_MODIFIED = 'not-modified';
const PRECONDITION_FAILED = 'precondition-failed';

// The outcome for a GET or HEAD: PROCEED (then If-Range/Range), NOT_MODIFIED (304) or
// PRECONDITION_FAILED (412).
function evaluatePreconditions(headers, rep) {
  const ifMatch = headers['if-match'];
  if (ifMatch !== undefined) {
    if (!matches(ifMatch, rep.etag, strongEqual)) return PRECONDITION_FAILED;
  } else {
    const since = parseHttpDate(headers['if-unmodified-since']);
    if (since !== null && rep.lastModifiedMs > since) return PRECONDITION_FAILED;
  }
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    return matches(ifNoneMatch, rep.etag, weakEqual) ? NOT_MODIFIED : PROCEED;
  }
  const since = parseHttpDate(headers['if-modified-since']);
  if (since !== null && rep.lastModifiedMs <= since) return NOT_MODIFIED;
  return PROCEED;
}

// If-Range (13.1.5): the Range applies only when the validator names this exact
// representation. An entity tag compares strongly; a date must equal Last-Modified and is only
// trusted when the representation has a strong ETag, because a weak one says its bytes are not
// fixed by the file (and so not by the file's date).
function ifRangeAllows(value, rep) {
  if (value === undefined) return true;
  const v = value.trim();
  if (v.startsWith('"') || v.startsWith('W/')) {
    const tags = parseEntityTags(v);
    return tags !== null && tags.length === 1 && strongEqual(tags[0], rep.etag);
  }
  if (isWeak(rep.etag)) return false;
  const date = parseHttpDate(v);
  return date !== null && date === rep.lastModifiedMs;
}

// `*` matches any current representation, and there is one: this runs after selection.
// A malformed list matches nothing.
function matches(header, etag, equal) {
  if (header.trim() === '*') return true;
  const tags = parseEntityTags(header);
  return tags !== null && tags.some((tag) => equal(tag, etag));
}

function isWeak(tag) {
  return tag.startsWith('W/');
}

function strongEqual(a, b) {
  return !isWeak(a) && !isWeak(b) && a === b;
}

function weakEqual(a, b) {
  return (isWeak(a) ? a.slice(2) : a) === (isWeak(b) ? b.slice(2) : b);
}

// #entity-tag (13.1.1, 5.6.1): entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE, where etagc may be a
// comma, so the list is scanned rather than split. Empty list members are allowed. Returns the
// tags as written, or null when the value is not such a list.
function parseEntityTags(value) {
  const tags = [];
  let i = 0;
  const n = value.length;
  for (;;) {
    while (i < n && (value[i] === ' ' || value[i] === '\t' || value[i] === ',')) i++;
    if (i === n) return tags;
    const start = i;
    if (value.startsWith('W/', i)) i += 2;
    if (value[i] !== '"') return null;
    const close = value.indexOf('"', i + 1);
    if (close === -1) return null;
    const tag = value.slice(start, close + 1);
    if (!isEtagc(tag, tag.indexOf('"') + 1, tag.length - 1)) return null;
    tags.push(tag);
    i = close + 1;
    while (i < n && (value[i] === ' ' || value[i] === '\t')) i++;
    if (i < n && value[i] !== ',') return null;
  }
}

// etagc = %x21 / %x23-7E / obs-text
function isEtagc(s, from, to) {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x21 || c === 0x7f || c > 0xff) return false;
  }
  return true;
}

module.exports = {
  evaluatePreconditions, ifRangeAllows, parseEntityTags, PROCEED, NOT_MODIFIED, PRECONDITION_FAILED,
};
