'use strict';
// Single byte ranges (RFC 9110 section 14) as a pure function, in the manner of the
// `range-parser` package's tests: header and size in, the exact range, UNSATISFIABLE (416) or
// null (ignore the Range: full 200) out.

const test = require('node:test');
const assert = require('node:assert/strict');
const { parseRange, UNSATISFIABLE } = require('../../server/decision/range');

const U = UNSATISFIABLE;

// [Range, representation size, expected]
const RANGES = [
  ['bytes=0-9', 100, { start: 0, end: 9 }],
  ['bytes=0-0', 100, { start: 0, end: 0 }],
  ['bytes=99-99', 100, { start: 99, end: 99 }],
  ['bytes=10-', 100, { start: 10, end: 99 }],
  ['bytes=-20', 100, { start: 80, end: 99 }],
  ['bytes=-100', 100, { start: 0, end: 99 }],
  ['bytes=-500', 100, { start: 0, end: 99 }],
  ['bytes=5-500', 100, { start: 5, end: 99 }],
  ['Bytes=0-9', 100, { start: 0, end: 9 }],
  ['BYTES=0-9', 100, { start: 0, end: 9 }],
  ['bytes= 0-9 ', 100, { start: 0, end: 9 }],
  ['bytes=0 - 9', 100, { start: 0, end: 9 }],
  // 416
  ['bytes=100-', 100, U],
  ['bytes=100-200', 100, U],
  ['bytes=-0', 100, U],
  ['bytes=0-', 0, U],
  ['bytes=-5', 0, U],
  // Ignored: sent whole.
  ['bytes=9-2', 100, null],
  ['bytes=0-1,5-6', 100, null],
  ['bytes=0-1,', 100, null],
  ['items=0-1', 100, null],
  ['bytes 0-1', 100, null],
  ['bytes=', 100, null],
  ['bytes=-', 100, null],
  ['bytes=abc', 100, null],
  ['bytes=1-abc', 100, null],
  ['bytes=+1-2', 100, null],
  ['bytes=0x1-2', 100, null],
  ['bytes=1.5-2', 100, null],
  ['bytes=1--2', 100, null],
  ['bytes=1234567890123456-', 100, null],
  ['', 100, null],
];

test('parseRange table', () => {
  for (const [header, size, expected] of RANGES) {
    assert.deepEqual(parseRange(header, size), expected, `${JSON.stringify(header)} of ${size}`);
  }
});
