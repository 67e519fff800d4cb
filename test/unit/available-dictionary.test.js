'use strict';
// Available-Dictionary (RFC 9842 2.2, an RFC 9651 sf-binary SHA-256) and the cross-origin rule
// (RFC 9842 11): every row is a header (or headers) and the exact outcome; anything malformed is
// "no dictionary", never an error.

const test = require('node:test');
const assert = require('node:assert/strict');
const { parseAvailableDictionary, readableByRequester, requestedDictionary } = require('../../server/decision/available-dictionary');

const HASH = Buffer.alloc(32, 0xab);
const SF = `:${HASH.toString('base64')}:`;

// [value, hash or null]
const VALUES = [
  [SF, HASH],
  [`${SF};x=1`, HASH], // parameters are allowed on an item and ignored
  [` ${SF} `, HASH], // RFC 9651 4.2: surrounding spaces are stripped
  [undefined, null],
  ['', null],
  ['abc', null],
  [':AAAA:', null], // 3 bytes: not a SHA-256
  [`:${Buffer.alloc(33).toString('base64')}:`, null],
  [`"${HASH.toString('base64')}"`, null], // a string, not a byte sequence
  [`${SF}, ${SF}`, null], // a list, not an item
  [SF.slice(0, -1), null],
  [`:${HASH.toString('base64').replace(/=+$/, '')}:`, HASH], // RFC 9651 4.2.7: missing padding is accepted
  [`:${HASH.toString('base64url')}:`.replace('q', '-'), null], // base64url is not base64
  [`:${'A'.repeat(300)}:`, null], // oversized: not parsed
  [`${SF};p=1x`, null], // a malformed parameter makes the whole field invalid
];

test('parseAvailableDictionary', () => {
  for (const [value, expected] of VALUES) assert.deepEqual(parseAvailableDictionary(value), expected, String(value));
});

// [request headers, response headers, readable]
const READABLE = [
  [{}, null, true], // no Fetch metadata: not a browser's cross-origin request
  [{ 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'no-cors' }, null, true],
  [{ 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' }, null, true],
  [{ 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'no-cors' }, null, false],
  [{ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' }, { 'access-control-allow-origin': '*' }, false],
  [{ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors', 'origin': 'https://a.example' }, null, false],
  [{ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors', 'origin': 'https://a.example' }, { 'access-control-allow-origin': '*' }, true],
  [{ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors', 'origin': 'https://a.example' }, { 'access-control-allow-origin': 'https://a.example' }, true],
  [{ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors', 'origin': 'https://b.example' }, { 'access-control-allow-origin': 'https://a.example' }, false],
  [{ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' }, { 'access-control-allow-origin': 'https://a.example' }, false],
];

test('readableByRequester', () => {
  for (const [headers, response, expected] of READABLE) assert.equal(readableByRequester(headers, response), expected, JSON.stringify([headers, response]));
});

test('requestedDictionary needs a rule, TLS, a well-formed hash and a readable response', () => {
  const rule = { index: 0 };
  const headers = { 'available-dictionary': SF };
  assert.deepEqual(requestedDictionary(rule, true, headers, null), HASH);
  assert.equal(requestedDictionary(null, true, headers, null), null);
  assert.equal(requestedDictionary(rule, false, headers, null), null);
  assert.equal(requestedDictionary(rule, true, { 'available-dictionary': 'x' }, null), null);
  assert.equal(requestedDictionary(rule, true, { ...headers, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' }, null), null);
});
