'use strict';
// Compression dictionaries (RFC 9842) over real sockets, HTTP/2 and HTTP/1.1, on both engines:
// a client holding app.v1.js asks for app.v2.js (280 KB, a small release apart) and gets a dcb
// or dcz delta that the reference decoders turn back into v2 (Brotli 1.1 through the node
// executable's, `zstd -d -D`); anything that does not name a dictionary the server holds gets
// the usual answer.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs/promises');
const path = require('node:path');
const { forEachEngine, startTestServer, makeTempDir } = require('../helpers/server');
const { plainRequest } = require('../helpers/plain-http');
const { toolSkipReason, runTool } = require('../helpers/tools');
const { waitFor } = require('../helpers/poll');
const { appScript } = require('../helpers/dictionary-site');
const { createEngines } = require('../../server/compression/codings');
const { createDictionaryEngines, HEADERS, frame, sha256 } = require('../../server/dictionaries/dictionary-codings');
const { rootCacheDir, realCacheDir } = require('../../server/files/variant-cache');
const { retiredDir } = require('../../server/dictionaries/retired-dictionaries');

const V1 = Buffer.from(appScript('v1'));
const V2 = Buffer.from(appScript('v2'));
const sfHash = (bytes) => `:${crypto.createHash('sha256').update(bytes).digest('base64')}:`;
const V1_HASH = sfHash(V1);
const RULE = { match: '/assets/app.*.js', matchDest: ['script'], id: 'app' };
const USE_AS_DICTIONARY = 'match="/assets/app.*.js", match-dest=("script"), id="app"';
const CHROME_AE = 'gzip, deflate, br, zstd, dcb, dcz';
// An older release, deleted by a test.
const V0 = Buffer.from(appScript('v0'));
const V0_HASH = sfHash(V0);
const FILES = { 'assets/app.v0.js': V0, 'assets/app.v1.js': V1, 'assets/app.v2.js': V2, 'assets/lib.js': V2 };

const engines = createEngines();
const dictionaryEngines = createDictionaryEngines(engines);

