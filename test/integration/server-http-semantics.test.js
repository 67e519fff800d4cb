'use strict';
// HTTP semantics on every representation: validators (per-coding ETags, 304), ranges on the
// selected (compressed) bytes, HEAD, 405, directories, and the fixed response headers.

const test = require('node:test');
const assert = require('node:assert/strict');
const { forEachEngine, startTestServer, compressibleText } = require('../helpers/server');
const { decode, engines } = require('../helpers/clients');

const APP = compressibleText(5000, 'app');
const PAGE = compressibleText(3000, 'page');
const OLD = new Date(Date.now() - 3600_000);

async function fixtures() {
  return {
    'app.js': APP,
    'page.html': { content: PAGE, mtime: OLD },
    'page.html.br': await engines.compress('br', Buffer.from(PAGE), { level: 'max' }),
    'page.html.gz': await engines.compress('gzip', Buffer.from(PAGE), { level: 'max' }),
    'docs/index.html': '<h1>docs</h1>',
    'empty.txt': '',
  };
}

forEachEngine((engine) => {
  test('http semantics', async (t) => {
    const srv = await startTestServer({ engine, files: await fixtures(), cacheControl: 'public, max-age=60' });
    t.after(() => srv.close());

    for (const proto of ['h1', 'h2']) {
      const get = (path, headers = {}, method = 'GET') => srv[proto](path, { headers, method });

      await t.test(`${proto}: response headers`, async () => {
        const res = await get('/page.html', { 'accept-encoding': 'br' });
        assert.equal(res.status, 200);
        assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
        assert.equal(res.headers['content-encoding'], 'br');
        assert.equal(res.headers['cache-control'], 'public, max-age=60');
        assert.equal(res.headers['accept-ranges'], 'bytes');
        assert.equal(res.headers['last-modified'], new Date(Math.floor(OLD.getTime() / 1000) * 1000).toUTCString());
        assert.ok(res.headers.date, 'Date');
        assert.equal(Number(res.headers['content-length']), res.body.length);
        assert.match(res.headers.etag, /^"[^"]+"$/, 'strong ETag');
      });

      await t.test(`${proto}: ETags differ per coding and each validates only itself`, async () => {
        const tags = {};
        for (const [path, ae] of [['/page.html', 'br'], ['/page.html', 'gzip'], ['/page.html', 'zstd'], ['/page.html', ''],
          ['/app.js', 'br'], ['/app.js', 'gzip'], ['/app.js', '']]) {
          const res = await get(path, { 'accept-encoding': ae });
          const coding = res.headers['content-encoding'] || 'identity';
          tags[`${path} ${coding}`] = res.headers.etag;
          const same = await get(path, { 'accept-encoding': ae, 'if-none-match': res.headers.etag });
          assert.equal(same.status, 304, `${path} ${coding}`);
          assert.equal(same.body.length, 0);
          assert.equal(same.headers.etag, res.headers.etag);
          assert.equal(same.headers.vary, 'Accept-Encoding');
          assert.equal(same.headers['cache-control'], 'public, max-age=60');
          assert.equal(same.headers['last-modified'], res.headers['last-modified']);
          const weak = await get(path, { 'accept-encoding': ae, 'if-none-match': `"nope", W/${res.headers.etag.replace(/^W\//, '')}` });
          assert.equal(weak.status, 304, 'weak comparison inside a list');
        }
        const values = Object.values(tags);
        assert.equal(new Set(values).size, values.length, JSON.stringify(tags));
        // A validator of one coding does not validate another.
        const cross = await get('/page.html', { 'accept-encoding': 'gzip', 'if-none-match': tags['/page.html br'] });
        assert.equal(cross.status, 200);
        assert.equal(cross.headers['content-encoding'], 'gzip');
        assert.equal((await get('/app.js', { 'if-none-match': '*' })).status, 304);
      });

      await t.test(`${proto}: If-Modified-Since, ignored when If-None-Match is present`, async () => {
        const res = await get('/page.html', { 'accept-encoding': 'br' });
        const lm = res.headers['last-modified'];
        assert.equal((await get('/page.html', { 'accept-encoding': 'br', 'if-modified-since': lm })).status, 304);
        const later = new Date(Date.parse(lm) + 1000).toUTCString();
        assert.equal((await get('/page.html', { 'if-modified-since': later })).status, 304);
        const earlier = new Date(Date.parse(lm) - 1000).toUTCString();
        assert.equal((await get('/page.html', { 'if-modified-since': earlier })).status, 200);
        assert.equal((await get('/page.html', { 'if-modified-since': 'garbage' })).status, 200);
        assert.equal((await get('/page.html', { 'if-modified-since': lm, 'if-none-match': '"other"' })).status, 200);
      });

      await t.test(`${proto}: Range on the selected representation`, async () => {
        const full = await get('/page.html', { 'accept-encoding': 'br' });
        const len = full.body.length;
        const cases = [
          ['bytes=0-9', 0, 9],
          ['bytes=10-', 10, len - 1],
          ['bytes=-20', len - 20, len - 1],
          [`bytes=5-${len + 100}`, 5, len - 1],
          [`bytes=-${len + 10}`, 0, len - 1],
        ];
        for (const [range, start, end] of cases) {
          const res = await get('/page.html', { 'accept-encoding': 'br', range });
          assert.equal(res.status, 206, range);
          assert.equal(res.headers['content-range'], `bytes ${start}-${end}/${len}`, range);
          assert.equal(res.headers['content-encoding'], 'br');
          assert.equal(res.headers.vary, 'Accept-Encoding');
          assert.deepEqual(res.body, full.body.subarray(start, end + 1), range);
          assert.equal(Number(res.headers['content-length']), end - start + 1);
        }
        for (const range of [`bytes=${len}-`, `bytes=${len + 5}-${len + 9}`, 'bytes=-0']) {
          const res = await get('/page.html', { 'accept-encoding': 'br', range });
          assert.equal(res.status, 416, range);
          assert.equal(res.headers['content-range'], `bytes */${len}`);
        }
        const empty = await get('/empty.txt', { range: 'bytes=0-' });
        assert.equal(empty.status, 416);
        assert.equal(empty.headers['content-range'], 'bytes */0');
        // Ignored: several ranges, other units, nonsense.
        for (const range of ['bytes=0-1,5-6', 'items=0-1', 'bytes=9-2', 'bytes=abc']) {
          const res = await get('/page.html', { 'accept-encoding': 'br', range });
          assert.equal(res.status, 200, range);
          assert.deepEqual(res.body, full.body);
        }
        // Dynamic representations are ranged too, on their compressed bytes.
        const dyn = await get('/app.js', { 'accept-encoding': 'gzip' });
        const part = await get('/app.js', { 'accept-encoding': 'gzip', range: 'bytes=-16' });
        assert.equal(part.status, 206);
        assert.deepEqual(part.body, dyn.body.subarray(dyn.body.length - 16));
      });

      await t.test(`${proto}: If-Range`, async () => {
        const full = await get('/page.html', { 'accept-encoding': 'gzip' });
        const { etag } = full.headers;
        const lm = full.headers['last-modified'];
        const h = (ifRange) => get('/page.html', { 'accept-encoding': 'gzip', 'range': 'bytes=0-3', 'if-range': ifRange });
        assert.equal((await h(etag)).status, 206);
        assert.equal((await h('"stale"')).status, 200);
        assert.equal((await h(`W/${etag}`)).status, 200, 'weak validators never match If-Range');
        assert.equal((await h(lm)).status, 206);
        assert.equal((await h(new Date(Date.parse(lm) + 1000).toUTCString())).status, 200);
        const other = await get('/page.html', { 'accept-encoding': 'br', 'range': 'bytes=0-3', 'if-range': etag });
        assert.equal(other.status, 200, "another coding's ETag does not match");
      });

      await t.test(`${proto}: If-Match and If-Unmodified-Since (412) in the order of RFC 9110 13.2.2`, async () => {
        const full = await get('/page.html', { 'accept-encoding': 'br' });
        const { etag } = full.headers;
        const lm = full.headers['last-modified'];
        const earlier = new Date(Date.parse(lm) - 1000).toUTCString();
        // [headers, status]
        const rows = [
          [{ 'if-match': etag }, 200],
          [{ 'if-match': `"x", ${etag}` }, 200],
          [{ 'if-match': '*' }, 200],
          [{ 'if-match': '"x"' }, 412],
          [{ 'if-match': `W/${etag}` }, 412],
          [{ 'if-unmodified-since': lm }, 200],
          [{ 'if-unmodified-since': earlier }, 412],
          [{ 'if-unmodified-since': 'not a date' }, 200],
          [{ 'if-match': etag, 'if-unmodified-since': earlier }, 200],
          [{ 'if-match': '"x"', 'if-none-match': etag }, 412],
          [{ 'if-unmodified-since': earlier, 'if-modified-since': lm }, 412],
          [{ 'if-match': etag, 'if-none-match': etag }, 304],
          [{ 'if-match': etag, 'range': 'bytes=0-3' }, 206],
          [{ 'if-match': '"x"', 'range': 'bytes=0-3' }, 412],
        ];
        for (const [headers, status] of rows) {
          const res = await get('/page.html', { 'accept-encoding': 'br', ...headers });
          const label = JSON.stringify(headers);
          assert.equal(res.status, status, label);
          assert.equal(res.headers.vary, 'Accept-Encoding', label);
          assert.equal(res.headers.etag, etag, label);
          if (status === 412) {
            assert.equal(res.headers['last-modified'], lm, label);
            assert.equal(res.headers['content-encoding'], undefined, label);
            assert.equal(res.body.toString(), 'precondition failed\n', label);
          }
        }
        const head = await get('/page.html', { 'accept-encoding': 'br', 'if-match': '"x"' }, 'HEAD');
        assert.equal(head.status, 412);
        assert.equal(head.body.length, 0);
        // Preconditions are ignored where the response would not be 2xx (13.2.1).
        assert.equal((await get('/nope.html', { 'if-match': '"x"' })).status, 404);
        assert.equal((await get('/page.html', { 'accept-encoding': 'identity;q=0, gzip;q=0, br;q=0, zstd;q=0, deflate;q=0, lzma;q=0', 'if-match': '"x"' })).status, 406);
      });

      await t.test(`${proto}: on-the-fly ETags are weak: 304 yes, If-Match and If-Range no`, async () => {
        const full = await get('/app.js', { 'accept-encoding': 'gzip' });
        const { etag } = full.headers;
        assert.match(etag, /^W\/"[^"]+-gzip"$/);
        const identity = await get('/app.js', {});
        assert.match(identity.headers.etag, /^"[^"]+"$/, 'identity keeps a strong ETag');
        const lm = full.headers['last-modified'];
        // [headers, status]
        const rows = [
          [{ 'if-none-match': etag }, 304],
          [{ 'if-none-match': etag.slice(2) }, 304],
          [{ 'if-match': etag }, 412],
          [{ 'if-match': etag.slice(2) }, 412],
          [{ 'if-match': '*' }, 200],
          [{ 'range': 'bytes=0-3' }, 206],
          [{ 'range': 'bytes=0-3', 'if-range': etag }, 200],
          [{ 'range': 'bytes=0-3', 'if-range': etag.slice(2) }, 200],
          [{ 'range': 'bytes=0-3', 'if-range': lm }, 200],
        ];
        for (const [headers, status] of rows) {
          const res = await get('/app.js', { 'accept-encoding': 'gzip', ...headers });
          const label = JSON.stringify(headers);
          assert.equal(res.status, status, label);
          assert.equal(res.headers.etag, etag, label);
          if (status === 200) assert.deepEqual(res.body, full.body, label);
        }
      });

      await t.test(`${proto}: HEAD has the GET headers and no body`, async () => {
        for (const ae of ['br', 'gzip', '']) {
          const getRes = await get('/page.html', { 'accept-encoding': ae });
          const head = await get('/page.html', { 'accept-encoding': ae }, 'HEAD');
          assert.equal(head.status, 200);
          assert.equal(head.body.length, 0);
          for (const name of ['content-type', 'content-length', 'content-encoding', 'etag', 'last-modified', 'vary', 'cache-control', 'accept-ranges']) {
            assert.equal(head.headers[name], getRes.headers[name], name);
          }
        }
        const missing = await get('/nope.html', {}, 'HEAD');
        assert.equal(missing.status, 404);
        assert.equal(missing.body.length, 0);
      });

      await t.test(`${proto}: other methods get 405 with Allow`, async () => {
        for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']) {
          const res = await get('/page.html', {}, method);
          assert.equal(res.status, 405, method);
          assert.equal(res.headers.allow, 'GET, HEAD');
        }
      });

      await t.test(`${proto}: directories`, async () => {
        const redirect = await get('/docs?x=1&y=2');
        assert.equal(redirect.status, 301);
        assert.equal(redirect.headers.location, '/docs/?x=1&y=2');
        const index = await get('/docs/?x=1');
        assert.equal(index.status, 200);
        assert.equal(index.body.toString(), '<h1>docs</h1>');
        assert.equal(index.headers['content-type'], 'text/html; charset=utf-8');
        assert.equal((await get('/')).status, 404, 'root without index.html');
        assert.equal((await get('/missing/')).status, 404);
      });
    }

    await t.test('bodies decode to the original in every coding', async () => {
      for (const coding of ['br', 'zstd', 'gzip', 'deflate', 'lzma']) {
        for (const path of ['/app.js', '/page.html']) {
          const res = await srv.h2(path, { headers: { 'accept-encoding': coding } });
          assert.equal(res.headers['content-encoding'], coding);
          assert.equal((await decode(coding, res.body)).toString(), path === '/app.js' ? APP : PAGE, `${path} ${coding}`);
        }
      }
    });
  });

  test('an open-redirect-looking directory path stays on this origin', async (t) => {
    const srv = await startTestServer({ engine, files: { 'evil.example/index.html': 'x' } });
    t.after(() => srv.close());
    const res = await srv.h1('//evil.example');
    assert.equal(res.status, 301);
    assert.equal(res.headers.location, '/evil.example/');
  });
});
