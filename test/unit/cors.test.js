'use strict';
// server/decision/cors.js: which requests are preflights, what a preflight gets, and the header
// every response gets under --cors, shared like the prebuilt descriptors it decorates.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { isPreflight, preflight, allowAnyOrigin } = require('../../server/decision/cors');
const { createRepresentation, response } = require('../../server/decision/representation');

// [method, headers, a preflight]
const PREFLIGHTS = [
  ['OPTIONS', { 'origin': 'https://a.example', 'access-control-request-method': 'GET' }, true],
  ['OPTIONS', { 'origin': 'null', 'access-control-request-method': 'PUT' }, true],
  ['OPTIONS', { 'origin': 'https://a.example' }, false],
  ['OPTIONS', { 'access-control-request-method': 'GET' }, false],
  ['OPTIONS', {}, false],
  ['GET', { 'origin': 'https://a.example', 'access-control-request-method': 'GET' }, false],
];

test('a preflight is OPTIONS with Origin and Access-Control-Request-Method (Fetch)', () => {
  for (const [method, headers, expected] of PREFLIGHTS) assert.equal(isPreflight(method, headers), expected, `${method} ${JSON.stringify(headers)}`);
});

// [Access-Control-Request-Headers, Access-Control-Allow-Headers]
const ALLOW_HEADERS = [
  [undefined, undefined],
  ['', undefined],
  ['if-none-match', 'if-none-match'],
  ['x-a, range, authorization', 'x-a, range, authorization'],
];

test('a preflight gets 204, GET and HEAD, a max age, and the headers it asked for', () => {
  for (const [requested, allowed] of ALLOW_HEADERS) {
    const d = preflight({ 'origin': 'https://a.example', 'access-control-request-method': 'GET', 'access-control-request-headers': requested });
    assert.equal(d.status, 204);
    assert.equal(d.body, null);
    assert.deepEqual(d.headers, {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD',
      'access-control-max-age': '7200',
      ...(allowed !== undefined ? { 'access-control-allow-headers': allowed } : {}),
    });
  }
});

const rep = (extraHeaders = null) => createRepresentation({
  coding: 'identity', source: 'identity', size: 3, etag: '"x"', lastModified: 'Thu, 01 Jan 2026 00:00:00 GMT',
  contentType: 'text/plain', cacheControl: 'no-cache', extraHeaders, bytes: Buffer.from('abc'), path: null, stat: null, rangeable: true,
});

test('every response gets Access-Control-Allow-Origin: *, one shared copy per prebuilt descriptor', () => {
  const r = rep();
  const ok = allowAnyOrigin(r.ok);
  assert.equal(ok.headers['access-control-allow-origin'], '*');
  assert.equal(ok.h2['access-control-allow-origin'], '*');
  assert.equal(ok.h2[':status'], 200);
  assert.equal(ok.body, r.ok.body);
  assert.equal(r.ok.headers['access-control-allow-origin'], undefined, 'the original is left as it was');
  assert.equal(allowAnyOrigin(r.ok), ok, 'the same copy each time: the engines cache heads by it');
  assert.equal(allowAnyOrigin(r.head).headers, ok.headers, 'GET and HEAD share their headers, and so do their copies');
  const streamed = allowAnyOrigin({ ...r.ok, body: null });
  assert.equal(streamed.h2, ok.h2);
  const text = allowAnyOrigin(response(404, { 'content-type': 'text/plain' }, Buffer.from('x')));
  assert.deepEqual([text.status, text.h2, text.headers['access-control-allow-origin']], [404, null, '*']);
});

test('a site header rule that sets Access-Control-Allow-Origin wins', () => {
  const r = rep({ 'access-control-allow-origin': 'https://only.example' });
  assert.equal(allowAnyOrigin(r.ok), r.ok);
});
