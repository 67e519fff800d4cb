'use strict';
// The variant cache (server/files/variant-cache.js) with the real CLI: the background pass
// writes nothing into the root it serves (node_modules and dot folders included), its variants
// are served from the cache through the same decision as variants next to files (ETag per
// coding, Range, 304), a changed source never gets an old variant, a variant in the cache that
// does not decode to its source or that another user could have written is not served, and
// the cache stays within --cache-bytes. `negotiate-h2 precompress DIR` still writes next to
// the files.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const path = require('node:path');
const crypto = require('node:crypto');
const zlib = require('node:zlib');
const { execFile } = require('node:child_process');
const { spawnCli, makeTempDir, startTestServer, compressibleText, REPO_ROOT, PASS_DONE, cachedVariant } = require('../helpers/server');
const { createClients } = require('../helpers/clients');
const { waitFor } = require('../helpers/poll');
const { rootCacheDir, cachedPath } = require('../../server/files/variant-cache');
const { precompressToCache } = require('../../server/site/cache-precompress');
const { defaultOf } = require('../../server/config/schema');

const CACHE_DIR = defaultOf('cacheDir');
const CA_FILE = path.join(process.env.XDG_CONFIG_HOME, 'negotiate-h2', 'ca.pem');

// Every entry under `dir`: its name, type, mode, size, mtime and the hash of its bytes.
async function snapshot(dir) {
  const out = {};
  async function visit(rel) {
    for (const name of (await fs.readdir(path.join(dir, rel))).sort()) {
      const file = path.join(rel, name);
      const st = await fs.lstat(path.join(dir, file));
      out[file] = { mode: st.mode, size: st.size, mtimeMs: st.mtimeMs };
      if (st.isDirectory()) await visit(file);
      else if (st.isFile()) out[file].sha256 = crypto.createHash('sha256').update(await fs.readFile(path.join(dir, file))).digest('hex');
    }
  }
  await visit('');
  return out;
}

