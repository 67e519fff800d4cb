'use strict';
// Preconditions (RFC 9110 section 13) as pure functions: every row is request headers against
// a representation and the exact outcome, in the manner of the `fresh` package's tests.

const test = require('node:test');
const assert = require('node:assert/strict');
const {
  evaluatePreconditions, ifRangeAllows, parseEntityTags, PROCEED, NOT_MODIFIED, PRECONDITION_FAILED,
} = require('../../server/decision/conditional');
const { parseHttpDate } = require('../../server/http/http-date');

const LM = Date.UTC(2024, 0, 15, 12, 0, 0);
const AT = 'Mon, 15 Jan 2024 12:00:00 GMT';
const BEFORE = 'Mon, 15 Jan 2024 11:59:59 GMT';
const AFTER = 'Mon, 15 Jan 2024 12:00:01 GMT';
const STRONG = { etag: '"abc"', lastModifiedMs: LM };
const WEAK = { etag: 'W/"abc-gzip"', lastModifiedMs: LM };

const OK = PROCEED;
const NM = NOT_MODIFIED;
const PF = PRECONDITION_FAILED;

// [label, representation, headers, outcome]
const PRECONDITIONS = [
  ['no preconditions', STRONG, {}, OK],
  // If-Match: strong comparison.
  ['If-Match same tag', STRONG, { 'if-match': '"abc"' }, OK],
  ['If-Match other tag', STRONG, { 'if-match': '"xyz"' }, PF],
  ['If-Match in a list', STRONG, { 'if-match': '"x", "abc"' }, OK],
  ['If-Match list without OWS', STRONG, { 'if-match': '"x","abc"' }, OK],
  ['If-Match empty members', STRONG, { 'if-match': ', ,"abc" ,' }, OK],
  ['If-Match weak form of the tag', STRONG, { 'if-match': 'W/"abc"' }, PF],
  ['If-Match on a weak representation', WEAK, { 'if-match': 'W/"abc-gzip"' }, PF],
  ['If-Match opaque part of a weak tag', WEAK, { 'if-match': '"abc-gzip"' }, PF],
  ['If-Match *', STRONG, { 'if-match': '*' }, OK],
  ['If-Match * on a weak representation', WEAK, { 'if-match': '*' }, OK],
  ['If-Match unquoted', STRONG, { 'if-match': 'abc' }, PF],
  ['If-Match unterminated', STRONG, { 'if-match': '"abc' }, PF],
  ['If-Match case matters', STRONG, { 'if-match': '"ABC"' }, PF],
  ['If-Match tag with a comma inside', { etag: '"a,b"', lastModifiedMs: LM }, { 'if-match': '"x", "a,b"' }, OK],
  ['If-Match fragments of a comma tag', { etag: '"a"', lastModifiedMs: LM }, { 'if-match': '"a,b"' }, PF],
  // If-Unmodified-Since: only without If-Match.
  ['If-Unmodified-Since equal', STRONG, { 'if-unmodified-since': AT }, OK],
  ['If-Unmodified-Since later', STRONG, { 'if-unmodified-since': AFTER }, OK],
  ['If-Unmodified-Since earlier', STRONG, { 'if-unmodified-since': BEFORE }, PF],
  ['If-Unmodified-Since invalid date ignored', STRONG, { 'if-unmodified-since': 'yesterday' }, OK],
  ['If-Unmodified-Since list ignored', STRONG, { 'if-unmodified-since': `${BEFORE}, ${BEFORE}` }, OK],
  ['If-Unmodified-Since bare year ignored', STRONG, { 'if-unmodified-since': '2000' }, OK],
  ['If-Match true wins over a false If-Unmodified-Since', STRONG, { 'if-match': '"abc"', 'if-unmodified-since': BEFORE }, OK],
  ['If-Match false with a true If-Unmodified-Since', STRONG, { 'if-match': '"x"', 'if-unmodified-since': AFTER }, PF],
  // If-None-Match: weak comparison.
  ['If-None-Match same tag', STRONG, { 'if-none-match': '"abc"' }, NM],
  ['If-None-Match weak form', STRONG, { 'if-none-match': 'W/"abc"' }, NM],
  ['If-None-Match on a weak representation', WEAK, { 'if-none-match': 'W/"abc-gzip"' }, NM],
  ['If-None-Match strong form of a weak tag', WEAK, { 'if-none-match': '"abc-gzip"' }, NM],
  ['If-None-Match other tag', STRONG, { 'if-none-match': '"xyz"' }, OK],
  ['If-None-Match in a list', WEAK, { 'if-none-match': '"x", W/"abc-gzip", "y"' }, NM],
  ['If-None-Match *', STRONG, { 'if-none-match': '*' }, NM],
  ['If-None-Match malformed', STRONG, { 'if-none-match': '"abc" junk' }, OK],
  ['If-None-Match empty', STRONG, { 'if-none-match': '' }, OK],
  // If-Modified-Since: only without If-None-Match.
  ['If-Modified-Since equal', STRONG, { 'if-modified-since': AT }, NM],
  ['If-Modified-Since later', STRONG, { 'if-modified-since': AFTER }, NM],
  ['If-Modified-Since earlier', STRONG, { 'if-modified-since': BEFORE }, OK],
  ['If-Modified-Since invalid', STRONG, { 'if-modified-since': 'garbage' }, OK],
  ['If-Modified-Since rfc850', STRONG, { 'if-modified-since': 'Monday, 15-Jan-24 12:00:00 GMT' }, NM],
  ['If-Modified-Since asctime', STRONG, { 'if-modified-since': 'Mon Jan 15 12:00:00 2024' }, NM],
  ['If-None-Match mismatch overrides If-Modified-Since', STRONG, { 'if-none-match': '"x"', 'if-modified-since': AT }, OK],
  ['If-None-Match match with old If-Modified-Since', STRONG, { 'if-none-match': '"abc"', 'if-modified-since': BEFORE }, NM],
  // Order of 13.2.2: 412 is decided before 304.
  ['If-Match false before If-None-Match', STRONG, { 'if-match': '"x"', 'if-none-match': '"abc"' }, PF],
  ['If-Unmodified-Since false before If-None-Match', STRONG, { 'if-unmodified-since': BEFORE, 'if-none-match': '"abc"' }, PF],
  ['If-Unmodified-Since false before If-Modified-Since', STRONG, { 'if-unmodified-since': BEFORE, 'if-modified-since': AT }, PF],
  ['If-Match true then If-None-Match true', STRONG, { 'if-match': '"abc"', 'if-none-match': '"abc"' }, NM],
  ['If-Match * then If-None-Match *', STRONG, { 'if-match': '*', 'if-none-match': '*' }, NM],
  ['If-Unmodified-Since true then If-Modified-Since true', STRONG, { 'if-unmodified-since': AT, 'if-modified-since': AT }, NM],
];

