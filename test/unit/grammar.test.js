'use strict';
// server/http/grammar.js: tokens and field values, every octet.

const test = require('node:test');
const assert = require('node:assert/strict');
const { TCHAR, HEAD_VALUE_CONTROL, isToken, isLowercaseToken, hasValueControl, isMalformedH2Value } = require('../../server/http/grammar');

const TCHARS = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

test('tchar is exactly RFC 9110 5.6.2, uppercase marked for HTTP/2', () => {
  for (let c = 0; c < 256; c++) {
    const ch = String.fromCharCode(c);
    const expected = !TCHARS.includes(ch) ? 0 : ch >= 'A' && ch <= 'Z' ? 2 : 1;
    assert.equal(TCHAR[c], expected, `0x${c.toString(16)}`);
    assert.equal(isToken(`a${ch}`), expected > 0, `isToken 0x${c.toString(16)}`);
    assert.equal(isLowercaseToken(`a${ch}`), expected === 1, `isLowercaseToken 0x${c.toString(16)}`);
  }
});

test('tokens: empty, and characters beyond one octet, are not', () => {
  for (const [text, token, lower] of [['', false, false], ['GET', true, false], ['get', true, true], ['x-\u0100', false, false], ['a b', false, false]]) {
    assert.deepEqual([isToken(text), isLowercaseToken(text)], [token, lower], JSON.stringify(text));
  }
});

test('field values: control bytes per RFC 9110 5.5, HTTP/2 per RFC 9113 8.2.1', () => {
  for (let c = 0; c < 256; c++) {
    const value = `a${String.fromCharCode(c)}b`;
    const control = (c < 0x20 && c !== 0x09) || c === 0x7f;
    assert.equal(hasValueControl(value), control, `0x${c.toString(16)}`);
    assert.equal(isMalformedH2Value(value), c === 0 || c === 0x0a || c === 0x0d, `h2 0x${c.toString(16)}`);
    HEAD_VALUE_CONTROL.lastIndex = 0;
    assert.equal(HEAD_VALUE_CONTROL.test(value), control && c !== 0x0a && c !== 0x0d, `head 0x${c.toString(16)}`);
  }
  for (const [value, malformed] of [[' a', true], ['a\t', true], ['a b', false], ['', false]]) {
    assert.equal(isMalformedH2Value(value), malformed, JSON.stringify(value));
  }
});
