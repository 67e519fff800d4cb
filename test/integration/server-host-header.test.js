'use strict';
// RFC 9112 3.2 over HTTP/1.x (TLS, ALPN http/1.1 and no ALPN): an HTTP/1.1 request without Host,
// any request with more than one Host field line, or with an invalid Host value gets 400 and the
// connection is closed; HTTP/1.0 may leave Host out.

const test = require('node:test');
const assert = require('node:assert/strict');
const { forEachEngine, startTestServer } = require('../helpers/server');
const { rawTls } = require('../helpers/raw-tls');

// [request head (without the final CRLF), status, body]
const CASES = [
  ['GET /ok.txt HTTP/1.1\r\nHost: localhost\r\n', 200, 'ok'],
  ['GET /ok.txt HTTP/1.1\r\nHost: [::1]:8443\r\n', 200, 'ok'],
  ['GET /ok.txt HTTP/1.1\r\nHost: localhost\r\nHost: localhost\r\n', 400, 'more than one Host header\n'],
  ['GET /ok.txt HTTP/1.1\r\nHOST: a.example\r\nhost: b.example\r\n', 400, 'more than one Host header\n'],
  ['GET /ok.txt HTTP/1.1\r\nAccept: */*\r\n', 400, 'missing Host header\n'],
  ['GET /ok.txt HTTP/1.1\r\nHost: a b\r\n', 400, 'invalid Host header\n'],
  ['GET /ok.txt HTTP/1.1\r\nHost: user@localhost\r\n', 400, 'invalid Host header\n'],
  ['GET /ok.txt HTTP/1.1\r\nHost: [not-ipv6]\r\n', 400, 'invalid Host header\n'],
  ['HEAD /ok.txt HTTP/1.1\r\n', 400, ''],
  ['GET /ok.txt HTTP/1.0\r\n', 200, 'ok'],
  ['GET /ok.txt HTTP/1.0\r\nHost: a.example\r\nHost: b.example\r\n', 400, 'more than one Host header\n'],
];

forEachEngine((engine) => {
  test('Host header over HTTP/1.x: exact statuses', async (t) => {
    const srv = await startTestServer({ engine, files: { 'ok.txt': 'ok' } });
    t.after(() => srv.close());
    for (const alpn of [['http/1.1'], []]) {
      for (const [head, status, body] of CASES) {
        const label = `${alpn[0] || 'no ALPN'}: ${JSON.stringify(head)}`;
        const res = await rawTls({ port: srv.port, ca: srv.server.certificate, alpn, request: `${head}\r\n` });
        assert.equal(res.status, status, label);
        assert.equal(res.body, body, label);
        if (status === 400) assert.deepEqual(res.headers.connection, ['close'], label);
      }
    }
    // The 400s did not disturb anything else.
    assert.equal((await srv.h2('/ok.txt')).status, 200);
  });
});
