'use strict';
// The request-target rule every engine applies (RFC 9112 3.2, RFC 9113 8.3.1, RFC 3986): visible
// ASCII only. Every byte value is checked, then the terminal sequences an attacker would send.

const test = require('node:test');
const assert = require('node:assert/strict');
const { requestTargetEnd, isRequestTarget } = require('../../server/http/request-target');

test('request target: exactly the bytes 0x21-0x7E are allowed, alone and inside a path', () => {
  for (let byte = 0; byte <= 0xff; byte++) {
    const c = String.fromCharCode(byte);
    const allowed = byte >= 0x21 && byte <= 0x7e;
    assert.equal(isRequestTarget(c), allowed, `0x${byte.toString(16)} alone`);
    assert.equal(isRequestTarget(`/a${c}b`), allowed, `0x${byte.toString(16)} inside`);
    assert.equal(requestTargetEnd(`/a${c}b`, 0), allowed ? 4 : 2, `0x${byte.toString(16)} end`);
  }
});

const CASES = [
  ['origin-form with a query', '/a/b.txt?x=1&y=%1B', true],
  ['asterisk-form', '*', true],
  ['absolute-form', 'https://example.com/a', true],
  ['every VCHAR punctuation', '/!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~', true],
  ['empty', '', false],
  ['ESC (CSI colour)', '/\x1b[31mred', false],
  ['BEL', '/\x07', false],
  ['OSC set-title, BEL-terminated', '/\x1b]0;owned\x07', false],
  ['OSC 52 clipboard write, ST-terminated', '/\x1b]52;c;aGk=\x1b\\', false],
  ['NUL', '/\0', false],
  ['CR LF (log line injection)', '/a\r\nGET /b', false],
  ['HTAB', '/a\tb', false],
  ['SP', '/a b', false],
  ['DEL', '/\x7f', false],
  ['C1 CSI (0x9B)', '/\x9b31m', false],
  ['UTF-8 bytes of é as latin1', '/\xc3\xa9', false],
  ['a character past 0xFF', '/\u2028', false],
];

for (const [name, target, valid] of CASES) {
  test(`request target: ${name} is ${valid ? 'valid' : 'refused'}`, () => {
    assert.equal(isRequestTarget(target), valid);
  });
}

test('request target: the end is searched from the given start (the HTTP/1.1 request line)', () => {
  const line = 'GET /a\x1bb HTTP/1.1';
  assert.equal(requestTargetEnd(line, 4), 6);
  assert.equal(requestTargetEnd('GET /ok HTTP/1.1', 4), 7);
  assert.equal(requestTargetEnd('GET /ok', 4), 7);
  assert.equal(requestTargetEnd('GET ', 4), 4);
});
