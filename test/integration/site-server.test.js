'use strict';
// The site features over real sockets, on both engines: header rules from negotiate.config.json
// on 200/206/304/HEAD, the file itself never served, --spa, 404.html, --listing, and the
// access-log formats.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const path = require('node:path');
const zlib = require('node:zlib');
const { forEachEngine, startTestServer, makeTempDir, writeFiles, compressibleText } = require('../helpers/server');
const { waitFor } = require('../helpers/poll');

const JS = compressibleText(4000, 'js');
const NOT_FOUND_PAGE = `<!DOCTYPE html><title>Not found</title>${compressibleText(3000, 'missing')}`;
const RULES = [
  { match: '**', headers: { 'x-frame-options': 'DENY' } },
  { match: '**/*.*.js', headers: { 'cache-control': 'public, max-age=31536000, immutable', 'x-frame-options': 'SAMEORIGIN' } },
  { match: 'assets/**', headers: { 'x-asset': 'caf\u00e9' } },
];
const LISTED = {
  'list/a b.txt': 'hello',
  'list/a b.txt.gz': zlib.gzipSync('hello'),
  'list/<x>.html': 'x',
  'list/orphan.gz': 'not a variant',
  'list/.dot': 'secret',
  'list/sub/inner.txt': 'inner',
};
const LISTING_PAGE = '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Index of /list/</title></head><body>\n' +
  '<h1>Index of /list/</h1>\n<table>\n<tr><th>Name</th><th>Size (bytes)</th></tr>\n' +
  '<tr><td><a href="../">../</a></td><td>-</td></tr>\n' +
  '<tr><td><a href="./sub/">sub/</a></td><td>-</td></tr>\n' +
  '<tr><td><a href="./%3Cx%3E.html">&lt;x&gt;.html</a></td><td>1</td></tr>\n' +
  '<tr><td><a href="./a%20b.txt">a b.txt</a></td><td>5</td></tr>\n' +
  '<tr><td><a href="./orphan.gz">orphan.gz</a></td><td>13</td></tr>\n' +
  '</table>\n</body></html>\n';
const CONFIG = JSON.stringify({ headers: RULES, spa: true, listing: true });
const HTML = 'text/html,application/xhtml+xml,*/*;q=0.8';

