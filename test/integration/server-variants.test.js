'use strict';
// Precompressed variants and on-the-fly compression: byte-for-byte variants, stale variants,
// variants by their own name, the compress cache (hits, single flight, cap), streamed large
// files and files changing on disk.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const path = require('node:path');
const crypto = require('node:crypto');
const { forEachEngine, startTestServer, compressibleText } = require('../helpers/server');
const { decode, engines } = require('../helpers/clients');
const { waitFor } = require('../helpers/poll');

const PAGE = compressibleText(6000, 'page');
const OLD = new Date(Date.now() - 3600_000);
const NEW = new Date(Date.now() - 60_000);

function captureLogger() {
  const lines = [];
  const push = (msg) => lines.push(msg);
  return { lines, enabled: () => true, error: push, warn: push, info() {}, debug() {}, always() {}, drain: async () => {} };
}

async function variantsOf(text) {
  const out = {};
  for (const [coding, ext] of [['br', '.br'], ['zstd', '.zst'], ['gzip', '.gz'], ['lzma', '.lzma']]) {
    out[ext] = await engines.compress(coding, Buffer.from(text), { level: 'max' });
  }
  return out;
}


forEachEngine((engine) => {
  test('precompressed variants', async (t) => {
    const v = await variantsOf(PAGE);
    const log = captureLogger();
    const srv = await startTestServer({
      engine,
      logger: log,
      files: {
        'page.html': { content: PAGE, mtime: OLD },
        'page.html.br': { content: v['.br'], mtime: NEW },
        'page.html.zst': { content: v['.zst'], mtime: NEW },
        'page.html.gz': { content: v['.gz'], mtime: NEW },
        'page.html.lzma': { content: v['.lzma'], mtime: NEW },
        'stale.css': { content: PAGE, mtime: NEW },
        'stale.css.br': { content: v['.br'], mtime: OLD },
        'stale.css.zst': { content: v['.zst'], mtime: OLD },
        'stale.css.gz': { content: v['.gz'], mtime: OLD },
      },
    });
    t.after(() => srv.close());

    await t.test('served byte for byte with the original type and their coding', async () => {
      for (const [coding, ext] of [['br', '.br'], ['zstd', '.zst'], ['gzip', '.gz'], ['lzma', '.lzma']]) {
        for (const proto of ['h1', 'h2']) {
          const res = await srv[proto]('/page.html', { headers: { 'accept-encoding': coding } });
          assert.equal(res.headers['content-encoding'], coding);
          assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
          assert.deepEqual(res.body, v[ext], `${proto} ${coding}`);
          assert.equal((await decode(coding, res.body)).toString(), PAGE);
        }
      }
      assert.equal(srv.stats.compressCache.compressions, 0, 'nothing compressed on the fly');
    });

    await t.test('stale variants are ignored and logged once, in one line for the file', async () => {
      for (let i = 0; i < 3; i++) {
        const res = await srv.h2('/stale.css', { headers: { 'accept-encoding': 'br' } });
        assert.equal(res.headers['content-encoding'], 'br');
        assert.notDeepEqual(res.body, v['.br'], 'not the stale file');
        assert.equal((await decode('br', res.body)).toString(), PAGE);
      }
      const warnings = log.lines.filter((l) => l.includes('stale.css'));
      assert.equal(warnings.length, 1, log.lines.join('\n'));
      assert.match(warnings[0], /^ignoring stale variants of \S+stale\.css: stale\.css\.br, stale\.css\.zst, stale\.css\.gz older than the whole second/);
      const report = JSON.parse((await srv.h1('/_negotiate?path=/stale.css&ae=br')).body);
      assert.equal(report.source, 'dynamic');
    });

    await t.test('a variant requested by its own name is an opaque file', async () => {
      for (const proto of ['h1', 'h2']) {
        const br = await srv[proto]('/page.html.br', { headers: { 'accept-encoding': 'br, gzip' } });
        assert.equal(br.status, 200);
        assert.equal(br.headers['content-encoding'], undefined);
        assert.equal(br.headers['content-type'], 'application/octet-stream');
        assert.deepEqual(br.body, v['.br']);
        const gz = await srv[proto]('/page.html.gz', { headers: { 'accept-encoding': 'gzip' } });
        assert.equal(gz.headers['content-encoding'], undefined);
        assert.equal(gz.headers['content-type'], 'application/gzip');
        assert.deepEqual(gz.body, v['.gz']);
      }
    });

    await t.test('variants are never sent without Content-Encoding under the original name', async () => {
      const res = await srv.h2('/page.html', { headers: { 'accept-encoding': 'identity' } });
      assert.equal(res.headers['content-encoding'], undefined);
      assert.equal(res.body.toString(), PAGE);
    });
  });

  test('on-the-fly compression cache', async (t) => {
    const srv = await startTestServer({
      engine,
      files: { 'a.js': compressibleText(20_000, 'a'), 'b.js': compressibleText(20_000, 'b'), 'c.js': compressibleText(8000, 'c') },
    });
    t.after(() => srv.close());

    await t.test('the second request is served from the cache', async () => {
      const first = await srv.h2('/a.js', { headers: { 'accept-encoding': 'gzip' } });
      const before = srv.stats.compressCache;
      assert.equal(before.compressions, 1);
      const second = await srv.h1('/a.js', { headers: { 'accept-encoding': 'gzip' } });
      const after = srv.stats.compressCache;
      assert.equal(after.compressions, 1, 'no second compression');
      assert.ok(after.hits > before.hits, 'counted as a hit');
      assert.deepEqual(second.body, first.body);
      assert.equal(second.headers.etag, first.headers.etag);
    });

    await t.test('concurrent first requests share one compression', async () => {
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) =>
        srv[i % 2 ? 'h1' : 'h2']('/b.js', { headers: { 'accept-encoding': 'br' } })));
      for (const res of results) assert.deepEqual(res.body, results[0].body);
      assert.equal(srv.stats.compressCache.compressions, 2, 'one for a.js, one for b.js');
    });

    await t.test('a changed file is recompressed, with a new ETag', async () => {
      const before = await srv.h2('/c.js', { headers: { 'accept-encoding': 'br' } });
      const text = compressibleText(9000, 'changed');
      await fs.writeFile(path.join(srv.root, 'c.js'), text);
      const after = await srv.h2('/c.js', { headers: { 'accept-encoding': 'br' } });
      assert.equal((await decode('br', after.body)).toString(), text);
      assert.notEqual(after.headers.etag, before.headers.etag);
    });
  });

  test('past the compression cap a precompressed variant or identity is served', async (t) => {
    const big = compressibleText(3 * 1024 * 1024, 'big') + crypto.randomBytes(256 * 1024).toString('hex');
    const small = compressibleText(6000, 'small');
    const srv = await startTestServer({
      engine,
      maxConcurrentCompressions: 1,
      files: {
        'big.txt': big,
        'small.js': { content: small, mtime: OLD },
        'small.js.br': { content: await engines.compress('br', Buffer.from(small)), mtime: NEW },
        'plain.js': small,
      },
    });
    t.after(() => srv.close());
    const slow = srv.h2('/big.txt', { headers: { 'accept-encoding': 'lzma' } });
    await waitFor(() => srv.stats.compressCache.inflight === 1, { what: 'the lzma compression to start', intervalMs: 5 });
    const res = await srv.h2('/small.js', { headers: { 'accept-encoding': 'gzip, br;q=0.5' } });
    const plain = await srv.h2('/plain.js', { headers: { 'accept-encoding': 'gzip' } });
    const busy = srv.stats.compressCache.inflight;
    const slowRes = await slow;
    if (busy !== 1) {
      t.skip('the lzma compression finished before the other requests were made');
      return;
    }
    assert.equal(res.headers['content-encoding'], 'br', 'fell back to the precompressed variant');
    assert.equal(plain.headers['content-encoding'], undefined, 'fell back to identity');
    assert.equal(plain.body.toString(), small);
    assert.ok(srv.stats.compressCache.rejected >= 2);
    assert.equal((await decode('lzma', slowRes.body)).toString(), big);
  });

  test('large files stream from disk, compressed on the fly as a stream', async (t) => {
    const text = compressibleText(300_000, 'large');
    const binary = crypto.randomBytes(200_000);
    const srv = await startTestServer({
      engine,
      bufferLimit: 64 * 1024,
      files: { 'large.txt': text, 'large.bin': binary },
    });
    t.after(() => srv.close());
    for (const proto of ['h1', 'h2']) {
      const id = await srv[proto]('/large.bin');
      assert.deepEqual(id.body, binary);
      assert.equal(Number(id.headers['content-length']), binary.length);
      const part = await srv[proto]('/large.bin', { headers: { range: 'bytes=1000-70999' } });
      assert.equal(part.status, 206);
      assert.deepEqual(part.body, binary.subarray(1000, 71000));
      const suffix = await srv[proto]('/large.bin', { headers: { range: 'bytes=-10' } });
      assert.deepEqual(suffix.body, binary.subarray(binary.length - 10));
      for (const coding of ['gzip', 'br', 'zstd']) {
        const res = await srv[proto]('/large.txt', { headers: { 'accept-encoding': coding, range: 'bytes=0-9' } });
        assert.equal(res.status, 200, 'a body compressed as it streams is not ranged');
        assert.equal(res.headers['content-encoding'], coding);
        assert.equal(res.headers['content-length'], undefined);
        assert.equal(res.headers.vary, 'Accept-Encoding');
        assert.equal((await decode(coding, res.body)).toString(), text, `${proto} ${coding}`);
        const head = await srv[proto]('/large.txt', { method: 'HEAD', headers: { 'accept-encoding': coding } });
        assert.equal(head.headers.etag, res.headers.etag);
        assert.equal(head.body.length, 0);
      }
    }
    assert.equal(srv.stats.streamingCompressions, 0, 'every compression slot was released');
  });

  test('changes on disk are seen: new content, added and removed variants', async (t) => {
    const srv = await startTestServer({ engine, files: { 'x.html': { content: PAGE, mtime: OLD } }, dynamic: false });
    t.after(() => srv.close());
    const first = await srv.h2('/x.html', { headers: { 'accept-encoding': 'br' } });
    assert.equal(first.headers['content-encoding'], undefined);
    const br = await engines.compress('br', Buffer.from(PAGE), { level: 'max' });
    await fs.writeFile(path.join(srv.root, 'x.html.br'), br);
    const second = await srv.h2('/x.html', { headers: { 'accept-encoding': 'br' } });
    assert.equal(second.headers['content-encoding'], 'br');
    assert.deepEqual(second.body, br);
    await fs.rm(path.join(srv.root, 'x.html.br'));
    const third = await srv.h2('/x.html', { headers: { 'accept-encoding': 'br' } });
    assert.equal(third.headers['content-encoding'], undefined);
    await fs.writeFile(path.join(srv.root, 'x.html'), 'short');
    const fourth = await srv.h1('/x.html');
    assert.equal(fourth.body.toString(), 'short');
    assert.equal(fourth.headers['content-length'], '5');
  });

  // The standard tools, each run as people do: keep the original, write name + extension.
  const TOOLS = [
    { coding: 'br', ext: '.br', cmd: 'brotli', args: ['-k'] },
    { coding: 'gzip', ext: '.gz', cmd: 'gzip', args: ['-k', '-9'] },
    { coding: 'zstd', ext: '.zst', cmd: 'zstd', args: ['-q', '-k', '-19'] },
    { coding: 'lzma', ext: '.lzma', cmd: 'xz', args: ['--format=lzma', '-k'] },
  ];

  function runTool(cmd, args) {
    return new Promise((resolve, reject) => {
      require('node:child_process').execFile(cmd, args, (err, stdout, stderr) => (err ? reject(new Error(`${cmd}: ${stderr || err.message}`)) : resolve()));
    });
  }

  function missingTools() {
    const { execFileSync } = require('node:child_process');
    const missing = TOOLS.filter(({ cmd }) => {
      try {
        execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
        return false;
      } catch {
        return true;
      }
    }).map(({ cmd }) => cmd);
    return missing.length === 0 ? false : `needs ${missing.join(', ')} (scripts/system-deps.sh)`;
  }

  test('variants made by brotli -k, gzip -k, zstd -k and xz -k are served; a same-second stale one is not', { skip: missingTools() }, async (t) => {
    const log = captureLogger();
    const srv = await startTestServer({ engine, logger: log, files: { 'tools.html': PAGE, 'stale.html': PAGE } });
    t.after(() => srv.close());
    // A fractional mtime: brotli keeps only its whole seconds, the others all of it.
    const second = Math.floor(Date.now() / 1000) - 60;
    const original = path.join(srv.root, 'tools.html');
    await fs.utimes(original, second + 0.123456789, second + 0.123456789);
    for (const { cmd, args } of TOOLS) await runTool(cmd, [...args, original]);
    const brStat = await fs.stat(original + '.br');
    assert.equal(brStat.mtimeMs, second * 1000, 'brotli -k truncates the mtime to whole seconds');

    for (const { coding, ext } of TOOLS) {
      for (const proto of ['h1', 'h2']) {
        const res = await srv[proto]('/tools.html', { headers: { 'accept-encoding': coding } });
        assert.equal(res.headers['content-encoding'], coding, `${proto} ${coding}`);
        assert.deepEqual(res.body, await fs.readFile(original + ext), `${proto} ${coding}: the tool's file as-is`);
      }
    }
    assert.equal(srv.stats.compressCache.compressions, 0, 'nothing compressed on the fly');
    assert.deepEqual(log.lines, []);

    // A variant of the old content, the original rewritten within the same second: the mtimes
    // look like brotli's truncation, the content tells them apart.
    const stale = path.join(srv.root, 'stale.html');
    await fs.utimes(stale, second + 0.2, second + 0.2);
    await runTool('brotli', ['-k', stale]);
    const changed = PAGE.replace('page 1:', 'PAGE 1:');
    await fs.writeFile(stale, changed);
    await fs.utimes(stale, second + 0.7, second + 0.7);
    for (let i = 0; i < 2; i++) {
      const res = await srv.h2('/stale.html', { headers: { 'accept-encoding': 'br' } });
      assert.equal(res.headers['content-encoding'], 'br');
      assert.equal((await decode('br', res.body)).toString(), changed, 'compressed on the fly from the current file');
    }
    assert.deepEqual(log.lines, [`ignoring stale variants of ${stale}: stale.html.br older than the file, and does not decode to its current content`]);
    const report = JSON.parse((await srv.h1('/_negotiate?path=/stale.html&ae=br')).body);
    assert.equal(report.source, 'dynamic');

    // Older than the original's whole second: stale without looking at the content.
    await fs.utimes(stale + '.br', second - 1, second - 1);
    await srv.h2('/stale.html', { headers: { 'accept-encoding': 'br' } });
    assert.equal(log.lines.length, 2);
    assert.match(log.lines[1], /stale\.html\.br older than the whole second of the file it encodes \(variant .*, file .*\)$/);
  });
});