// A project root as `npx negotiate-h2` finds it: the site, dependencies, a dot folder and a
// variant the user made.
async function projectRoot(t) {
  const dir = await makeTempDir('negotiate-cache-');
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  const root = path.join(dir, 'root');
  const files = {
    'page.html': compressibleText(40_000, 'page'),
    'app.js': compressibleText(20_000, 'app'),
    'node_modules/dep/index.js': compressibleText(20_000, 'dep'),
    'node_modules/dep/package.json': `{ "name": "dep", "description": "${compressibleText(2000, 'd').replace(/\n/g, ' ')}" }`,
    '.dotdir/secret.js': compressibleText(20_000, 'dot'),
    'own.txt': compressibleText(20_000, 'own'),
    'own.txt.gz': zlib.gzipSync(compressibleText(20_000, 'own')),
  };
  for (const [rel, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await fs.writeFile(path.join(root, rel), content);
  }
  return { dir, root, files };
}

async function startCli(t, args) {
  const srv = await spawnCli(args);
  t.after(() => srv.stop('SIGKILL'));
  const m = await waitFor(() => PASS_DONE.exec(srv.output()), { timeoutMs: 30_000, intervalMs: 50, what: () => `the end of the background pass:\n${srv.output()}` });
  const clients = createClients({ port: srv.port, ca: await fs.readFile(CA_FILE) });
  t.after(() => clients.closeAll());
  return { srv, clients, pass: { files: Number(m[1]), dir: m[2], written: Number(m[3]), fresh: Number(m[4]), evicted: Number(m[5]) } };
}

const exists = (file) => fs.access(file).then(() => true, () => false);
const sha256Hex = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');

test('default flags: the served tree stays byte-for-byte the same, compressible files are served br from the cache', async (t) => {
  const { root, files } = await projectRoot(t);
  const before = await snapshot(root);
  const { srv, clients, pass } = await startCli(t, [root, '--port', '0']);
  assert.equal(pass.dir, rootCacheDir(CACHE_DIR, await fs.realpath(root)));
  // page.html and app.js, four codings each; own.txt too, but its .gz is the user's.
  assert.deepEqual({ files: pass.files, written: pass.written }, { files: 3, written: 12 });
  assert.equal((await fs.stat(pass.dir)).mode & 0o777, 0o700);

  const br = await cachedVariant(root, 'page.html', '.br');
  const res = await clients.h2('/page.html', { headers: { 'accept-encoding': 'br' } });
  assert.equal(res.headers['content-encoding'], 'br');
  assert.deepEqual(res.body, await fs.readFile(br), 'the cached variant is served as written');
  // The source's identity and the hash of the variant's bytes: touching the variant changes nothing.
  const st = await fs.stat(path.join(root, 'page.html'));
  const etag = `"${st.size.toString(16)}-${Math.round(st.mtimeMs * 1000).toString(16)}-${st.ino.toString(16)}-br-${sha256Hex(res.body).slice(0, 16)}"`;
  assert.equal(res.headers.etag, etag);
  const range = await clients.h2('/page.html', { headers: { 'accept-encoding': 'br', range: 'bytes=0-9' } });
  assert.equal(range.status, 206);
  assert.deepEqual(range.body, res.body.subarray(0, 10));
  const again = await clients.h2('/page.html', { headers: { 'accept-encoding': 'br', 'if-none-match': etag } });
  assert.equal(again.status, 304);

  // The user's own variant still wins over the cache; node_modules and dot folders get nothing cached.
  const own = await clients.h2('/own.txt', { headers: { 'accept-encoding': 'gzip' } });
  assert.deepEqual(own.body, Buffer.from(await fs.readFile(path.join(root, 'own.txt.gz'))));
  for (const rel of ['node_modules/dep/index.js', '.dotdir/secret.js']) assert.equal(await exists(await cachedVariant(root, rel, '.br')), false, rel);
  const dep = await clients.h2('/node_modules/dep/index.js', { headers: { 'accept-encoding': 'br' } });
  assert.equal(zlib.brotliDecompressSync(dep.body).toString(), files['node_modules/dep/index.js'], 'compressed on the fly');

  assert.deepEqual(await srv.stop(), { code: 0, signal: null });
  assert.deepEqual(await snapshot(root), before);

  // A second start finds every variant already cached.
  const second = await startCli(t, [root, '--port', '0']);
  assert.deepEqual({ written: second.pass.written, fresh: second.pass.fresh }, { written: 0, fresh: 12 });
  assert.deepEqual(await second.srv.stop(), { code: 0, signal: null });
  assert.deepEqual(await snapshot(root), before);
});

test('a restart, and a second server on the same root and cache folder, keep every ETag: If-None-Match gets 304', async (t) => {
  const { dir, root } = await projectRoot(t);
  const cacheDir = path.join(dir, 'cache');
  const args = [root, '--port', '0', '--cache-dir', cacheDir];
  // [path, coding]: cached variants in every coding with a variant, identity, on the fly (deflate),
  // and the user's own variant.
  const asks = [
    ...['/page.html', '/app.js'].flatMap((rel) => ['br', 'zstd', 'gzip', 'lzma', 'deflate', 'identity'].map((coding) => [rel, coding])),
    ['/own.txt', 'gzip'],
  ];
  const etagsOf = async (get) => {
    const out = {};
    for (const [rel, coding] of asks) {
      const res = await get(rel, { headers: { 'accept-encoding': coding } });
      assert.equal(res.headers['content-encoding'] ?? 'identity', coding, `${rel} ${coding}`);
      out[`${rel} ${coding}`] = res.headers.etag;
    }
    return out;
  };
  const notModified = async (get, etags) => {
    const statuses = {};
    for (const [rel, coding] of asks) {
      const res = await get(rel, { headers: { 'accept-encoding': coding, 'if-none-match': etags[`${rel} ${coding}`] } });
      statuses[`${rel} ${coding}`] = res.status;
    }
    return statuses;
  };
  const all304 = Object.fromEntries(asks.map(([rel, coding]) => [`${rel} ${coding}`, 304]));

  const first = await startCli(t, args);
  assert.equal(first.pass.written, 12);
  const before = await etagsOf(first.clients.h2);
  assert.equal(new Set(Object.values(before)).size, asks.length, 'one ETag per representation');
  // A server that reads the same cache and checks the disk at every request.
  const running = await startTestServer({ root, cacheDir, watchMaxAgeMs: 0 });
  t.after(() => running.close());
  assert.deepEqual(await etagsOf(running.h2), before);
  assert.deepEqual(await first.srv.stop(), { code: 0, signal: null });

  // The restart's pass touches every variant it finds cached, under the running server too.
  const second = await startCli(t, args);
  assert.deepEqual({ written: second.pass.written, fresh: second.pass.fresh }, { written: 0, fresh: 12 });
  assert.deepEqual(await etagsOf(second.clients.h2), before);
  assert.deepEqual(await notModified(second.clients.h2, before), all304);
  assert.deepEqual(await etagsOf(running.h2), before);
  assert.deepEqual(await notModified(running.h2, before), all304);
});

test('a changed source never gets the variant cached for its old content, even with the same size and mtime', async (t) => {
  const { root } = await projectRoot(t);
  const { clients } = await startCli(t, [root, '--port', '0', '--encodings', 'br']);
  const page = path.join(root, 'page.html');
  const oldBr = await fs.readFile(await cachedVariant(root, 'page.html', '.br'));
  assert.deepEqual((await clients.h2('/page.html', { headers: { 'accept-encoding': 'br' } })).body, oldBr);
  const { mtime, size } = await fs.stat(page);
  const changed = compressibleText(size, 'changed');
  await fs.writeFile(page, changed);
  await fs.utimes(page, mtime, mtime);
  await waitFor(async () => {
    const res = await clients.h2('/page.html', { headers: { 'accept-encoding': 'br' } });
    return !res.body.equals(oldBr) && res;
  }, { timeoutMs: 5000, what: 'the change to be seen' }).then((res) => {
    assert.equal(res.headers['content-encoding'], 'br');
    assert.equal(zlib.brotliDecompressSync(res.body).toString(), changed);
  });
});

test('a cached variant is served only when it decodes to its source and only this user could have written it', async (t) => {
  const cacheDir = await makeTempDir('negotiate-cache-dir-');
  t.after(() => fs.rm(cacheDir, { recursive: true, force: true }));
  const text = compressibleText(20_000, 'text');
  const logLines = [];
  const push = (line) => logLines.push(line);
  const logger = { enabled: () => true, error: push, warn: push, info() {}, debug() {}, always() {}, drain: async () => {} };
  const srv = await startTestServer({ files: { 'a.txt': text, 'b.txt': text, 'c.txt': text }, cacheDir, encodings: ['br'], logger });
  t.after(() => srv.close());
  const rootReal = await fs.realpath(srv.root);
  const dir = rootCacheDir(cacheDir, rootReal);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const place = async (name, bytes, mode) => {
    const real = path.join(rootReal, name);
    const file = cachedPath(dir, real, await fs.stat(real), '.br');
    await fs.writeFile(file, bytes, { mode });
    await fs.chmod(file, mode);
    return file;
  };
  const good = zlib.brotliCompressSync(Buffer.from(text));
  const wrong = zlib.brotliCompressSync(Buffer.from(compressibleText(20_000, 'other')));
  const cases = [['a.txt', good, 0o600, true], ['b.txt', wrong, 0o600, false], ['c.txt', good, 0o666, false]];
  for (const [name, bytes, mode] of cases) await place(name, bytes, mode);
  for (const [name, , , served] of cases) {
    const res = await srv.h2(`/${name}`, { headers: { 'accept-encoding': 'br' } });
    assert.equal(res.headers['content-encoding'], 'br', name);
    assert.equal(zlib.brotliDecompressSync(res.body).toString(), text, name);
    assert.equal(res.body.equals(good), served, name);
  }
  assert.equal(logLines.length, 1, logLines.join('\n'));
  assert.match(logLines[0], /^ignoring stale variants of \S+b\.txt: [0-9a-f]+\.br in the variant cache, and does not decode to its current content$/);
});

test('each check follows the cache: an evicted variant is compressed on the fly again, a variant put next to the file wins', async (t) => {
  const cacheDir = await makeTempDir('negotiate-cache-dir-');
  t.after(() => fs.rm(cacheDir, { recursive: true, force: true }));
  const text = compressibleText(20_000, 'text');
  // watchMaxAgeMs 0: every request checks the disk, so each step is seen at the next request.
  const srv = await startTestServer({ files: { 'a.txt': text }, cacheDir, encodings: ['br'], watchMaxAgeMs: 0 });
  t.after(() => srv.close());
  const get = () => srv.h2('/a.txt', { headers: { 'accept-encoding': 'br' } });
  const decoded = (res) => zlib.brotliDecompressSync(res.body).toString();
  const cached = zlib.brotliCompressSync(Buffer.from(text), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } });
  const mine = zlib.brotliCompressSync(Buffer.from(text), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } });
  assert.notDeepEqual(cached, mine);

  const dynamic = await get();
  assert.equal(decoded(dynamic), text);
  const file = await cachedVariant(srv.root, 'a.txt', '.br', cacheDir);
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await fs.writeFile(file, cached, { mode: 0o600 });
  assert.deepEqual((await get()).body, cached, 'found at the next check');
  await fs.rm(file);
  const after = await get();
  assert.notDeepEqual(after.body, cached);
  assert.equal(decoded(after), text, 'evicted: on the fly again');
  await fs.writeFile(file, cached, { mode: 0o600 });
  await fs.writeFile(path.join(srv.root, 'a.txt.br'), mine);
  assert.deepEqual((await get()).body, mine, 'the variant next to the file wins');
  await fs.rm(path.join(srv.root, 'a.txt.br'));
  assert.deepEqual((await get()).body, cached, 'and the cache serves again once it is gone');
});

