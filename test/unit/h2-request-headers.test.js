'use strict';
// RFC 9113 8.2/8.3 request validation of the native engine, table-driven: every malformed
// list throws the StreamError (PROTOCOL_ERROR, on its stream) that resets it, every valid one
// gives the header object the core gets.

const test = require('node:test');
const assert = require('node:assert/strict');
const { readRequestHeaders, checkTrailers } = require('../../server/engines/h2/request-headers');
const { ERROR, StreamError } = require('../../server/engines/h2/errors');

const BASE = [[':method', 'GET'], [':scheme', 'https'], [':authority', 'example.com'], [':path', '/']];

// The request, or the message of the StreamError thrown (checked to reset stream 5 with PROTOCOL_ERROR).
function read(fields) {
  try {
    return readRequestHeaders(5, fields);
  } catch (err) {
    assert.ok(err instanceof StreamError);
    assert.deepEqual([err.streamId, err.code], [5, ERROR.PROTOCOL_ERROR]);
    return err.message;
  }
}

const malformed = [
  ['uppercase field name', [...BASE, ['Accept', '*/*']], /invalid field name/],
  ['empty field name', [...BASE, ['', 'x']], /invalid field name/],
  ['space in a field name', [...BASE, ['x y', 'z']], /invalid field name/],
  ['colon inside a regular name', [...BASE, ['x:y', 'z']], /invalid field name/],
  ['NUL in a value', [...BASE, ['x', 'a\0b']], /invalid value/],
  ['CR in a value', [...BASE, ['x', 'a\rb']], /invalid value/],
  ['LF in a value', [...BASE, ['x', 'a\nb']], /invalid value/],
  ['leading space in a value', [...BASE, ['x', ' a']], /invalid value/],
  ['trailing tab in a value', [...BASE, ['x', 'a\t']], /invalid value/],
  ['LF in a pseudo-header value', [[':method', 'GET'], [':scheme', 'https'], [':path', '/\n']], /invalid value of :path/],
  ['connection', [...BASE, ['connection', 'close']], /connection-specific/],
  ['keep-alive', [...BASE, ['keep-alive', '5']], /connection-specific/],
  ['proxy-connection', [...BASE, ['proxy-connection', 'x']], /connection-specific/],
  ['transfer-encoding', [...BASE, ['transfer-encoding', 'chunked']], /connection-specific/],
  ['upgrade', [...BASE, ['upgrade', 'h2c']], /connection-specific/],
  ['te other than trailers', [...BASE, ['te', 'trailers, deflate']], /te other than trailers/],
  ['pseudo-header after a regular field', [[':method', 'GET'], ['accept', '*/*'], [':scheme', 'https'], [':path', '/']], /after a regular field/],
  ['unknown pseudo-header', [...BASE, [':foo', 'bar']], /not allowed/],
  ['response pseudo-header', [...BASE, [':status', '200']], /not allowed/],
  [':protocol without extended CONNECT', [...BASE, [':protocol', 'websocket']], /not allowed/],
  ['duplicate :method', [[':method', 'GET'], [':method', 'GET'], [':scheme', 'https'], [':path', '/']], /duplicate :method/],
  ['duplicate :path', [...BASE, [':path', '/']], /duplicate :path/],
  ['missing :method', [[':scheme', 'https'], [':path', '/']], /missing :method/],
  ['a :method that is not a token', [[':method', 'G\x1bT'], [':scheme', 'https'], [':path', '/']], /invalid :method/],
  ['missing :scheme', [[':method', 'GET'], [':path', '/']], /missing :scheme/],
  ['missing :path', [[':method', 'GET'], [':scheme', 'https']], /:path/],
  ['empty :path', [[':method', 'GET'], [':scheme', 'https'], [':path', '']], /:path/],
  ...[['ESC', '\x1b[31m'], ['BEL', '\x07'], ['OSC', '\x1b]0;title\x07'], ['DEL', '\x7f'], ['SP', ' '], ['HTAB', '\t'], ['0x80', '\x80'], ['0xFF', '\xff']]
    .map(([what, bytes]) => [`${what} in :path`, [[':method', 'GET'], [':scheme', 'https'], [':path', `/a${bytes}b`]], /invalid character in :path/]),
  ['CONNECT with :path', [[':method', 'CONNECT'], [':authority', 'a:443'], [':path', '/']], /CONNECT/],
  ['CONNECT without :authority', [[':method', 'CONNECT']], /CONNECT without :authority/],
  ['host unlike :authority', [...BASE, ['host', 'other.example']], /host differs/],
  ['content-length not a number', [...BASE, ['content-length', '1x']], /invalid content-length/],
  ['content-length negative', [...BASE, ['content-length', '-1']], /invalid content-length/],
  ['two different content-lengths', [...BASE, ['content-length', '1'], ['content-length', '2']], /conflicting/],
];

