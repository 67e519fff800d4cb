'use strict';
// Accept-Encoding negotiation over HTTP/1.1 and HTTP/2: q-values, exclusions, ties, 406,
// which codings count for a file, bodies decoding back to the original, and /_negotiate.

const test = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const { forEachEngine, startTestServer, compressibleText } = require('../helpers/server');
const { decode } = require('../helpers/clients');

const APP = compressibleText(4000, 'app');
const TINY = 'x'.repeat(100);
const PNG = crypto.randomBytes(5000);

// [Accept-Encoding (undefined = no header), expected coding or 406]; app.js can be served in
// every coding (on the fly), server preference br, zstd, gzip, deflate, lzma.
const MATRIX = [
  [undefined, 'identity'],
  ['', 'identity'],
  ['gzip', 'gzip'],
  ['gzip, br', 'br'],
  ['deflate, gzip', 'gzip'],
  ['br;q=0.5, gzip', 'gzip'],
  ['gzip;q=0.8, deflate;q=0.9', 'deflate'],
  ['*', 'br'],
  ['*;q=0', 406],
  ['identity;q=0', 406],
  ['br;q=0, *', 'zstd'],
  ['identity;q=0, *;q=0.1, gzip;q=0.1', 'br'],
  ['gzip;q=0, identity', 'identity'],
  ['gzip;q=0.5', 'gzip'],
  ['lzma', 'lzma'],
  ['zstd', 'zstd'],
  ['zstd;q=abc, gzip', 'gzip'],
  // Malformed q as negotiator reads it (parseFloat): 2 outweighs 1; -1 also sinks identity.
  ['gzip;q=2, br', 'gzip'],
  ['gzip;q=-1', 406],
  ['BR', 'br'],
  ['compress, x-gzip', 'identity'],
  ['unknown, identity;q=0', 406],
  ['gzip;q=1.0, br;q=0.999', 'gzip'],
  ['br;q=0, zstd;q=0, gzip;q=0, deflate;q=0, lzma;q=0', 'identity'],
];