test('--cache-bytes bounds the cache: the oldest variants are evicted', async (t) => {
  const { dir, root } = await projectRoot(t);
  for (let i = 0; i < 6; i++) await fs.writeFile(path.join(root, `more-${i}.html`), crypto.randomBytes(3000).toString('base64'));
  const cacheDir = path.join(dir, 'cache');
  const limit = 8000;
  const { srv, pass } = await startCli(t, [root, '--port', '0', '--cache-dir', cacheDir, '--cache-bytes', String(limit), '--encodings', 'br,gzip']);
  assert.equal(pass.dir, rootCacheDir(cacheDir, await fs.realpath(root)));
  assert.ok(pass.evicted > 0, srv.output());
  let total = 0;
  for (const name of await fs.readdir(pass.dir)) total += (await fs.stat(path.join(pass.dir, name))).size;
  assert.ok(total <= limit, `${total} bytes cached`);
  assert.ok(total > 0, 'not everything evicted');
});

test('two passes on the same root at once leave only whole variants', async (t) => {
  const { dir, root, files } = await projectRoot(t);
  const cacheDir = path.join(dir, 'cache');
  const job = { root, cacheDir, codings: ['br', 'gzip'], minBytes: 1024, maxBytes: 1 << 30 };
  const [a, b] = await Promise.all([precompressToCache(job), precompressToCache(job)]);
  assert.deepEqual([a.errors, b.errors], [0, 0]);
  assert.equal(a.written + b.written + a.fresh + b.fresh, 2 * 6, 'three sources, two codings, each counted by both');
  const names = (await fs.readdir(a.dir)).sort();
  assert.equal(names.length, 6, names.join(' '));
  for (const rel of ['page.html', 'app.js', 'own.txt']) {
    assert.equal(zlib.brotliDecompressSync(await fs.readFile(await cachedVariant(root, rel, '.br', cacheDir))).toString(), files[rel]);
    assert.equal(zlib.gunzipSync(await fs.readFile(await cachedVariant(root, rel, '.gz', cacheDir))).toString(), files[rel]);
  }
});