test('evaluatePreconditions: RFC 9110 13.2.2 table', () => {
  for (const [label, rep, headers, outcome] of PRECONDITIONS) {
    assert.equal(evaluatePreconditions(headers, rep), outcome, label);
  }
});

// [label, representation, If-Range value (undefined = absent), Range applies]
const IF_RANGE = [
  ['absent', STRONG, undefined, true],
  ['same strong tag', STRONG, '"abc"', true],
  ['same strong tag with OWS', STRONG, ' "abc" ', true],
  ['other tag', STRONG, '"xyz"', false],
  ['weak form of the tag', STRONG, 'W/"abc"', false],
  ['weak representation, its own tag', WEAK, 'W/"abc-gzip"', false],
  ['weak representation, opaque part', WEAK, '"abc-gzip"', false],
  ['a list is not an If-Range value', STRONG, '"abc", "abc"', false],
  ['* is not an If-Range value', STRONG, '*', false],
  ['date equal to Last-Modified', STRONG, AT, true],
  ['date later than Last-Modified', STRONG, AFTER, false],
  ['date earlier than Last-Modified', STRONG, BEFORE, false],
  ['date on a weak representation', WEAK, AT, false],
  ['garbage', STRONG, 'garbage', false],
];

test('ifRangeAllows: strong comparison only (13.1.5)', () => {
  for (const [label, rep, value, allowed] of IF_RANGE) {
    assert.equal(ifRangeAllows(value, rep), allowed, label);
  }
});

// [value, tags or null]
const ENTITY_TAGS = [
  ['"a"', ['"a"']],
  ['W/"a"', ['W/"a"']],
  ['"a", W/"b",,"c"', ['"a"', 'W/"b"', '"c"']],
  ['""', ['""']],
  ['"a,b"', ['"a,b"']],
  ['', []],
  [' , ', []],
  ['a', null],
  ['"a" "b"', null],
  ['w/"a"', null],
  ['W/ "a"', null],
  ['"a b"', null],
  ['"a\u0001"', null],
  ['"caf\u00e9"', ['"caf\u00e9"']],
];

test('parseEntityTags', () => {
  for (const [value, tags] of ENTITY_TAGS) assert.deepEqual(parseEntityTags(value), tags, JSON.stringify(value));
});

// [value, ms or null]
const DATES = [
  [AT, LM],
  ['Sun, 06 Nov 1994 08:49:37 GMT', Date.UTC(1994, 10, 6, 8, 49, 37)],
  ['Sunday, 06-Nov-94 08:49:37 GMT', Date.UTC(1994, 10, 6, 8, 49, 37)],
  ['Sun Nov  6 08:49:37 1994', Date.UTC(1994, 10, 6, 8, 49, 37)],
  ['Thursday, 01-Jan-70 00:00:00 GMT', Date.UTC(2070, 0, 1)],
  ['Thursday, 01-Jan-77 00:00:00 GMT', Date.UTC(1977, 0, 1)],
  ['Sun, 06 Nov 1994 08:49:37 UTC', null],
  ['Sun, 6 Nov 1994 08:49:37 GMT', null],
  ['Sun, 31 Feb 1994 08:49:37 GMT', null],
  ['Sun, 06 Nov 1994 24:00:00 GMT', null],
  ['sun, 06 nov 1994 08:49:37 gmt', null],
  ['1994-11-06T08:49:37Z', null],
  ['2024', null],
  ['1', null],
  ['', null],
  [undefined, null],
  [`${AT}, ${AT}`, null],
];

test('parseHttpDate: the three forms of RFC 9110 5.6.7, nothing else', () => {
  for (const [value, ms] of DATES) assert.equal(parseHttpDate(value, 2026), ms, String(value));
});
