'use strict';
// RFC 9114 4.2 and 4.3.1 through the rules HTTP/2 shares: what a request's fields become, and
// the H3_MESSAGE_ERROR each malformed one gets.

const test = require('node:test');
const assert = require('node:assert/strict');
const { readRequest, checkRequestTrailers } = require('../../server/engines/h3/request-headers');
const { errorName } = require('../../server/engines/h3/errors');

const BASE = [[':method', 'GET'], [':scheme', 'https'], [':authority', 'example.com'], [':path', '/a?b']];

test('a request becomes the header object the core takes', () => {
  const { headers, contentLength, listSize } = readRequest(0, [...BASE, ['accept', 'text/html'], ['cookie', 'a=1'], ['cookie', 'b=2'], ['te', 'trailers']]);
  assert.deepEqual(headers, { ':method': 'GET', ':scheme': 'https', ':authority': 'example.com', ':path': '/a?b', accept: 'text/html', cookie: 'a=1; b=2', te: 'trailers' });
  assert.equal(contentLength, -1);
  assert.equal(listSize, [...BASE, ['accept', 'text/html'], ['cookie', 'a=1'], ['cookie', 'b=2'], ['te', 'trailers']].reduce((n, [a, b]) => n + a.length + b.length + 32, 0));
  assert.equal(readRequest(4, [...BASE.filter(([n]) => n !== ':authority'), ['host', 'example.com']]).headers.host, 'example.com');
  assert.equal(readRequest(8, [...BASE, ['content-length', '12']]).contentLength, 12);
});

const MALFORMED = [
  ['an uppercase name', [...BASE, ['Accept', 'x']]],
  ['connection', [...BASE, ['connection', 'close']]],
  ['keep-alive', [...BASE, ['keep-alive', '5']]],
  ['transfer-encoding', [...BASE, ['transfer-encoding', 'chunked']]],
  ['upgrade', [...BASE, ['upgrade', 'h2c']]],
  ['te: gzip', [...BASE, ['te', 'gzip']]],
  ['no :method', BASE.slice(1)],
  ['no :scheme', BASE.filter(([n]) => n !== ':scheme')],
  ['no :path', BASE.filter(([n]) => n !== ':path')],
  ['no :authority nor host', BASE.filter(([n]) => n !== ':authority')],
  ['a duplicate :method', [[':method', 'GET'], ...BASE]],
  ['an unknown pseudo-header', [...BASE, [':protocol', 'websocket']].slice(0).sort(() => 0)],
  ['a pseudo-header after a field', [...BASE.slice(0, 3), ['accept', 'x'], BASE[3]]],
  ['an empty :path', [...BASE.slice(0, 3), [':path', '']]],
  ['a bad content-length', [...BASE, ['content-length', '1x']]],
  ['host unlike :authority', [...BASE, ['host', 'other.example']]],
  ['a value with a NUL', [...BASE, ['x-a', 'a\0b']]],
];

for (const [what, fields] of MALFORMED) {
  test(`malformed: ${what} -> H3_MESSAGE_ERROR on its stream`, () => {
    assert.throws(() => readRequest(12, fields), (err) => errorName(err.code) === 'H3_MESSAGE_ERROR' && err.streamId === 12);
  });
}

test('trailers: regular fields only', () => {
  checkRequestTrailers(0, [['x-checksum', 'abc']]);
  assert.throws(() => checkRequestTrailers(0, [[':path', '/']]), (err) => errorName(err.code) === 'H3_MESSAGE_ERROR');
  assert.throws(() => checkRequestTrailers(0, [['connection', 'close']]), (err) => errorName(err.code) === 'H3_MESSAGE_ERROR');
});