function runCli(args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(REPO_ROOT, 'server'), ...args], { timeout: 30_000 },
      (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr }));
  });
}

test('negotiate-h2 precompress DIR writes the variants next to the files, with its manifest; without DIR it refuses', async (t) => {
  const { root } = await projectRoot(t);
  const res = await runCli(['precompress', root, '--codings', 'br', '--quiet']);
  assert.deepEqual([res.code, res.stderr], [0, '']);
  assert.equal(zlib.brotliDecompressSync(await fs.readFile(path.join(root, 'page.html.br'))).toString(), compressibleText(40_000, 'page'));
  assert.equal(await exists(path.join(root, '.negotiate-precompress.json')), true);

  const none = await runCli(['precompress', '--codings', 'br']);
  assert.equal(none.code, 2);
  // The usage says DIR is required, never a default it then refuses (the package's static/).
  assert.match(none.stderr, /^precompress: expected the directory whose files get variants\nusage: negotiate-h2 precompress DIR \[options\]\n {2}DIR {18}directory whose files get variants \(required\)\n/);
  assert.doesNotMatch(none.stderr, /default: .*static/);
});

test('npm start as a user with a fresh home: the certificate lands in ~/.config, nothing is written under the package', async (t) => {
  const home = await makeTempDir('negotiate-home-');
  t.after(() => fs.rm(home, { recursive: true, force: true }));
  // Build outputs and dependencies are the install's own; everything else is the package.
  const skip = new Set(['node_modules', '.git', 'build']);
  const packageFiles = async () => Object.fromEntries(Object.entries(await snapshot(REPO_ROOT)).filter(([rel]) => !skip.has(rel.split(path.sep)[0])));
  const before = await packageFiles();
  // XDG variables empty: the defaults fall back to $HOME/.config and $HOME/.cache.
  const srv = await spawnCli(['static', '--port', '0'], { cwd: REPO_ROOT, env: { HOME: home, XDG_CONFIG_HOME: '', XDG_CACHE_HOME: '' } });
  t.after(() => srv.stop('SIGKILL'));
  await waitFor(() => PASS_DONE.test(srv.output()), { timeoutMs: 60_000, intervalMs: 100, what: () => `the end of the background pass:\n${srv.output()}` });
  const config = path.join(home, '.config', 'negotiate-h2');
  const clients = createClients({ port: srv.port, ca: await fs.readFile(path.join(config, 'ca.pem')) });
  const res = await clients.h2('/index.html', { headers: { 'accept-encoding': 'br' } });
  await clients.closeAll();
  assert.equal(res.headers['content-encoding'], 'br');
  assert.deepEqual(await srv.stop(), { code: 0, signal: null });
  assert.deepEqual((await fs.readdir(path.join(config, 'certs'))).sort(), ['localhost-cert.pem', 'localhost-key.pem']);
  assert.equal((await fs.stat(path.join(config, 'certs'))).mode & 0o777, 0o700);
  // One folder for the one root served, and its note (files/cache-folders.js) naming the root.
  const cacheEntries = (await fs.readdir(path.join(home, '.cache', 'negotiate-h2'))).sort();
  assert.equal(cacheEntries.length, 2, cacheEntries.join());
  assert.match(cacheEntries[0], /^[0-9a-f]{32}$/);
  assert.deepEqual(await fs.readdir(path.join(home, '.cache', 'negotiate-h2', 'roots')), [`${cacheEntries[0]}.json`]);
  assert.deepEqual(await packageFiles(), before);
});