for (const [name, fields, reason] of malformed) {
  test(`malformed: ${name}`, () => {
    const result = read(fields);
    assert.equal(typeof result, 'string', 'must be rejected');
    assert.match(result, reason);
  });
}

test('a valid request becomes the header object node:http2 would give', () => {
  const fields = [
    ...BASE,
    ['cookie', 'a=1'], ['accept', 'text/html'], ['cookie', 'b=2'], ['accept', '*/*'],
    ['te', 'trailers'], ['content-length', '0'], ['host', 'example.com'], ['x-empty', ''],
  ];
  const result = read(fields);
  assert.equal(typeof result, 'object');
  assert.deepEqual(result.headers, {
    ':method': 'GET', ':scheme': 'https', ':authority': 'example.com', ':path': '/',
    'cookie': 'a=1; b=2', 'accept': 'text/html, */*', 'te': 'trailers', 'content-length': '0',
    'host': 'example.com', 'x-empty': '',
  });
  assert.equal(result.contentLength, 0);
  // RFC 9113 6.5.2: name and value octets plus 32 per field.
  assert.equal(result.listSize, fields.reduce((n, [k, v]) => n + k.length + v.length + 32, 0));
});

const valid = [
  ['OPTIONS *', [[':method', 'OPTIONS'], [':scheme', 'https'], [':path', '*']]],
  ['CONNECT with :authority only', [[':method', 'CONNECT'], [':authority', 'example.com:443']]],
  ['no :authority (HTTP/1.1-style host)', [[':method', 'GET'], [':scheme', 'https'], [':path', '/'], ['host', 'x']]],
  ['__proto__ as a field name', [...BASE, ['__proto__', 'x']]],
  ['tokens with symbols', [...BASE, ["x-a!#$%&'*+-.^_`|~9", 'v']]],
  ['value with inner spaces and obs-text', [...BASE, ['x', 'a b\t\u00ff c']]],
  ['no content-length', BASE],
  ['te: Trailers (values compare case-insensitively)', [...BASE, ['te', 'Trailers']]],
];

for (const [name, fields] of valid) {
  test(`valid: ${name}`, () => {
    const result = read(fields);
    assert.equal(typeof result, 'object', `rejected: ${result}`);
    assert.equal(result.contentLength, -1);
  });
}

test('fields named like Object.prototype members are own string properties', () => {
  const result = read([...BASE, ['__proto__', 'a'], ['constructor', 'b'], ['constructor', 'c']]);
  assert.equal(Object.getPrototypeOf(result.headers), Object.prototype, 'the prototype is untouched');
  assert.equal(result.headers.__proto__ === Object.prototype, false);
  assert.deepEqual(Object.getOwnPropertyDescriptor(result.headers, '__proto__').value, 'a');
  assert.equal(result.headers.constructor, 'b, c');
  assert.equal(result.headers.range, undefined);
});

test('trailers: regular fields only, with END_STREAM', () => {
  assert.equal(checkTrailers(7, [['x-checksum', 'abc']], true), undefined);
  for (const [fields, endStream, message] of [
    [[[':path', '/']], true, 'stream 7 PROTOCOL_ERROR: malformed trailers: pseudo-header :path'],
    [[['X-Up', '1']], true, 'stream 7 PROTOCOL_ERROR: malformed trailers: invalid field name "X-Up"'],
    [[['connection', 'close']], true, 'stream 7 PROTOCOL_ERROR: malformed trailers: connection-specific field connection'],
    [[['x-checksum', 'abc']], false, 'stream 7 PROTOCOL_ERROR: malformed trailers: no END_STREAM'],
  ]) {
    assert.throws(() => checkTrailers(7, fields, endStream), (err) => err instanceof StreamError && err.message === message);
  }
});

test('what the client sent is named escaped, never raw', () => {
  assert.match(read([...BASE, ['x\x1b]0;t\x07', 'v']]), /invalid field name "x\\x1B\]0;t\\x07"$/);
  assert.match(read([...BASE, [':\x1b[2J', 'v']]), /pseudo-header :\\x1B\[2J not allowed/);
});
