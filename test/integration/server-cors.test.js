'use strict';
// --cors (cors: true) and OPTIONS on every engine and protocol: Access-Control-Allow-Origin on
// every kind of response, CORS preflights answered 204, OPTIONS * answered for the server, and
// without --cors the answers of before (405, no CORS header).

const { before, after, test } = require('node:test');
const assert = require('node:assert/strict');
const { forEachEngine, startTestServer, compressibleText } = require('../helpers/server');
const { rawTls } = require('../helpers/raw-tls');

const FILES = {
  'page.html': '<h1>page</h1>',
  'app.js': compressibleText(8000),
  'docs/index.html': '<h1>docs</h1>',
};
const ORIGIN = 'https://app.example';
const PREFLIGHT = { 'origin': ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match, x-trace' };

forEachEngine((engine) => {
  let srv;
  let plain;
  before(async () => {
    srv = await startTestServer({ engine, files: FILES, cors: true });
    plain = await startTestServer({ engine, files: FILES });
  });
  after(async () => {
    await srv.close();
    await plain.close();
  });

  for (const proto of ['h1', 'h2']) {
    test(`${proto}: every response may be read from any origin`, async () => {
      const get = (target, options) => srv[proto](target, { ...options, headers: { origin: ORIGIN, ...options?.headers } });
      const ok = await get('/app.js', { headers: { 'accept-encoding': 'br' } });
      assert.equal(ok.status, 200);
      assert.equal(ok.headers['content-encoding'], 'br');
      const responses = [
        ['a file', ok],
        ['the same file again (prebuilt heads)', await get('/app.js', { headers: { 'accept-encoding': 'br' } })],
        ['not modified', await get('/app.js', { headers: { 'accept-encoding': 'br', 'if-none-match': ok.headers.etag } })],
        ['a range', await get('/app.js', { headers: { range: 'bytes=0-9' } })],
        ['HEAD', await get('/page.html', { method: 'HEAD' })],
        ['a redirect', await get('/docs')],
        ['not found', await get('/missing.html')],
        ['another method', await get('/page.html', { method: 'POST' })],
        ['the explainer', await get('/_negotiate?path=/app.js')],
      ];
      assert.deepEqual(responses.map(([what, r]) => [what, r.status, r.headers['access-control-allow-origin']]), [
        ['a file', 200, '*'], ['the same file again (prebuilt heads)', 200, '*'], ['not modified', 304, '*'], ['a range', 206, '*'],
        ['HEAD', 200, '*'], ['a redirect', 301, '*'], ['not found', 404, '*'], ['another method', 405, '*'], ['the explainer', 200, '*'],
      ]);
      assert.equal(ok.headers.vary, 'Accept-Encoding', 'the same answer for every origin: no Vary: Origin');
    });

    test(`${proto}: a preflight gets 204 with the methods GET and HEAD and the headers it asked for`, async () => {
      const res = await srv[proto]('/app.js', { method: 'OPTIONS', headers: PREFLIGHT });
      assert.equal(res.status, 204);
      assert.equal(res.body.length, 0);
      assert.equal(res.headers['access-control-allow-origin'], '*');
      assert.equal(res.headers['access-control-allow-methods'], 'GET, HEAD');
      assert.equal(res.headers['access-control-allow-headers'], 'if-none-match, x-trace');
      assert.equal(res.headers['access-control-max-age'], '7200');
      assert.equal(res.headers['content-length'], undefined, 'RFC 9110 8.6: none on a 204');
      const bare = await srv[proto]('/app.js', { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': 'GET' } });
      assert.equal(bare.status, 204);
      assert.equal(bare.headers['access-control-allow-headers'], undefined);
    });

    test(`${proto}: OPTIONS that is no preflight still gets 405 with Allow`, async () => {
      const res = await srv[proto]('/app.js', { method: 'OPTIONS', headers: { origin: ORIGIN } });
      assert.equal(res.status, 405);
      assert.equal(res.headers.allow, 'GET, HEAD');
    });

    test(`${proto}: without --cors, no CORS header and a preflight is a 405 as before`, async () => {
      const get = await plain[proto]('/page.html', { headers: { origin: ORIGIN } });
      assert.equal(get.status, 200);
      assert.equal(get.headers['access-control-allow-origin'], undefined);
      const pre = await plain[proto]('/page.html', { method: 'OPTIONS', headers: PREFLIGHT });
      assert.equal(pre.status, 405);
      assert.equal(pre.headers.allow, 'GET, HEAD');
      assert.equal(pre.headers['access-control-allow-origin'], undefined);
    });
  }

  test('OPTIONS * (HTTP/1.1 asterisk-form) asks about the server: 204 with Allow', async () => {
    for (const s of [srv, plain]) {
      const res = await rawTls({ port: s.port, ca: (await s.server.certificate), request: 'OPTIONS * HTTP/1.1\r\nHost: localhost\r\n\r\n' });
      assert.equal(res.status, 204, res.raw);
      assert.deepEqual(res.headers.allow, ['OPTIONS, GET, HEAD']);
      assert.equal(res.headers['content-length'], undefined);
      assert.equal(res.headers['transfer-encoding'], undefined);
    }
  });

  test('OPTIONS * over HTTP/2 (:path *)', async () => {
    const res = await srv.h2('*', { method: 'OPTIONS' });
    assert.equal(res.status, 204);
    assert.equal(res.headers.allow, 'OPTIONS, GET, HEAD');
  });
});
