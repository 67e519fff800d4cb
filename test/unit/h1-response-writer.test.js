'use strict';
// Response heads as bytes: status line, the descriptor's fields in order, Date, framing and
// Connection; fields that could split the head are refused.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { formatHead, wholeResponse, chunkPrefix } = require('../../server/engines/h1/response-writer');

const DATE = /date: \w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT\r\n/;

const HEADS = [
  ['keep-alive HTTP/1.1', [200, { 'content-length': '2', 'etag': '"x"' }, false, null], 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\netag: "x"\r\n', ''],
  ['chunked, closing', [200, { 'content-type': 'text/plain' }, true, 'close'], 'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n', 'transfer-encoding: chunked\r\nconnection: close\r\n'],
  ['HTTP/1.0 keep-alive', [304, { 'etag': '"x"' }, false, 'keep-alive'], 'HTTP/1.1 304 Not Modified\r\netag: "x"\r\n', 'connection: keep-alive\r\n'],
  ['unknown status', [299, {}, false, null], 'HTTP/1.1 299 Unknown\r\n', ''],
];

for (const [name, args, start, end] of HEADS) {
  test(`formatHead: ${name}`, () => {
    const head = formatHead(...args);
    assert.ok(head.startsWith(start), head);
    const rest = head.slice(start.length);
    assert.match(rest, DATE);
    assert.equal(rest.replace(DATE, ''), `${end}\r\n`);
  });
}

test('the same header object is serialised once and reused', () => {
  const headers = { 'content-length': '1' };
  const first = formatHead(200, headers, false, null);
  headers['content-length'] = '999'; // prebuilt objects never change; a changed one is not re-read
  assert.equal(formatHead(200, headers, false, null), first);
});

for (const [name, headers] of [
  ['CRLF in a value', { 'location': '/a\r\nset-cookie: x=1' }],
  ['LF in a value', { 'location': '/a\nx' }],
  ['NUL in a value', { 'x': 'a\0b' }],
  ['a name with a space', { 'bad name': 'v' }],
  ['a name with a colon', { 'a:b': 'v' }],
]) {
  test(`formatHead refuses ${name}`, () => assert.throws(() => formatHead(200, headers, false, null), /refusing to send header/));
}

test('wholeResponse: the head and the body in one Buffer, kept for a persistent connection until the Date second turns', (t) => {
  t.mock.timers.enable({ apis: ['Date'], now: 1_800_000_000_100 });
  const body = Buffer.from('hello');
  const d = { status: 200, headers: { 'content-length': '5' }, body };
  const first = wholeResponse(d, body, null);
  assert.equal(first.toString('latin1'), 'HTTP/1.1 200 OK\r\ncontent-length: 5\r\ndate: Fri, 15 Jan 2027 08:00:00 GMT\r\n\r\nhello');
  t.mock.timers.tick(800);
  assert.equal(wholeResponse(d, body, null), first);
  t.mock.timers.tick(100);
  const next = wholeResponse(d, body, null);
  assert.notEqual(next, first);
  assert.equal(next.toString('latin1'), 'HTTP/1.1 200 OK\r\ncontent-length: 5\r\ndate: Fri, 15 Jan 2027 08:00:01 GMT\r\n\r\nhello');
  // A closing or HTTP/1.0 response says so, and is not kept.
  const closing = wholeResponse(d, body, 'close');
  assert.equal(closing.toString('latin1'), 'HTTP/1.1 200 OK\r\ncontent-length: 5\r\ndate: Fri, 15 Jan 2027 08:00:01 GMT\r\nconnection: close\r\n\r\nhello');
  assert.notEqual(wholeResponse(d, body, 'close'), closing);
  assert.equal(wholeResponse({ ...d, body: null }, null, null).toString('latin1'), 'HTTP/1.1 200 OK\r\ncontent-length: 5\r\ndate: Fri, 15 Jan 2027 08:00:01 GMT\r\n\r\n');
});

test('chunkPrefix is the size in hex', () => {
  assert.deepEqual([1, 255, 16384].map(chunkPrefix), ['1\r\n', 'ff\r\n', '4000\r\n']);
});
