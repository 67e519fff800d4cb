'use strict';
// The access log's lines, exact, in every format, for what a client controls (method, target,
// user agent, referer) holding terminal sequences (ESC, BEL, OSC, C1), DEL, bytes from 0x80 up,
// quotes and backslashes: each line is one line of printable ASCII, and a json line parses back
// to exactly what the client sent.

const test = require('node:test');
const assert = require('node:assert/strict');
const { createAccessLog, LOG_FORMATS } = require('../../server/log/access-log');

const NOW = Date.UTC(2026, 10, 23, 16, 23, 29, 5);
const STARTED = 1000;

// One line from logAccess(method, target, 200, 'br', 5, ...) with the clock fixed: 12.5 ms.
function line(t, format, { method = 'GET', target = '/a', ua, referer, status = 200 } = {}) {
  t.mock.timers.enable({ apis: ['Date'], now: NOW });
  t.mock.method(performance, 'now', () => STARTED + 12.5);
  const lines = [];
  const log = { enabled: () => true, info: (l) => lines.push(l), raw: (l) => lines.push(l) };
  const headers = {};
  if (ua !== undefined) headers['user-agent'] = ua;
  if (referer !== undefined) headers.referer = referer;
  createAccessLog(log, format)(method, target, status, 'br', 5, STARTED, { remoteAddress: '192.0.2.1', protocol: 'h2', headers });
  assert.equal(lines.length, 1);
  return lines[0];
}

const CSI_RED = '\x1b[31m';
const OSC_TITLE = '\x1b]0;owned\x07';
const OSC52 = '\x1b]52;c;aGk=\x1b\\';

// [name, fields, short, combined's request-through-end, json's escaped target].
const CASES = [
  ['plain', { target: '/a/b.txt?x=%1B' }, 'GET /a/b.txt?x=%1B 200 br 5 12.5ms',
    '"GET /a/b.txt?x=%1B HTTP/2.0" 200 5 "-" "-"', '"/a/b.txt?x=%1B"'],
  ['ESC (CSI colour) in the target', { target: `/${CSI_RED}x` }, 'GET /\\x1B[31mx 200 br 5 12.5ms',
    '"GET /\\x1B[31mx HTTP/2.0" 200 5 "-" "-"', '"/\\u001B[31mx"'],
  ['OSC set-title with BEL', { target: `/${OSC_TITLE}` }, 'GET /\\x1B]0;owned\\x07 200 br 5 12.5ms',
    '"GET /\\x1B]0;owned\\x07 HTTP/2.0" 200 5 "-" "-"', '"/\\u001B]0;owned\\u0007"'],
  ['OSC 52 clipboard write with ST', { target: `/${OSC52}` }, 'GET /\\x1B]52;c;aGk=\\x1B\\x5C 200 br 5 12.5ms',
    '"GET /\\x1B]52;c;aGk=\\x1B\\x5C HTTP/2.0" 200 5 "-" "-"', '"/\\u001B]52;c;aGk=\\u001B\\u005C"'],
  ['DEL', { target: '/a\x7fb' }, 'GET /a\\x7Fb 200 br 5 12.5ms', '"GET /a\\x7Fb HTTP/2.0" 200 5 "-" "-"', '"/a\\u007Fb"'],
  ['C1 CSI (0x9B) and other bytes from 0x80 up', { target: '/\x9b31m\x80\xff' }, 'GET /\\x9B31m\\x80\\xFF 200 br 5 12.5ms',
    '"GET /\\x9B31m\\x80\\xFF HTTP/2.0" 200 5 "-" "-"', '"/\\u009B31m\\u0080\\u00FF"'],
  ['CR LF and NUL (a forged second line)', { target: '/a\r\nGET /b\0' }, 'GET /a\\x0D\\x0AGET /b\\x00 200 br 5 12.5ms',
    '"GET /a\\x0D\\x0AGET /b\\x00 HTTP/2.0" 200 5 "-" "-"', '"/a\\u000D\\u000AGET /b\\u0000"'],
  ['a character past 0xFF (an app\'s own request object)', { target: '/\u2028' }, 'GET /\\u2028 200 br 5 12.5ms',
    '"GET /\\u2028 HTTP/2.0" 200 5 "-" "-"', '"/\\u2028"'],
  ['quote and backslash', { target: '/"\\' }, 'GET /\\x22\\x5C 200 br 5 12.5ms', '"GET /\\x22\\x5C HTTP/2.0" 200 5 "-" "-"', '"/\\u0022\\u005C"'],
  ['a method with ESC (the native HTTP/2 engine answers it 405)', { method: `G${CSI_RED}`, status: 405 }, 'G\\x1B[31m /a 405 br 5 12.5ms',
    '"G\\x1B[31m /a HTTP/2.0" 405 5 "-" "-"', '"/a"'],
  ['user agent and referer with OSC, BEL, DEL and 0x80+', { ua: `x${OSC_TITLE}\x7f`, referer: `https://e.test/${CSI_RED}\xe9` }, 'GET /a 200 br 5 12.5ms',
    '"GET /a HTTP/2.0" 200 5 "https://e.test/\\x1B[31m\\xE9" "x\\x1B]0;owned\\x07\\x7F"', '"/a"'],
];

for (const [name, fields, short, combined, jsonTarget] of CASES) {
  test(`access log, ${name}: short`, (t) => {
    assert.equal(line(t, 'short', fields), short);
  });

  test(`access log, ${name}: combined`, (t) => {
    assert.equal(line(t, 'combined', fields), `192.0.2.1 - - [23/Nov/2026:16:23:29 +0000] ${combined}`);
  });

  test(`access log, ${name}: json`, (t) => {
    const text = line(t, 'json', fields);
    assert.ok(text.includes(`"path":${jsonTarget},`), text);
    assert.deepEqual(JSON.parse(text), {
      time: '2026-11-23T16:23:29.005Z', remoteAddress: '192.0.2.1', protocol: 'h2', method: fields.method ?? 'GET',
      path: fields.target ?? '/a', status: fields.status ?? 200, aborted: false, coding: 'br', bytes: 5, durationMs: 12.5,
      userAgent: fields.ua ?? null, referer: fields.referer ?? null,
    });
  });
}

test('access log: every format writes every byte value as printable ASCII, on one line', (t) => {
  let all = '';
  for (let byte = 0; byte <= 0xff; byte++) all += String.fromCharCode(byte);
  for (const format of LOG_FORMATS) {
    const text = line(t, format, { method: all, target: all, ua: all, referer: all });
    assert.match(text, /^[\x20-\x7e]+$/, format);
    if (format === 'json') assert.equal(JSON.parse(text).path, all);
    t.mock.reset();
  }
});

test('access log: an aborted response keeps its status and is marked', (t) => {
  assert.equal(line(t, 'short', { status: '200 aborted' }), 'GET /a 200 aborted br 5 12.5ms');
  t.mock.reset();
  assert.deepEqual([JSON.parse(line(t, 'json', { status: '206 aborted' }))].map((o) => [o.status, o.aborted]), [[206, true]]);
});