forEachEngine((engine) => {
  test('dictionary deltas over HTTP/2 and HTTP/1.1', { timeout: 60_000 }, async (t) => {
    const s = await startTestServer({ engine, files: FILES, dictionaries: [RULE] });
    t.after(() => s.close());
    // The start-up scan finds v1 and v2 before anyone asks for them.
    await waitFor(() => s.stats.dictionaries >= 3, { what: 'the dictionary scan' });

    for (const client of ['h2', 'h1']) {
      const get = (p, headers) => s[client](p, { headers });
      await t.test(`${client}: dcb against v1, at most 10% of br, decoded by Brotli 1.1 with the dictionary`, async () => {
        const br = await get('/assets/app.v2.js', { 'accept-encoding': 'br' });
        assert.equal(br.headers['content-encoding'], 'br');
        const r = await get('/assets/app.v2.js', { 'accept-encoding': CHROME_AE, 'available-dictionary': V1_HASH });
        assert.equal(r.status, 200);
        assert.equal(r.headers['content-encoding'], 'dcb');
        assert.equal(r.headers.vary, 'Accept-Encoding, Available-Dictionary');
        assert.equal(r.headers['use-as-dictionary'], USE_AS_DICTIONARY);
        assert.equal(Number(r.headers['content-length']), r.body.length);
        assert.deepEqual(r.body.subarray(0, 4), HEADERS.dcb);
        assert.equal(`:${r.body.subarray(4, 36).toString('base64')}:`, V1_HASH);
        assert.ok(r.body.length <= br.body.length / 10, `dcb ${r.body.length} bytes, br ${br.body.length}`);
        assert.deepEqual(await dictionaryEngines.decompress('dcb', r.body, V1), V2);
      });

      await t.test(`${client}: dcz when zstd is preferred, decoded by zstd -d -D`, async (st) => {
        const r = await get('/assets/app.v2.js', { 'accept-encoding': 'zstd, dcz, br;q=0.5, dcb;q=0.5', 'available-dictionary': V1_HASH });
        assert.equal(r.headers['content-encoding'], 'dcz');
        assert.deepEqual(r.body.subarray(0, 8), HEADERS.dcz);
        assert.deepEqual(await dictionaryEngines.decompress('dcz', r.body, V1), V2);
        const skip = toolSkipReason('zstd', 'zstd');
        if (skip) {
          st.skip(skip);
          return;
        }
        const dir = await makeTempDir('dcz-');
        st.after(() => fs.rm(dir, { recursive: true, force: true }));
        await fs.writeFile(path.join(dir, 'dict'), V1);
        await fs.writeFile(path.join(dir, 'body.zst'), r.body);
        const out = await runTool('zstd', ['-q', '-d', '-c', '-D', path.join(dir, 'dict'), path.join(dir, 'body.zst')]);
        assert.equal(out.code, 0, out.stderr);
        assert.deepEqual(out.stdout, V2);
      });

      await t.test(`${client}: no dictionary, an unknown or malformed one: the usual answer`, async () => {
        for (const value of [undefined, sfHash(Buffer.from('other bytes')), 'abc', ':AAAA:', '"string"', `${V1_HASH}, ${V1_HASH}`,
          `:${'A'.repeat(300)}:`, V1_HASH.slice(1), `${V1_HASH};p=1x`]) {
          const r = await get('/assets/app.v2.js', { 'accept-encoding': CHROME_AE, ...(value !== undefined && { 'available-dictionary': value }) });
          assert.equal(r.status, 200, String(value));
          assert.equal(r.headers['content-encoding'], 'br', String(value));
          assert.equal(r.headers.vary, 'Accept-Encoding, Available-Dictionary');
        }
        // A path no rule covers: no Use-As-Dictionary, no delta, Vary as for any file.
        const other = await get('/assets/lib.js', { 'accept-encoding': CHROME_AE, 'available-dictionary': V1_HASH });
        assert.equal(other.headers['content-encoding'], 'br');
        assert.equal(other.headers['use-as-dictionary'], undefined);
        assert.equal(other.headers.vary, 'Accept-Encoding');
      });

      await t.test(`${client}: dcb and dcz negotiated like any coding: q-values, identity;q=0, 406`, async () => {
        const cases = [
          ['br, dcb;q=0, dcz;q=0', V1_HASH, 200, 'br'],
          ['dcz;q=0.9, dcb;q=0.5, br', V1_HASH, 200, 'br'],
          ['dcb;q=0.5, dcz;q=0.9', V1_HASH, 200, 'dcz'],
          ['dcb, identity;q=0', V1_HASH, 200, 'dcb'],
          ['dcb, identity;q=0', undefined, 406, undefined],
          ['dcb', undefined, 200, undefined],
        ];
        for (const [ae, dictionary, status, coding] of cases) {
          const r = await get('/assets/app.v2.js', { 'accept-encoding': ae, ...(dictionary && { 'available-dictionary': dictionary }) });
          assert.equal(r.status, status, ae);
          assert.equal(r.headers['content-encoding'], coding, ae);
          // The 406 too depends on the dictionary: a cache must not give it to a client holding one.
          assert.equal(r.headers.vary, 'Accept-Encoding, Available-Dictionary', ae);
        }
      });

      await t.test(`${client}: each delta its own strong ETag; If-None-Match gives 304, Range a slice`, async () => {
        const headers = { 'accept-encoding': CHROME_AE, 'available-dictionary': V1_HASH };
        const dcb = await get('/assets/app.v2.js', headers);
        const dcz = await get('/assets/app.v2.js', { ...headers, 'accept-encoding': 'dcz' });
        const br = await get('/assets/app.v2.js', { 'accept-encoding': 'br' });
        assert.match(dcb.headers.etag, /^"[^"]+-dcb[^"]+"$/);
        assert.equal(new Set([dcb.headers.etag, dcz.headers.etag, br.headers.etag]).size, 3);
        const again = await get('/assets/app.v2.js', { ...headers, 'if-none-match': dcb.headers.etag });
        assert.equal(again.status, 304);
        assert.equal(again.headers.etag, dcb.headers.etag);
        assert.equal(again.headers.vary, 'Accept-Encoding, Available-Dictionary');
        // The dcb ETag names another representation than br's: no 304 for a br client.
        assert.equal((await get('/assets/app.v2.js', { 'accept-encoding': 'br', 'if-none-match': dcb.headers.etag })).status, 200);
        const part = await get('/assets/app.v2.js', { ...headers, range: 'bytes=10-49', 'if-range': dcb.headers.etag });
        assert.equal(part.status, 206);
        assert.equal(part.headers['content-range'], `bytes 10-49/${dcb.body.length}`);
        assert.deepEqual(part.body, dcb.body.subarray(10, 50));
      });

      await t.test(`${client}: cross-origin no-cors requests get no delta; same-origin and readable CORS ones do`, async () => {
        const base = { 'accept-encoding': CHROME_AE, 'available-dictionary': V1_HASH };
        const cases = [
          [{ 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'no-cors' }, 'dcb'],
          [{ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' }, 'br'],
          [{ 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors', 'origin': 'https://a.localhost' }, 'br'],
        ];
        for (const [extra, coding] of cases) {
          const r = await get('/assets/app.v2.js', { ...base, ...extra });
          assert.equal(r.headers['content-encoding'], coding, JSON.stringify(extra));
        }
      });
    }

    await t.test('/_negotiate explains the dictionary choice', async () => {
      const ask = async (ad) => JSON.parse((await s.h2(`/_negotiate?path=/assets/app.v2.js&ae=${encodeURIComponent(CHROME_AE)}${ad === undefined ? '' : `&ad=${encodeURIComponent(ad)}`}`)).body);
      const held = await ask(V1_HASH);
      assert.equal(held.chosen, 'dcb');
      assert.equal(held.source, 'dictionary');
      const dcb = await s.h2('/assets/app.v2.js', { headers: { 'accept-encoding': CHROME_AE, 'available-dictionary': V1_HASH } });
      assert.deepEqual(held.dictionary, {
        match: RULE.match, useAsDictionary: USE_AS_DICTIONARY, offered: ['dcb', 'dcz'], available: '/assets/app.v1.js',
        used: true, bytes: dcb.body.length, reason: 'dcb: a delta against /assets/app.v1.js',
      });
      const unknown = await ask(sfHash(Buffer.from('x')));
      assert.equal(unknown.chosen, 'br');
      assert.equal(unknown.dictionary.bytes, null);
      assert.equal(unknown.dictionary.reason, 'the server holds no dictionary with that hash for this path');
      assert.equal((await ask('nonsense')).dictionary.reason, 'Available-Dictionary is not an sf-binary SHA-256');
      assert.equal((await ask(undefined)).dictionary.reason, 'no Available-Dictionary');
      const other = JSON.parse((await s.h2('/_negotiate?path=/assets/lib.js')).body);
      assert.equal(other.dictionary, undefined);
    });

    await t.test('a dictionary whose file vanished is forgotten', async () => {
      const headers = { 'accept-encoding': CHROME_AE, 'available-dictionary': V0_HASH };
      assert.equal((await s.h2('/assets/app.v2.js', { headers })).headers['content-encoding'], 'dcb');
      await fs.rm(path.join(s.root, 'assets', 'app.v0.js'));
      assert.equal((await s.h2('/assets/app.v2.js', { headers })).headers['content-encoding'], 'br');
    });
  });

  test('a CORS response readable by the requesting origin may be a delta', async (t) => {
    const s = await startTestServer({
      engine, files: FILES, dictionaries: [RULE],
      headers: [{ match: 'assets/*.js', headers: { 'access-control-allow-origin': '*' } }],
    });
    t.after(() => s.close());
    await waitFor(() => s.stats.dictionaries >= 3, { what: 'the dictionary scan' });
    const headers = { 'accept-encoding': CHROME_AE, 'available-dictionary': V1_HASH, 'sec-fetch-site': 'cross-site' };
    assert.equal((await s.h2('/assets/app.v2.js', { headers: { ...headers, 'sec-fetch-mode': 'cors', origin: 'https://elsewhere.example' } })).headers['content-encoding'], 'dcb');
    assert.equal((await s.h2('/assets/app.v2.js', { headers: { ...headers, 'sec-fetch-mode': 'no-cors' } })).headers['content-encoding'], 'br');
  });

  test('a file rewritten in place is sent as a delta against its previous content', async (t) => {
    const s = await startTestServer({ engine, files: { 'assets/lib.js': V1 }, dictionaries: [{ match: '/assets/lib.js' }] });
    t.after(() => s.close());
    const first = await s.h2('/assets/lib.js', { headers: { 'accept-encoding': CHROME_AE } });
    assert.equal(first.headers['use-as-dictionary'], 'match="/assets/lib.js"');
    await fs.writeFile(path.join(s.root, 'assets', 'lib.js'), V2);
    await waitFor(async () => (await s.h2('/assets/lib.js')).body.equals(V2), { what: 'the server to see the new content' });
    assert.equal(s.stats.retiredDictionaries, 1);
    const r = await s.h2('/assets/lib.js', { headers: { 'accept-encoding': CHROME_AE, 'available-dictionary': V1_HASH } });
    assert.equal(r.headers['content-encoding'], 'dcb');
    assert.deepEqual(await dictionaryEngines.decompress('dcb', r.body, V1), V2);
    const report = JSON.parse((await s.h2(`/_negotiate?path=/assets/lib.js&ae=dcz&ad=${encodeURIComponent(V1_HASH)}`)).body);
    assert.equal(report.chosen, 'dcz');
    assert.equal(report.dictionary.reason, 'dcz: a delta against /assets/lib.js as it was before it changed');
  });

  test('a standalone dictionary announced with Link (RFC 9842 3.2) is served as a dictionary and used for deltas', async (t) => {
    const s = await startTestServer({
      engine, files: { 'index.html': '<script src="/assets/app.js"></script>', 'dict/app.dict': V1, 'assets/app.js': V2 },
      dictionaries: [{ match: '/assets/*.js', matchDest: ['script'], link: '/dict/app.dict', linkFrom: '/*.html' }],
    });
    t.after(() => s.close());
    for (const client of ['h2', 'h1']) {
      assert.equal((await s[client]('/')).headers.link, '</dict/app.dict>; rel="compression-dictionary"', client);
      const dict = await s[client]('/dict/app.dict');
      assert.equal(dict.headers['use-as-dictionary'], 'match="/assets/*.js", match-dest=("script")', client);
      assert.equal(dict.headers.link, undefined);
    }
    await waitFor(() => s.stats.dictionaries >= 2, { what: 'the dictionary scan' });
    const r = await s.h2('/assets/app.js', { headers: { 'accept-encoding': CHROME_AE, 'available-dictionary': V1_HASH } });
    assert.equal(r.headers['content-encoding'], 'dcb');
    assert.deepEqual(await dictionaryEngines.decompress('dcb', r.body, V1), V2);
  });

  test('no deltas with --no-dynamic: they would be compressed on the fly', async (t) => {
    const s = await startTestServer({ engine, files: FILES, dictionaries: [RULE], dynamic: false });
    t.after(() => s.close());
    await waitFor(() => s.stats.dictionaries >= 3, { what: 'the dictionary scan' });
    const r = await s.h2('/assets/app.v2.js', { headers: { 'accept-encoding': CHROME_AE, 'available-dictionary': V1_HASH } });
    assert.equal(r.headers['content-encoding'], undefined);
    assert.equal(r.headers['use-as-dictionary'], USE_AS_DICTIONARY);
    assert.deepEqual(r.body, V2);
  });

  test('no dictionaries over plain HTTP (--no-tls)', async (t) => {
    const s = await startTestServer({ engine, files: FILES, dictionaries: [RULE], https: false });
    t.after(() => s.close());
    await waitFor(() => s.stats.dictionaries >= 3, { what: 'the dictionary scan' });
    const r = await plainRequest(s.port, '/assets/app.v2.js', { headers: { 'accept-encoding': CHROME_AE, 'available-dictionary': V1_HASH } });
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-encoding'], 'br');
  });
});

// The engines play no part in what the cache folder keeps: one is enough.
test('the previous content of a rewritten file survives a restart in the cache folder; a tampered one is never used', { timeout: 60_000 }, async (t) => {
  const tmp = await makeTempDir();
  t.after(() => fs.rm(tmp, { recursive: true, force: true }));
  const root = path.join(tmp, 'root');
  const cacheDir = path.join(tmp, 'cache');
  await fs.mkdir(path.join(root, 'assets'), { recursive: true });
  await fs.writeFile(path.join(root, 'assets', 'lib.js'), V1);
  const options = { root, cacheDir, dictionaries: [{ match: '/assets/lib.js' }] };
  const kept = path.join(retiredDir(rootCacheDir(realCacheDir(cacheDir), await fs.realpath(root))), crypto.createHash('sha256').update(V1).digest('hex'));
  const ask = (s) => s.h2('/assets/lib.js', { headers: { 'accept-encoding': CHROME_AE, 'available-dictionary': V1_HASH } });

  let s = await startTestServer(options);
  await s.h2('/assets/lib.js');
  await fs.writeFile(path.join(root, 'assets', 'lib.js'), V2);
  await waitFor(async () => (await s.h2('/assets/lib.js')).body.equals(V2), { what: 'the server to see the new content' });
  await waitFor(() => fs.readFile(kept).then((bytes) => bytes.equals(V1), () => false), { what: 'v1 kept in the cache folder' });
  assert.equal(((await fs.stat(path.dirname(kept))).mode & 0o777).toString(8), '700');
  await s.close();

  s = await startTestServer(options);
  await waitFor(() => s.stats.retiredDictionaries === 1, { what: 'the cache folder loaded' });
  const dcb = await ask(s);
  assert.equal(dcb.headers['content-encoding'], 'dcb');
  assert.deepEqual(await dictionaryEngines.decompress('dcb', dcb.body, V1), V2);
  const dcz = await s.h2('/assets/lib.js', { headers: { 'accept-encoding': 'dcz', 'available-dictionary': V1_HASH } });
  assert.equal(dcz.headers['content-encoding'], 'dcz');
  assert.deepEqual(await dictionaryEngines.decompress('dcz', dcz.body, V1), V2);
  await s.close();

  // Same name, other bytes: deleted at the start, and the client gets the usual answer.
  const tampered = Buffer.from(V1);
  tampered[100] ^= 1;
  await fs.writeFile(kept, tampered);
  s = await startTestServer(options);
  t.after(() => s.close());
  await waitFor(() => fs.access(kept).then(() => false, () => true), { what: 'the tampered content deleted' });
  assert.equal(s.stats.retiredDictionaries, 0);
  assert.equal((await ask(s)).headers['content-encoding'], 'br');
});

test('deltas are made ahead of time into the cache folder and served from there after a restart when they decode to the file', { timeout: 60_000 }, async (t) => {
  const tmp = await makeTempDir();
  t.after(() => fs.rm(tmp, { recursive: true, force: true }));
  const root = path.join(tmp, 'root');
  const cacheDir = path.join(tmp, 'cache');
  await fs.mkdir(path.join(root, 'assets'), { recursive: true });
  for (const [rel, bytes] of Object.entries(FILES)) await fs.writeFile(path.join(root, rel), bytes);
  // Oldest first, as releases are: v2 is the newest file of its rule.
  for (const [i, name] of ['app.v0.js', 'app.v1.js', 'app.v2.js'].entries()) await fs.utimes(path.join(root, 'assets', name), 1000 + i, 1000 + i);
  const options = { root, cacheDir, dictionaries: [RULE] };
  const folder = rootCacheDir(realCacheDir(cacheDir), await fs.realpath(root));
  const v1Hex = sha256(V1).toString('hex');
  const kept = async (coding) => (await fs.readdir(folder).catch(() => [])).filter((name) => name.includes(`.${v1Hex}.${coding}`)).map((name) => path.join(folder, name));
  const ask = (s, ae) => s.h2('/assets/app.v2.js', { headers: { 'accept-encoding': ae, 'available-dictionary': V1_HASH } });

  let s = await startTestServer(options);
  // Made before anyone asks: v2 against v1 and v0, in both codings.
  await waitFor(async () => (await fs.readdir(folder).catch(() => [])).filter((name) => /\.[0-9a-f]{64}\.dc[bz]/.test(name)).length >= 4, { what: 'the deltas made ahead of time' });
  const [dcbFile] = await kept('dcb');
  const [dczFile] = await kept('dcz');
  const before = { dcb: await ask(s, 'dcb'), dcz: await ask(s, 'dcz') };
  assert.deepEqual([before.dcb.headers['content-encoding'], before.dcz.headers['content-encoding']], ['dcb', 'dcz']);
  assert.deepEqual(before.dcb.body, await fs.readFile(dcbFile));
  await s.close();

  // A valid dcz made otherwise is served as it is: the server did not make its own. A dcb that
  // decodes to other bytes (v0) is never served: the server makes the delta again.
  const other = frame('dcz', sha256(V1), await engines.compressWithDictionary('zstd', V2, V1, { level: 19 }));
  assert.notDeepEqual(other, before.dcz.body);
  await fs.writeFile(dczFile, other);
  await fs.writeFile(dcbFile, await dictionaryEngines.compress('dcb', V0, V1, sha256(V1)));
  s = await startTestServer(options);
  t.after(() => s.close());
  await waitFor(() => s.stats.dictionaries >= 3, { what: 'the dictionary scan' });
  const dcz = await ask(s, 'dcz');
  assert.deepEqual(dcz.body, other);
  assert.equal(dcz.headers.etag, before.dcz.headers.etag, 'the same ETag as the delta made on the fly');
  const dcb = await ask(s, 'dcb');
  assert.equal(dcb.headers.etag, before.dcb.headers.etag);
  assert.deepEqual(await dictionaryEngines.decompress('dcb', dcb.body, V1), V2);
  assert.deepEqual(dcb.body, before.dcb.body);
  await waitFor(async () => (await fs.readFile(dcbFile)).equals(before.dcb.body), { what: 'the tampered delta replaced' });
});

// A dot file is never served, so it must never answer for its hash either: the delta would tell a
// client that guessed its content that it guessed right, and /_negotiate would name it.
forEachEngine((engine) => {
  test('a dot file the rule matches is no dictionary', async (t) => {
    const s = await startTestServer({ engine, files: { 'assets/.env.js': V1, 'assets/app.v2.js': V2, 'assets/app.v0.js': V0 }, dictionaries: [{ match: '/assets/*.js' }] });
    t.after(() => s.close());
    await waitFor(() => s.stats.dictionaries >= 2, { what: 'the dictionary scan' });
    const headers = { 'accept-encoding': CHROME_AE, 'available-dictionary': V1_HASH };
    assert.equal((await s.h2('/assets/.env.js', { headers })).status, 404);
    assert.equal((await s.h2('/assets/app.v2.js', { headers })).headers['content-encoding'], 'br');
    assert.equal((await s.h1('/assets/app.v2.js', { headers })).headers['content-encoding'], 'br');
    const report = JSON.parse((await s.h2(`/_negotiate?path=/assets/app.v2.js&ad=${encodeURIComponent(V1_HASH)}`)).body);
    assert.equal(report.dictionary.available, null);
    assert.equal(report.dictionary.reason, 'the server holds no dictionary with that hash for this path');
    assert.equal(s.stats.dictionaries, 2);
  });
});

// The engines play no part in the cache folder's writes: one is enough.
test('a cache folder that cannot be written costs one warning line per cause, then a count at close', { timeout: 60_000 }, async (t) => {
  const tmp = await makeTempDir();
  t.after(() => fs.rm(tmp, { recursive: true, force: true }));
  // A file where the cache folder should be: every write fails alike (as root, a read-only mode
  // would not stop one).
  const cacheDir = path.join(tmp, 'cache');
  await fs.writeFile(cacheDir, 'not a folder');
  const warnings = [];
  const logger = { enabled: () => true, warn: (m) => warnings.push(m), info() {}, debug() {}, error() {}, always() {}, drain: async () => {} };
  const files = Object.fromEntries([0, 1, 2, 3, 4, 5].map((v) => [`assets/app.v${v}.js`, appScript(`v${v}`)]));
  const s = await startTestServer({ files, cacheDir, dictionaries: [RULE], logger });
  await waitFor(() => s.stats.dictionaries >= 6, { what: 'the dictionary scan' });
  let deltas = 0;
  for (let file = 0; file < 6; file++) {
    for (let dictionary = 0; dictionary < 6; dictionary++) {
      if (file === dictionary) continue;
      const r = await s.h2(`/assets/app.v${file}.js`, { headers: { 'accept-encoding': 'dcb', 'available-dictionary': sfHash(files[`assets/app.v${dictionary}.js`]) } });
      if (r.headers['content-encoding'] === 'dcb') deltas++;
    }
  }
  assert.equal(deltas, 30);
  const notKept = () => warnings.filter((m) => m.includes('not kept'));
  await waitFor(() => notKept().length >= 1, { what: 'the first warning' });
  assert.equal(notKept().length, 1, notKept().join('\n'));
  await s.close();
  assert.equal(notKept().length, 2, notKept().join('\n'));
  assert.match(notKept()[1], /\(\d+ more like this in the last \d+ s\)$/);
});

// Each engine hands the core its connection: one that keeps naming new (file, dictionary) pairs
// spends its own delta budget (8 MiB at once, then 1 MiB a second, server/config/limits.js) and
// gets br past it, while a new connection still gets deltas. 24 deltas of 1 MiB would need 16 s
// of refill to all be made.
forEachEngine((engine) => {
  test('delta work is budgeted per connection: past it br, on a new connection a delta', { timeout: 120_000 }, async (t) => {
    const MiB = 1024 * 1024;
    const big = Object.fromEntries(Array.from({ length: 6 }, (_, v) => [`assets/app.v${v}.js`, Buffer.from(appScript(`v${v}`, MiB))]));
    const s = await startTestServer({ engine, files: big, dictionaries: [RULE] });
    t.after(() => s.close());
    await waitFor(() => s.stats.dictionaries >= 6, { what: 'the dictionary scan' });
    const ask = (file, dictionary, coding, session) => s.h2(`/assets/app.v${file}.js`, {
      session, headers: { 'accept-encoding': `br, ${coding}`, 'available-dictionary': sfHash(big[`assets/app.v${dictionary}.js`]) },
    }).then((r) => r.headers['content-encoding']);
    const codings = [];
    // Files 3 to 0: the deltas made ahead of time (v5 and v4 against the two before) are not charged.
    for (const coding of ['dcb', 'dcz']) {
      for (let file = 3; file >= 0; file--) {
        for (let dictionary = 5; dictionary >= 0 && codings.length < 24; dictionary--) {
          if (dictionary !== file) codings.push(await ask(file, dictionary, coding));
        }
      }
    }
    assert.equal(codings.length, 24);
    assert.ok(codings.includes('br'), codings.join(' '));
    assert.ok(codings.filter((c) => c !== 'br').length >= 8, codings.join(' '));
    assert.ok(s.stats.deltaBudget.refused >= 1);
    // A pair not asked for yet, nor made ahead of time.
    assert.equal(await ask(5, 0, 'dcb', s.connectH2()), 'dcb', 'a new connection has its own budget');
  });
});
