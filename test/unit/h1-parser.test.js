'use strict';
// The HTTP/1.1 request-head parser as a pure function of bytes: accepted heads with their
// fields, refused ones with the exact status, the same results whatever the chunking, and the
// size limits.

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { RequestParser, MAX_HEAD_BYTES } = require('../../server/engines/h1/request-parser');
const { RequestError } = require('../../server/errors');
const { MAX_PATH_LENGTH } = require('../../server/http/request-path');

const H = 'Host: example.com\r\n';

// Feeds `input` (a string, latin1) in chunks of `chunkSize` bytes; returns every result next()
// gives until it needs more or fails: requests as plain objects, errors as { status }.
function parseAll(input, chunkSize = Infinity) {
  const parser = new RequestParser();
  const bytes = Buffer.from(input, 'latin1');
  const out = [];
  for (let i = 0; i < bytes.length; i += Math.min(chunkSize, bytes.length)) {
    parser.push(bytes.subarray(i, i + chunkSize));
    for (let r = parser.next(); r !== null; r = parser.next()) {
      if (r instanceof RequestError) {
        out.push({ status: r.status });
        return out;
      }
      out.push({ ...r, headers: { ...r.headers } });
    }
  }
  return out;
}

const ACCEPTED = [
  ['origin-form GET', `GET /a?b=c HTTP/1.1\r\n${H}\r\n`, { method: 'GET', target: '/a?b=c', path: '/a?b=c', version: '1.1', keepAlive: true }],
  ['HEAD', `HEAD / HTTP/1.1\r\n${H}\r\n`, { method: 'HEAD', path: '/' }],
  ['known method other than GET/HEAD', `DELETE /x HTTP/1.1\r\n${H}\r\n`, { method: 'DELETE' }],
  ['asterisk-form', `OPTIONS * HTTP/1.1\r\n${H}\r\n`, { target: '*', path: '*' }],
  ['absolute-form for the Host origin', `GET https://Example.com/p?q HTTP/1.1\r\n${H}\r\n`, { target: 'https://Example.com/p?q', path: '/p?q' }],
  ['absolute-form with empty path', `GET http://example.com?q HTTP/1.1\r\n${H}\r\n`, { path: '/?q' }],
  ['HTTP/1.0 without Host closes', 'GET / HTTP/1.0\r\n\r\n', { version: '1.0', keepAlive: false }],
  ['HTTP/1.0 keep-alive', 'GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n', { keepAlive: true }],
  ['HTTP/1.1 Connection: close', `GET / HTTP/1.1\r\n${H}Connection: foo, CLOSE\r\n\r\n`, { keepAlive: false }],
  ['names lowercased, OWS trimmed', `GET / HTTP/1.1\r\n${H}X-A:\t v w \t\r\n\r\n`, { headers: { 'host': 'example.com', 'x-a': 'v w' } }],
  ['common names in any case, and near misses', `GET / HTTP/1.1\r\nhOsT: example.com\r\nACCEPT-encoding: br\r\nAccept-Encodinh: x\r\nTe: t\r\nRange_: r\r\n\r\n`,
    { headers: { 'host': 'example.com', 'accept-encoding': 'br', 'accept-encodinh': 'x', 'te': 't', 'range_': 'r' } }],
  ['repeats joined, cookie with ;', `GET / HTTP/1.1\r\n${H}Cookie: a=1\r\nX: 1\r\ncookie: b=2\r\nx: 2\r\n\r\n`, { headers: { 'host': 'example.com', 'cookie': 'a=1; b=2', 'x': '1, 2' } }],
  ['obs-text in a value', `GET / HTTP/1.1\r\n${H}X: \xe9\r\n\r\n`, { headers: { 'host': 'example.com', 'x': '\xe9' } }],
  ['empty value', `GET / HTTP/1.1\r\n${H}X:\r\n\r\n`, { headers: { 'host': 'example.com', 'x': '' } }],
  ['Content-Length: 0', `GET / HTTP/1.1\r\n${H}Content-Length: 000\r\n\r\n`, { method: 'GET' }],
  ['HTAB before a Content-Length', `GET / HTTP/1.1\r\n${H}Content-Length:\t 0 \r\n\r\n`, { method: 'GET' }],
  ['leading empty lines', `\r\n\n\r\nGET / HTTP/1.1\r\n${H}\r\n`, { method: 'GET' }],
  ['runs of SP in the request line', `GET   /   HTTP/1.1\r\n${H}\r\n`, { target: '/' }],
  ['a __proto__ field is just a field', `GET / HTTP/1.1\r\n${H}__proto__: x\r\n__proto__: y\r\n\r\n`, { headers: { 'host': 'example.com', ['__proto__']: 'x, y' } }],
  ['so is constructor', `GET / HTTP/1.1\r\n${H}Constructor: x\r\n\r\n`, { headers: { 'host': 'example.com', 'constructor': 'x' } }],
  ['Host with port and IPv6 literal', 'GET / HTTP/1.1\r\nHost: [::1]:8443\r\n\r\n', { headers: { host: '[::1]:8443' } }],
];

