'use strict';
// --http-port redirects only to names the server answers for: the certificate's DNS and IP
// subjectAltNames (the test certificate: localhost, 127.0.0.1, ::1) and --public-host. Any other
// Host, a missing one or a repeated one gets 400, so the port cannot be used as an open redirect.
// Runs once, not per HTTP/2 engine: the redirect port is a plain HTTP/1.1 server
// (server/engines/redirect-server.js) that start-server.js makes the same way whatever --engine says.

const test = require('node:test');
const assert = require('node:assert/strict');
const { startTestServer } = require('../helpers/server');
const { rawTcp } = require('../helpers/raw-tls');

// [request head without the final CRLF, status, Location (for 301/308) or body (for 400)]
const CASES = [
  ['GET /a/b?c=d HTTP/1.1\r\nHost: localhost\r\n', 301, 'https://localhost:PORT/a/b?c=d'],
  ['GET / HTTP/1.1\r\nHost: LocalHost:80\r\n', 301, 'https://localhost:PORT/'],
  ['GET / HTTP/1.1\r\nHost: localhost.\r\n', 301, 'https://localhost:PORT/'],
  ['GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n', 301, 'https://127.0.0.1:PORT/'],
  ['GET / HTTP/1.1\r\nHost: [0:0::1]:80\r\n', 301, 'https://[::1]:PORT/'],
  ['POST /form HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n', 308, 'https://localhost:PORT/form'],
  ['GET / HTTP/1.1\r\nHost: WWW.Example.ORG\r\n', 301, 'https://www.example.org:PORT/'],
  ['GET / HTTP/1.1\r\nHost: evil.example\r\n', 400, 'not a name this server answers for\n'],
  ['GET / HTTP/1.1\r\nHost: evil.example:8444\r\n', 400, 'not a name this server answers for\n'],
  ['GET / HTTP/1.1\r\nHost: localhost.evil.example\r\n', 400, 'not a name this server answers for\n'],
  ['GET / HTTP/1.1\r\nHost: [::2]\r\n', 400, 'not a name this server answers for\n'],
  ['GET / HTTP/1.1\r\nHost: localhost@evil.example\r\n', 400, 'invalid Host header\n'],
  ['GET / HTTP/1.1\r\nHost: \r\n', 400, 'not a name this server answers for\n'],
  ['GET / HTTP/1.1\r\n', 400, 'missing Host header\n'],
  ['GET / HTTP/1.0\r\n', 400, 'missing Host header\n'],
  ['GET / HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n', 400, 'more than one Host header\n'],
];

test('--http-port redirects only to the certificate names and --public-host', async (t) => {
  const srv = await startTestServer({ httpPort: 0, publicHost: 'www.example.org' });
  t.after(() => srv.close());
  for (const [head, status, expected] of CASES) {
    const label = JSON.stringify(head);
    const res = await rawTcp({ port: srv.server.httpPort, request: `${head}\r\n` });
    assert.equal(res.status, status, label);
    if (status === 400) {
      assert.equal(res.body, expected, label);
      assert.equal(res.headers.location, undefined, label);
    } else {
      assert.deepEqual(res.headers.location, [expected.replace('PORT', srv.port)], label);
    }
  }
});

test('without --public-host only the certificate names redirect', async (t) => {
  const srv = await startTestServer({ httpPort: 0 });
  t.after(() => srv.close());
  const res = await rawTcp({ port: srv.server.httpPort, request: 'GET / HTTP/1.1\r\nHost: www.example.org\r\n\r\n' });
  assert.equal(res.status, 400);
});