forEachEngine((engine) => {
  test('negotiation', async (t) => {
    const srv = await startTestServer({
      engine,
      files: { 'app.js': APP, 'tiny.txt': TINY, 'photo.png': PNG },
    });
    t.after(() => srv.close());

    for (const proto of ['h1', 'h2']) {
      await t.test(`${proto}: q-value matrix`, async () => {
        for (const [ae, expected] of MATRIX) {
          const headers = ae === undefined ? {} : { 'accept-encoding': ae };
          const res = await srv[proto]('/app.js', { headers });
          const label = `Accept-Encoding: ${ae === undefined ? '(none)' : JSON.stringify(ae)}`;
          assert.equal(res.headers.vary, 'Accept-Encoding', label);
          if (expected === 406) {
            assert.equal(res.status, 406, label);
            assert.match(res.body.toString(), /br, zstd, gzip, deflate, lzma, identity/, label);
            continue;
          }
          assert.equal(res.status, 200, label);
          assert.equal(res.headers['content-encoding'], expected === 'identity' ? undefined : expected, label);
          assert.equal(Number(res.headers['content-length']), res.body.length, label);
          assert.equal((await decode(expected, res.body)).toString(), APP, label);
        }
      });
    }

    await t.test('only codings the server can produce for the file count', async () => {
      for (const proto of ['h1', 'h2']) {
        const tiny = await srv[proto]('/tiny.txt', { headers: { 'accept-encoding': 'br, gzip' } });
        assert.equal(tiny.headers['content-encoding'], undefined, 'below 1 KiB: identity');
        assert.equal(tiny.body.toString(), TINY);
        const tinyNoIdentity = await srv[proto]('/tiny.txt', { headers: { 'accept-encoding': 'br, identity;q=0' } });
        assert.equal(tinyNoIdentity.status, 406);
        assert.match(tinyNoIdentity.body.toString(), /identity/);
        assert.equal(tinyNoIdentity.headers.vary, 'Accept-Encoding');
        const png = await srv[proto]('/photo.png', { headers: { 'accept-encoding': 'gzip' } });
        assert.equal(png.headers['content-encoding'], undefined, 'not compressible: identity');
        assert.equal(png.headers['content-type'], 'image/png');
        assert.deepEqual(png.body, PNG);
      }
    });

    await t.test('/_negotiate explains the same decision real requests get', async () => {
      for (const ae of ['gzip, br', 'br;q=0, *', '*;q=0', '', undefined, 'deflate;q=0.5, lzma;q=0.5']) {
        const query = `/_negotiate?path=/app.js${ae === undefined ? '' : `&ae=${encodeURIComponent(ae)}`}`;
        const res = await srv.h2(query);
        assert.equal(res.status, 200);
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.match(res.headers['content-type'], /^application\/json/);
        const report = JSON.parse(res.body);
        const real = await srv.h2('/app.js', { headers: ae === undefined ? {} : { 'accept-encoding': ae } });
        assert.equal(report.status, real.status, `status for ${ae}`);
        assert.equal(report.chosen, real.status === 406 ? null : (real.headers['content-encoding'] || 'identity'), `chosen for ${ae}`);
        assert.deepEqual(report.preference, ['br', 'zstd', 'gzip', 'deflate', 'lzma']);
        assert.equal(report.path, '/app.js');
        assert.equal(report.acceptEncoding, ae === undefined ? null : ae);
        assert.equal(typeof report.reason, 'string');
        assert.deepEqual(report.variants.map((v) => v.coding), ['br', 'zstd', 'gzip', 'deflate', 'lzma', 'identity']);
        if (real.status === 200) {
          const v = report.variants.find((x) => x.coding === report.chosen);
          assert.equal(v.bytes, real.body.length, 'reported size is the real body size');
          assert.equal(v.acceptable, true);
          assert.equal(v.available, true);
        }
      }
      const echo = JSON.parse((await srv.h1('/_negotiate?path=/app.js', { headers: { 'accept-encoding': 'gzip, deflate' } })).body);
      assert.equal(echo.acceptEncoding, 'gzip, deflate', "without ae the request's own header is evaluated");
      assert.equal(echo.chosen, 'gzip');
      // q is negotiator's weight for each coding (non-numbers as strings), acceptable is the
      // decision's own: [ae (undefined = no header), { coding: q }, chosen]
      const weights = [
        ['gzip;q=0.5,br', { br: 1, zstd: 0, gzip: 0.5, deflate: 0, lzma: 0, identity: 0.5 }, 'br'],
        ['br;q=0, *;q=0.3', { br: 0, zstd: 0.3, gzip: 0.3, deflate: 0.3, lzma: 0.3, identity: 0.3 }, 'zstd'],
        ['GZIP ; Q=0.250, gzip;q=0.7, identity;q=0', { br: 0, zstd: 0, gzip: 0.7, deflate: 0, lzma: 0, identity: 0 }, 'gzip'],
        ['gzip;q=2, zstd;q=0.5x', { br: 0, zstd: 0.5, gzip: 2, deflate: 0, lzma: 0, identity: 0.5 }, 'gzip'],
        ['br;q=abc, deflate;q=1e999', { br: 'NaN', zstd: 0, gzip: 0, deflate: 'Infinity', lzma: 0, identity: 1 }, 'deflate'],
        ['gzip;q=-1', { br: 0, zstd: 0, gzip: -1, deflate: 0, lzma: 0, identity: -1 }, null],
        ['', { br: 0, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 1 }, 'identity'],
        [undefined, { br: 1, zstd: 1, gzip: 1, deflate: 1, lzma: 1, identity: 1 }, 'identity'],
      ];
      for (const [ae, expected, chosen] of weights) {
        const query = `/_negotiate?path=/app.js${ae === undefined ? '' : `&ae=${encodeURIComponent(ae)}`}`;
        const report = JSON.parse((await srv.h1(query)).body);
        const got = Object.fromEntries(report.variants.map((v) => [v.coding, v.q]));
        assert.deepEqual(got, expected, String(ae));
        assert.equal(report.chosen, chosen, String(ae));
        for (const v of report.variants) assert.equal(v.acceptable, Number(v.q) > 0, `${ae} ${v.coding}`);
      }
      const none = JSON.parse((await srv.h1('/_negotiate?path=/app.js')).body);
      assert.equal(none.chosen, 'identity');
      assert.match(none.reason, /^no Accept-Encoding header: any coding is acceptable \(RFC 9110 12\.5\.3\), but identity is sent/);
      const empty = JSON.parse((await srv.h1('/_negotiate?path=/app.js&ae=')).body);
      assert.match(empty.reason, /^empty Accept-Encoding: only identity is acceptable/);

      const tiny = JSON.parse((await srv.h1('/_negotiate?path=/tiny.txt&ae=br')).body);
      assert.equal(tiny.chosen, 'identity');
      assert.match(tiny.reason, /below 1024 bytes/);
      assert.equal(tiny.variants[0].available, false);

      assert.equal((await srv.h1('/_negotiate')).status, 400);
      assert.equal((await srv.h1('/_negotiate?path=app.js')).status, 400);
      assert.equal((await srv.h1('/_negotiate?path=/../etc/passwd')).status, 400);
      assert.equal((await srv.h1('/_negotiate?path=/missing.js')).status, 404);
    });
  });

  test('--negotiate-endpoint moves the endpoint or switches it off', async (t) => {
    const moved = await startTestServer({ engine, files: { 'app.js': APP, '_negotiate': 'a file' }, negotiateEndpoint: '/api/negotiate' });
    const off = await startTestServer({ engine, files: { 'app.js': APP, '_negotiate': 'a file' }, negotiateEndpoint: 'off' });
    t.after(() => Promise.all([moved.close(), off.close()]));
    for (const proto of ['h1', 'h2']) {
      const report = await moved[proto]('/api/negotiate?path=/app.js&ae=gzip');
      assert.equal(report.status, 200);
      assert.equal(JSON.parse(report.body).chosen, 'gzip');
      assert.equal((await moved[proto]('/_negotiate?path=/app.js')).body.toString(), 'a file', 'the old path is a file again');
      assert.equal((await off[proto]('/_negotiate?path=/app.js')).body.toString(), 'a file');
      assert.equal((await off[proto]('/api/negotiate?path=/app.js')).status, 404);
    }
  });

  test('--encodings sets the preference order and the subset offered', async (t) => {
    const srv = await startTestServer({ engine, files: { 'app.js': APP }, encodings: 'gzip,br' });
    t.after(() => srv.close());
    const cases = [['br, gzip', 'gzip'], ['*', 'gzip'], ['br', 'br'], ['zstd', 'identity'], ['zstd, identity;q=0', 406]];
    for (const [ae, expected] of cases) {
      const res = await srv.h2('/app.js', { headers: { 'accept-encoding': ae } });
      if (expected === 406) {
        assert.equal(res.status, 406);
        assert.match(res.body.toString(), /gzip, br, identity/);
      } else {
        assert.equal(res.headers['content-encoding'] || 'identity', expected, ae);
      }
    }
  });

  test('--no-dynamic serves precompressed variants and identity only', async (t) => {
    const { engines } = require('../helpers/clients');
    const html = compressibleText(3000, 'page');
    const old = new Date(Date.now() - 60_000);
    const srv = await startTestServer({
      engine,
      dynamic: false,
      files: {
        'page.html': { content: html, mtime: old },
        'page.html.br': await engines.compress('br', Buffer.from(html), { level: 'max' }),
        'app.js': APP,
      },
    });
    t.after(() => srv.close());
    const page = await srv.h2('/page.html', { headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(page.headers['content-encoding'], 'br');
    assert.equal((await decode('br', page.body)).toString(), html);
    const app = await srv.h2('/app.js', { headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(app.headers['content-encoding'], undefined);
    assert.equal(srv.stats.compressCache.compressions, 0);
  });
});