const REFUSED = [
  ['lowercase method', `get / HTTP/1.1\r\n${H}\r\n`, 501],
  ['unknown method', `FOO / HTTP/1.1\r\n${H}\r\n`, 501],
  ['CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 501],
  ['method with a non-token char', `G(T / HTTP/1.1\r\n${H}\r\n`, 400],
  ['HTTP/2.0', `GET / HTTP/2.0\r\n${H}\r\n`, 505],
  ['HTTP/0.9 version', `GET / HTTP/0.9\r\n${H}\r\n`, 505],
  ['no version (HTTP/0.9)', 'GET /\r\n\r\n', 400],
  ['lowercase version', `GET / http/1.1\r\n${H}\r\n`, 400],
  ['trailing SP after version', `GET / HTTP/1.1 \r\n${H}\r\n`, 400],
  ['HTAB in the request line', `GET\t/ HTTP/1.1\r\n${H}\r\n`, 400],
  ['relative target', `GET a HTTP/1.1\r\n${H}\r\n`, 400],
  ['CTL in target', `GET /\x01 HTTP/1.1\r\n${H}\r\n`, 400],
  ['non-ASCII in target', `GET /\xe9 HTTP/1.1\r\n${H}\r\n`, 400],
  ['ESC in target', `GET /\x1b[31m HTTP/1.1\r\n${H}\r\n`, 400],
  ['OSC in target', `GET /\x1b]0;title\x07 HTTP/1.1\r\n${H}\r\n`, 400],
  ['DEL in target', `GET /\x7f HTTP/1.1\r\n${H}\r\n`, 400],
  ['absolute-form for another origin', `GET https://other.example/ HTTP/1.1\r\n${H}\r\n`, 400],
  ['absolute-form, fragment right after the authority', `GET https://example.com#/a HTTP/1.1\r\n${H}\r\n`, 400],
  ['absolute-form, ftp scheme', `GET ftp://example.com/ HTTP/1.1\r\n${H}\r\n`, 400],
  ['no Host in HTTP/1.1', 'GET / HTTP/1.1\r\n\r\n', 400],
  ['two Hosts', `GET / HTTP/1.1\r\n${H}${H}\r\n`, 400],
  ['two Hosts in HTTP/1.0', `GET / HTTP/1.0\r\n${H}${H}\r\n`, 400],
  ['Host with a path', 'GET / HTTP/1.1\r\nHost: a/b\r\n\r\n', 400],
  ['Host with userinfo', 'GET / HTTP/1.1\r\nHost: u@a\r\n\r\n', 400],
  ['space before colon', `GET / HTTP/1.1\r\n${H}X : y\r\n\r\n`, 400],
  ['obs-fold', `GET / HTTP/1.1\r\n${H}X: y\r\n z\r\n\r\n`, 400],
  ['field line without colon', `GET / HTTP/1.1\r\n${H}X y\r\n\r\n`, 400],
  ['empty field name', `GET / HTTP/1.1\r\n${H}: y\r\n\r\n`, 400],
  ['NUL in value', `GET / HTTP/1.1\r\n${H}X: a\x00b\r\n\r\n`, 400],
  ['DEL in value', `GET / HTTP/1.1\r\n${H}X: a\x7fb\r\n\r\n`, 400],
  ['CR in value', `GET / HTTP/1.1\r\n${H}X: a\rb\r\n\r\n`, 400],
  ['bare LF ending the request line', `GET / HTTP/1.1\n${H}\r\n`, 400],
  ['bare LF ending a field line', 'GET / HTTP/1.1\r\nHost: a\n\r\n', 400],
  ['bare LF ending the head', `GET / HTTP/1.1\r\n${H}\n`, 400],
  ['two Content-Lengths, same value', `GET / HTTP/1.1\r\n${H}Content-Length: 0\r\nContent-Length: 0\r\n\r\n`, 400],
  ['Content-Length list', `GET / HTTP/1.1\r\n${H}Content-Length: 0, 0\r\n\r\n`, 400],
  ['signed Content-Length', `GET / HTTP/1.1\r\n${H}Content-Length: +0\r\n\r\n`, 400],
  ['Content-Length with inner space', `GET / HTTP/1.1\r\n${H}Content-Length: 1 0\r\n\r\n`, 400],
  ['HTAB after a Content-Length (llhttp refuses it)', `GET / HTTP/1.1\r\n${H}Content-Length: 0 \t\r\n\r\n`, 400],
  ['empty Content-Length', `GET / HTTP/1.1\r\n${H}Content-Length:\r\n\r\n`, 400],
  ['non-zero Content-Length', `GET / HTTP/1.1\r\n${H}Content-Length: 5\r\n\r\nhello`, 413],
  ['huge Content-Length', `POST / HTTP/1.1\r\n${H}Content-Length: 99999999999999999999\r\n\r\n`, 413],
  ['Transfer-Encoding chunked', `GET / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, 501],
  ['Transfer-Encoding obfuscated', `GET / HTTP/1.1\r\n${H}Transfer-Encoding: xchunked\r\n\r\n`, 501],
  ['empty Transfer-Encoding', `GET / HTTP/1.1\r\n${H}Transfer-Encoding:\r\n\r\n`, 501],
  ['Transfer-Encoding with Content-Length (CL.TE / TE.CL)', `GET / HTTP/1.1\r\n${H}Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n`, 400],
  ['Transfer-Encoding in HTTP/1.0', 'GET / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n', 501],
];

describe('request parser: accepted heads', () => {
  for (const [name, input, expected] of ACCEPTED) {
    test(name, () => {
      const [result, ...rest] = parseAll(input);
      assert.equal(rest.length, 0);
      assert.equal(result.status, undefined, `refused with ${result.status}`);
      for (const [key, value] of Object.entries(expected)) assert.deepEqual(result[key], value, key);
    });
  }
});

describe('request parser: refused heads', () => {
  for (const [name, input, status] of REFUSED) {
    test(`${name}: ${status}`, () => assert.deepEqual(parseAll(input), [{ status }]));
  }
});

describe('request parser: incremental', () => {
  const pipelined = `GET /1 HTTP/1.1\r\n${H}\r\n\r\nHEAD /2 HTTP/1.1\r\n${H}X: y\r\n\r\nGET /3 HTTP/1.0\r\n\r\n`;

  test('the same requests whatever the chunk size', () => {
    const whole = parseAll(pipelined);
    assert.deepEqual(whole.map((r) => r.target), ['/1', '/2', '/3']);
    for (const size of [1, 2, 3, 7, 16, 64]) assert.deepEqual(parseAll(pipelined, size), whole, `chunks of ${size}`);
  });

  test('a refusal after good requests comes in its place, and the parser stays failed', () => {
    const parser = new RequestParser();
    parser.push(Buffer.from(`GET /1 HTTP/1.1\r\n${H}\r\nGET /2 HTTP/1.1\r\n${H}X : y\r\n\r\nGET /3 HTTP/1.1\r\n${H}\r\n`));
    assert.equal(parser.next().target, '/1');
    const err = parser.next();
    assert.equal(err.status, 400);
    assert.equal(parser.next(), err);
    parser.push(Buffer.from(`GET /4 HTTP/1.1\r\n${H}\r\n`));
    assert.equal(parser.next(), err);
  });

  test('receiving is true only while part of a head is buffered', () => {
    const parser = new RequestParser();
    assert.equal(parser.receiving, false);
    parser.push(Buffer.from('GET / HT'));
    assert.equal(parser.next(), null);
    assert.equal(parser.receiving, true);
    parser.push(Buffer.from(`TP/1.1\r\n${H}\r\n`));
    assert.equal(parser.next().target, '/');
    assert.equal(parser.receiving, false);
  });
});

test('field names never reach a prototype', () => {
  const parser = new RequestParser();
  parser.push(Buffer.from(`GET / HTTP/1.1\r\n${H}__proto__: {"polluted":1}\r\nconstructor: x\r\n\r\n`));
  const { headers } = parser.next();
  assert.equal(Object.getPrototypeOf(headers), Object.prototype);
  assert.equal(headers.polluted, undefined);
  assert.equal(Object.getOwnPropertyDescriptor(headers, '__proto__').value, '{"polluted":1}');
  assert.equal(headers.constructor, 'x');
});

describe('request parser: limits', () => {
  test('a target of MAX_PATH_LENGTH bytes is accepted, one more is 414', () => {
    const path = '/' + 'a'.repeat(MAX_PATH_LENGTH - 1);
    assert.equal(parseAll(`GET ${path} HTTP/1.1\r\n${H}\r\n`)[0].target, path);
    assert.deepEqual(parseAll(`GET ${path}a HTTP/1.1\r\n${H}\r\n`), [{ status: 414 }]);
  });

  test('an over-long request line is refused with 414 before it ends', () => {
    assert.deepEqual(parseAll(`GET /${'a'.repeat(MAX_PATH_LENGTH + 100)}`), [{ status: 414 }]);
  });

  test('a head of MAX_HEAD_BYTES is accepted, one byte more is 431, complete or not', () => {
    const start = `GET / HTTP/1.1\r\n${H}X: `;
    const fill = 'a'.repeat(MAX_HEAD_BYTES - start.length - 4);
    assert.equal(parseAll(`${start}${fill}\r\n\r\n`)[0].headers.x, fill);
    assert.deepEqual(parseAll(`${start}${fill}a\r\n\r\n`), [{ status: 431 }]);
    assert.deepEqual(parseAll(`${start}${fill}aaaaa`), [{ status: 431 }]);
  });

  test('empty lines between requests are not counted into the next head', () => {
    const parser = new RequestParser();
    parser.push(Buffer.from('\r\n'.repeat(MAX_HEAD_BYTES)));
    assert.equal(parser.next(), null);
    assert.equal(parser.receiving, false);
  });
});