forEachEngine((engine) => {
  let on;
  let off;
  before(async () => {
    const files = { 'index.html': '<h1>app</h1>', 'plain.txt': 'plain', 'js/app.1f.js': JS, 'assets/a.txt': 'asset', ...LISTED };
    on = await startTestServer({
      engine,
      files: { ...files, '404.html': NOT_FOUND_PAGE, 'negotiate.config.json': CONFIG, 'negotiate.config.json.gz': zlib.gzipSync(CONFIG) },
    });
    off = await startTestServer({ engine, files });
  });
  after(async () => {
    await on.close();
    await off.close();
  });

  for (const proto of ['h1', 'h2']) {
    test(`${proto}: rules' headers on 200, HEAD, 206 and 304; later rules win`, async () => {
      const full = await on[proto]('/js/app.1f.js');
      assert.equal(full.status, 200);
      assert.equal(full.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.equal(full.headers['x-frame-options'], 'SAMEORIGIN');
      assert.equal(full.headers['x-asset'], undefined);
      const head = await on[proto]('/js/app.1f.js', { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(head.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.equal(head.headers['x-frame-options'], 'SAMEORIGIN');
      const range = await on[proto]('/js/app.1f.js', { headers: { range: 'bytes=0-9' } });
      assert.equal(range.status, 206);
      assert.equal(range.body.toString(), JS.slice(0, 10));
      assert.equal(range.headers['x-frame-options'], 'SAMEORIGIN');
      assert.equal(range.headers['cache-control'], 'public, max-age=31536000, immutable');
      const revalidated = await on[proto]('/js/app.1f.js', { headers: { 'if-none-match': full.headers.etag } });
      assert.equal(revalidated.status, 304);
      assert.equal(revalidated.headers['x-frame-options'], 'SAMEORIGIN');
      assert.equal(revalidated.headers['cache-control'], 'public, max-age=31536000, immutable');
      const br = await on[proto]('/js/app.1f.js', { headers: { 'accept-encoding': 'br' } });
      assert.equal(br.headers['content-encoding'], 'br');
      assert.equal(br.headers['x-frame-options'], 'SAMEORIGIN');
      assert.equal(zlib.brotliDecompressSync(br.body).toString(), JS);
    });

    test(`${proto}: headers only where a rule matches`, async () => {
      const plain = await on[proto]('/plain.txt');
      assert.equal(plain.headers['x-frame-options'], 'DENY');
      assert.equal(plain.headers['cache-control'], 'public, max-age=0');
      assert.equal(plain.headers['x-asset'], undefined);
      const asset = await on[proto]('/assets/a.txt');
      assert.equal(asset.headers['x-asset'], 'caf\u00e9');
      const index = await on[proto]('/');
      assert.equal(index.headers['x-frame-options'], 'DENY');
      const none = await off[proto]('/js/app.1f.js');
      assert.equal(none.headers['x-frame-options'], undefined);
      assert.equal(none.headers['cache-control'], 'public, max-age=0');
    });

    test(`${proto}: negotiate.config.json is never served, nor its variants`, async () => {
      for (const [target, ae] of [['/negotiate.config.json', 'identity'], ['/negotiate.config.json', 'gzip'], ['/negotiate.config.json.gz', 'identity']]) {
        const r = await on[proto](target, { headers: { 'accept': '*/*', 'accept-encoding': ae } });
        assert.equal(r.status, 404, target);
        // The 404 page, in the coding asked for: nothing of the configuration.
        assert.equal(r.headers['content-encoding'], ae === 'gzip' ? 'gzip' : undefined, target);
        assert.equal((ae === 'gzip' ? zlib.gunzipSync(r.body) : r.body).toString(), NOT_FOUND_PAGE, target);
      }
      const listed = (await on[proto]('/')).body.toString();
      assert.equal(listed, '<h1>app</h1>');
    });

    test(`${proto}: --spa answers a missing path with /index.html only when text/html is accepted`, async () => {
      const page = await on[proto]('/users/42', { headers: { accept: HTML } });
      assert.equal(page.status, 200);
      assert.equal(page.body.toString(), '<h1>app</h1>');
      assert.equal(page.headers.vary, 'Accept-Encoding, Accept');
      const revalidated = await on[proto]('/users/42', { headers: { accept: HTML, 'if-none-match': page.headers.etag } });
      assert.equal(revalidated.status, 304);
      assert.equal(revalidated.headers.vary, 'Accept-Encoding, Accept');
      const json = await on[proto]('/users/42', { headers: { accept: 'application/json' } });
      assert.equal(json.status, 404);
      assert.equal(json.headers.vary, 'Accept-Encoding, Accept');
      assert.equal(json.body.toString(), NOT_FOUND_PAGE);
      const dotfile = await on[proto]('/list/.dot', { headers: { accept: HTML } });
      assert.equal(dotfile.status, 404);
      assert.equal(dotfile.body.toString(), NOT_FOUND_PAGE);
      const spaOff = await off[proto]('/users/42', { headers: { accept: HTML } });
      assert.equal(spaOff.status, 404);
      assert.equal(spaOff.headers.vary, undefined);
      assert.equal(spaOff.body.toString(), 'not found\n');
    });

    test(`${proto}: 404.html goes out with status 404 in the negotiated coding, without validators`, async () => {
      const gz = await on[proto]('/missing.png', { headers: { 'accept-encoding': 'gzip', accept: 'image/*' } });
      assert.equal(gz.status, 404);
      assert.equal(gz.headers['content-encoding'], 'gzip');
      assert.equal(gz.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(gz.headers.etag, undefined);
      assert.equal(gz.headers['cache-control'], undefined);
      assert.equal(gz.headers['x-frame-options'], 'DENY');
      assert.equal(zlib.gunzipSync(gz.body).toString(), NOT_FOUND_PAGE);
      const head = await on[proto]('/missing.png', { method: 'HEAD', headers: { 'accept-encoding': 'gzip' } });
      assert.equal(head.status, 404);
      assert.equal(head.headers['content-length'], gz.headers['content-length']);
      assert.equal(head.body.length, 0);
      const plain = await on[proto]('/missing.png', { headers: { 'if-none-match': '*' } });
      assert.equal(plain.status, 404);
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.equal(plain.body.toString(), NOT_FOUND_PAGE);
    });

    test(`${proto}: --listing lists a folder without index.html; off, it is a 404`, async () => {
      const list = await on[proto]('/list/');
      assert.equal(list.status, 200);
      assert.equal(list.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(list.body.toString(), LISTING_PAGE);
      const head = await on[proto]('/list/', { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(head.headers['content-length'], String(Buffer.byteLength(LISTING_PAGE)));
      assert.equal(head.body.length, 0);
      assert.equal((await on[proto]('/list/a%20b.txt')).body.toString(), 'hello');
      const unlisted = await off[proto]('/list/');
      assert.equal(unlisted.status, 404);
      assert.equal(unlisted.body.toString(), 'not found\n');
    });
  }

  test('--config FILE inside the root: that file is not served either', async (t) => {
    const dir = await makeTempDir();
    t.after(() => fs.rm(dir, { recursive: true, force: true }));
    await writeFiles(dir, { 'a.txt': 'a', 'conf/site.json': JSON.stringify({ headers: [{ match: '*.txt', headers: { 'x-site': 'yes' } }] }) });
    const srv = await startTestServer({ engine, root: dir, config: path.join(dir, 'conf/site.json') });
    t.after(() => srv.close());
    const a = await srv.h2('/a.txt');
    assert.equal(a.headers['x-site'], 'yes');
    assert.equal((await srv.h2('/conf/site.json')).status, 404);
    assert.equal((await srv.h1('/conf/site.json')).status, 404);
  });

  test('access-log formats: the exact line for a fixed client', async (t) => {
    const client = { 'user-agent': 'site-test/1.0 "quoted"', 'referer': 'https://example.test/from' };
    const expected = {
      short: [/^GET \/plain\.txt 200 identity 5 \d+\.\dms$/, /^GET \/plain\.txt 200 identity 5 \d+\.\dms$/],
      combined: [
        /^127\.0\.0\.1 - - \[\d\d\/[A-Z][a-z]{2}\/\d{4}:\d\d:\d\d:\d\d \+0000\] "GET \/plain\.txt HTTP\/1\.1" 200 5 "https:\/\/example\.test\/from" "site-test\/1\.0 \\x22quoted\\x22"$/,
        /^127\.0\.0\.1 - - \[\d\d\/[A-Z][a-z]{2}\/\d{4}:\d\d:\d\d:\d\d \+0000\] "GET \/plain\.txt HTTP\/2\.0" 200 5 "https:\/\/example\.test\/from" "site-test\/1\.0 \\x22quoted\\x22"$/,
      ],
    };
    for (const format of ['short', 'combined', 'json']) {
      const lines = [];
      const logger = { enabled: () => true, info: (m) => lines.push(m), raw: (m) => lines.push(m), error() {}, warn() {}, debug() {}, always() {}, drain: async () => {} };
      // Without HTTP/3, whose start-up line (runs, or off and why) would be one more info line.
      const srv = await startTestServer({ engine, logger, logFormat: format, http3: false, files: { 'plain.txt': 'plain' } });
      t.after(() => srv.close());
      // The start-up lines (which TLS transport runs) are not access-log lines.
      lines.length = 0;
      await srv.h1('/plain.txt', { headers: client });
      await srv.h2('/plain.txt', { headers: client });
      await waitFor(() => lines.length >= 2, { what: 'two access-log lines' });
      assert.equal(lines.length, 2, format);
      if (format !== 'json') {
        lines.forEach((line, i) => assert.match(line, expected[format][i], `${format} ${line}`));
        continue;
      }
      lines.forEach((line, i) => {
        const { time, durationMs, ...rest } = JSON.parse(line);
        assert.match(time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        assert.equal(typeof durationMs, 'number');
        assert.deepEqual(rest, {
          remoteAddress: '127.0.0.1', protocol: i === 0 ? 'http/1.1' : 'h2', method: 'GET', path: '/plain.txt', status: 200,
          aborted: false, coding: 'identity', bytes: 5, userAgent: client['user-agent'], referer: client.referer,
        });
      });
    }
  });
});
