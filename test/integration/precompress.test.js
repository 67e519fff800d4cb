'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { execFile } = require('node:child_process');
const { precompressDir } = require('../../tools/precompress/index');
const { createEngines, VARIANT_EXTENSIONS } = require('../../server/compression/codings');

const SCRIPT = path.join(__dirname, '..', '..', 'tools', 'precompress', 'index.js');
const CODINGS = ['br', 'gzip', 'zstd', 'lzma'];
const engines = createEngines();

const text = (line, bytes) => Buffer.from(line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes));

/** Compressible sources get variants; everything else must be left alone. */
const SITE = {
  'index.html': text('<li><a href="/docs/page">A page about negotiation</a></li>\n', 8000),
  'app.js': text('export const answer = (x) => x * 42; // negotiate\n', 20000),
  'sub/style.css': text('.nav > li { margin: 0 1em; color: #333; }\n', 3000),
  'tiny.txt': text('too small to bother\n', 500),
  'noise.txt': crypto.randomBytes(4000),
  'image.png': crypto.randomBytes(4000),
  'photo.jpg': crypto.randomBytes(4000),
  'old.txt.gz': text('a variant is never a source\n', 4000),
  '.hidden/secret.js': text('const hidden = true;\n', 4000),
};
const WITH_VARIANTS = ['index.html', 'app.js', 'sub/style.css'];

async function makeSite(t) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'precompress-test-'));
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  for (const [name, content] of Object.entries(SITE)) {
    await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await fs.writeFile(path.join(dir, name), content);
  }
  return dir;
}

async function listFiles(dir) {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath ?? e.path, e.name))).sort();
}

/** ino and mtime of every variant, to prove a run rewrote nothing. */
async function variantIdentity(dir) {
  const identity = {};
  for (const name of WITH_VARIANTS) {
    for (const coding of CODINGS) {
      const stat = await fs.stat(path.join(dir, name + VARIANT_EXTENSIONS[coding]), { bigint: true });
      identity[name + coding] = `${stat.ino}:${stat.mtimeNs}`;
    }
  }
  return identity;
}

function runCli(args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? err.code : 0, stdout, stderr });
    });
  });
}

const totals = (summary, field) => CODINGS.map((c) => summary.codings[c][field]);

test('writes decodable variants stamped with the source mtime, and skips what it should', async (t) => {
  const dir = await makeSite(t);
  // A stale variant of a file that does not compress, but not one the tool wrote: it stays.
  await fs.writeFile(path.join(dir, 'noise.txt.br'), 'stale');
  await fs.utimes(path.join(dir, 'noise.txt'), new Date(Date.now() + 5000), new Date(Date.now() + 5000));

  const summary = await precompressDir(dir, { engines });
  assert.deepEqual(summary.errors, []);
  assert.deepEqual(
    { sources: summary.sources, tooSmall: summary.tooSmall, incompressible: summary.incompressible },
    { sources: 4, tooSmall: 1, incompressible: 2 },
  );
  assert.deepEqual(totals(summary, 'written'), [3, 3, 3, 3]);
  assert.deepEqual(totals(summary, 'notSmaller'), [0, 1, 1, 1]);
  assert.deepEqual(totals(summary, 'skipped'), [1, 0, 0, 0]);
  assert.deepEqual(summary.skipped, [{ file: 'noise.txt.br', reason: 'exists, not written by precompress (use --force)' }]);
  assert.equal(await fs.readFile(path.join(dir, 'noise.txt.br'), 'utf8'), 'stale');

  const expected = [...Object.keys(SITE).filter((name) => !name.startsWith('.')), 'noise.txt.br'];
  for (const name of WITH_VARIANTS) for (const coding of CODINGS) expected.push(name + VARIANT_EXTENSIONS[coding]);
  assert.deepEqual((await listFiles(dir)).filter((f) => !f.startsWith('.')), expected.sort());
  assert.deepEqual(await fs.readdir(path.join(dir, '.hidden')), ['secret.js'], 'dot-directories are not touched');

  for (const name of WITH_VARIANTS) {
    const sourceStat = await fs.stat(path.join(dir, name), { bigint: true });
    for (const coding of CODINGS) {
      const variant = path.join(dir, name + VARIANT_EXTENSIONS[coding]);
      const variantStat = await fs.stat(variant, { bigint: true });
      // Never older than the source, and within 2 us of it: Node 20's utimes() truncates to the
      // microsecond, Node 24's keeps the double's nanoseconds (variantTimestamp in variant.js).
      assert.ok(variantStat.mtimeNs >= sourceStat.mtimeNs && variantStat.mtimeNs - sourceStat.mtimeNs < 2000n, `${name} ${coding} mtime`);
      // What a server comparing plain (floating-point) mtimeMs values sees.
      assert.ok((await fs.stat(variant)).mtimeMs >= (await fs.stat(path.join(dir, name))).mtimeMs, `${name} ${coding} mtimeMs`);
      assert.ok((await engines.decompress(coding, await fs.readFile(variant))).equals(SITE[name]), `${name} ${coding} decodes`);
    }
  }
});

test('a second run rewrites nothing; a changed source gets new variants; --force rewrites all', async (t) => {
  const dir = await makeSite(t);
  const first = await precompressDir(dir, { engines });
  const before = await variantIdentity(dir);

  const second = await precompressDir(dir, { engines });
  assert.deepEqual(totals(second, 'written'), [0, 0, 0, 0]);
  assert.deepEqual(totals(second, 'fresh'), [3, 3, 3, 3]);
  assert.deepEqual(totals(second, 'bytesAfter'), totals(first, 'bytesAfter'));
  assert.deepEqual(await variantIdentity(dir), before);

  const changed = text('export const changed = true;\n', 6000);
  const appJs = path.join(dir, 'app.js');
  await fs.writeFile(appJs, changed);
  const later = new Date(Date.now() + 10_000);
  await fs.utimes(appJs, later, later);
  const third = await precompressDir(dir, { engines });
  assert.deepEqual(totals(third, 'written'), [1, 1, 1, 1]);
  assert.deepEqual(totals(third, 'fresh'), [2, 2, 2, 2]);
  for (const coding of CODINGS) {
    assert.ok((await engines.decompress(coding, await fs.readFile(appJs + VARIANT_EXTENSIONS[coding]))).equals(changed), coding);
  }

  const forced = await precompressDir(dir, { engines, force: true, codings: ['gzip'] });
  assert.deepEqual(Object.keys(forced.codings), ['gzip']);
  assert.equal(forced.codings.gzip.written, 3);
});

test('per-file failures are reported with the file and do not stop the others', async (t) => {
  const dir = await makeSite(t);
  // A directory where the variant should go is skipped; with --force the rename fails.
  await fs.mkdir(path.join(dir, 'app.js.gz', 'blocker'), { recursive: true });
  const skipped = await precompressDir(dir, { engines, codings: ['gzip'] });
  assert.deepEqual(skipped.errors, []);
  assert.deepEqual(skipped.skipped, [{ file: 'app.js.gz', reason: 'exists and is not a regular file (use --force)' }]);
  const logged = [];
  const summary = await precompressDir(dir, { engines, codings: ['gzip'], force: true, log: (line) => logged.push(line) });
  assert.deepEqual(summary.errors.map((e) => e.file), ['app.js']);
  assert.match(logged[0], /^app\.js: /);
  assert.equal(summary.codings.gzip.written, 2);
  assert.deepEqual(await fs.readdir(path.join(dir, 'app.js.gz')), ['blocker']);
  await assert.rejects(precompressDir(dir, { engines, codings: ['deflate'] }), { code: 'ERR_PRECOMPRESS_USAGE' });
});

test('CLI: summary table, --quiet, and exit codes', async (t) => {
  const dir = await makeSite(t);
  const run = await runCli([dir, '--codings', 'gzip,br']);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, '', 'no progress output when not on a terminal');
  const lines = run.stdout.trimEnd().split('\n');
  assert.match(lines[0], /^coding\s+written\s+fresh\s+not smaller\s+skipped\s+before\s+after\s+saving$/);
  assert.match(lines[1], /^gzip\s+3\s+0\s+1\s+0\s+\S+ KiB\s+\S+ KiB\s+\d+\.\d%$/);
  assert.match(lines[2], /^br\s+3\s+0\s+1\s+0\s/);
  assert.match(lines[3], /4 compressible files; skipped 1 under 1\.0 KiB and 2 of incompressible types/);
  assert.equal(lines.length, 4, 'nothing skipped, no skipped section');

  const again = await runCli([dir, '--codings', 'gzip,br', '--quiet']);
  assert.deepEqual(again, { code: 0, stdout: '', stderr: '' });

  await fs.mkdir(path.join(dir, 'index.html.zst', 'blocker'), { recursive: true });
  const failing = await runCli([dir, '--codings=zstd', '--force']);
  assert.equal(failing.code, 1);
  assert.match(failing.stderr, /^precompress: index\.html: /m);

  for (const args of [[dir, '--bogus'], [dir, '--codings', 'deflate'], [dir, '--codings', 'br,nope'], [dir, dir], [path.join(dir, 'missing')]]) {
    const bad = await runCli(args);
    assert.equal(bad.code, 2, `${args.join(' ')}: ${bad.stderr}`);
    assert.match(bad.stderr, /usage: node tools\/precompress /);
  }
});

const NOT_OURS = 'exists, not written by precompress (use --force)';

/** Sets a file's atime and mtime `seconds` from now. */
const age = (file, seconds) => fs.utimes(file, new Date(Date.now() + seconds * 1000), new Date(Date.now() + seconds * 1000));

test('variants it did not write are never overwritten or deleted without --force, and are reported', async (t) => {
  const dir = await makeSite(t);
  const userGzip = await engines.compress('gzip', Buffer.from('{"an": "older version"}'), { level: 'max' });
  const outside = path.join(dir, '.hidden', 'outside.br');
  // The user's own variants, older than their sources: one of a file that compresses, one of a
  // file that does not (the tool would have deleted it), one a symbolic link.
  await fs.writeFile(path.join(dir, 'orig.json'), text('{"key": "value", "list": [1, 2, 3]},\n', 6000));
  await fs.writeFile(path.join(dir, 'orig.json.gz'), userGzip);
  await fs.writeFile(path.join(dir, 'rand.txt'), crypto.randomBytes(5000));
  await fs.writeFile(path.join(dir, 'rand.txt.gz'), 'mine');
  await fs.writeFile(outside, 'link target');
  await fs.symlink(outside, path.join(dir, 'app.js.br'));
  for (const name of ['orig.json.gz', 'rand.txt.gz']) await age(path.join(dir, name), -60);
  // Sources that are not regular files.
  await fs.symlink(path.join(dir, 'app.js'), path.join(dir, 'link.js'));
  await new Promise((resolve, reject) => execFile('mkfifo', [path.join(dir, 'pipe.txt')], (err) => (err ? reject(err) : resolve())));
  const socket = require('node:net').createServer().listen(path.join(dir, 'sock.txt'));
  await new Promise((resolve) => socket.once('listening', resolve));
  t.after(() => socket.close());

  const summary = await precompressDir(dir, { engines, codings: ['gzip', 'br'] });
  assert.deepEqual(summary.errors, []);
  assert.deepEqual(summary.skipped, [
    { file: 'app.js.br', reason: 'symbolic link, not written by precompress (use --force)' },
    { file: 'link.js', reason: 'symbolic link (not followed)' },
    { file: 'orig.json.gz', reason: NOT_OURS },
    { file: 'pipe.txt', reason: 'FIFO, not a regular file' },
    { file: 'rand.txt.gz', reason: NOT_OURS },
    { file: 'sock.txt', reason: 'socket, not a regular file' },
  ]);
  assert.deepEqual(await fs.readFile(path.join(dir, 'orig.json.gz')), userGzip);
  assert.equal(await fs.readFile(path.join(dir, 'rand.txt.gz'), 'utf8'), 'mine');
  assert.equal((await fs.lstat(path.join(dir, 'app.js.br'))).isSymbolicLink(), true);
  assert.equal(await fs.readFile(outside, 'utf8'), 'link target');
  assert.ok((await fs.lstat(path.join(dir, 'orig.json.br'))).isFile(), 'the missing coding is still written');

  // A variant the tool wrote and the user then edited is the user's.
  await fs.writeFile(path.join(dir, 'index.html.gz'), 'hand-made');
  await age(path.join(dir, 'index.html'), 60);
  const edited = await precompressDir(dir, { engines, codings: ['gzip'] });
  assert.deepEqual(edited.skipped.filter((s) => s.file === 'index.html.gz'), [{ file: 'index.html.gz', reason: NOT_OURS }]);
  assert.equal(await fs.readFile(path.join(dir, 'index.html.gz'), 'utf8'), 'hand-made');

  // --force replaces and deletes them; a link is replaced itself, its target untouched.
  const forced = await precompressDir(dir, { engines, codings: ['gzip', 'br'], force: true });
  assert.deepEqual(forced.errors, []);
  assert.deepEqual(forced.skipped.map((s) => s.file), ['link.js', 'pipe.txt', 'sock.txt']);
  await assert.rejects(fs.lstat(path.join(dir, 'rand.txt.gz')), { code: 'ENOENT' });
  assert.ok((await engines.decompress('gzip', await fs.readFile(path.join(dir, 'orig.json.gz')))).equals(await fs.readFile(path.join(dir, 'orig.json'))));
  assert.ok((await fs.lstat(path.join(dir, 'app.js.br'))).isFile());
  assert.equal(await fs.readFile(outside, 'utf8'), 'link target');
});

test('its own variants are replaced and deleted; identical ones without a record are taken over', async (t) => {
  const dir = await makeSite(t);
  await precompressDir(dir, { engines, codings: ['gzip'] });
  const manifest = JSON.parse(await fs.readFile(path.join(dir, '.negotiate-precompress.json'), 'utf8'));
  assert.deepEqual(Object.keys(manifest.variants), ['app.js.gz', 'index.html.gz', 'sub/style.css.gz']);

  // A source that stops compressing loses the variant the tool wrote.
  await fs.writeFile(path.join(dir, 'app.js'), crypto.randomBytes(5000));
  await age(path.join(dir, 'app.js'), 60);
  const shrunk = await precompressDir(dir, { engines, codings: ['gzip'] });
  // noise.txt never compresses; app.js now does not either.
  assert.deepEqual([shrunk.codings.gzip.notSmaller, shrunk.skipped], [2, []]);
  await assert.rejects(fs.lstat(path.join(dir, 'app.js.gz')), { code: 'ENOENT' });

  // Without the manifest (an older run, a crash before it was saved), stale variants whose bytes
  // are exactly what the tool would write are rewritten and recorded, nothing is skipped.
  await fs.rm(path.join(dir, '.negotiate-precompress.json'));
  await age(path.join(dir, 'index.html'), 120);
  const adopted = await precompressDir(dir, { engines, codings: ['gzip'] });
  assert.deepEqual([adopted.codings.gzip.written, adopted.skipped], [1, []]);
  const again = JSON.parse(await fs.readFile(path.join(dir, '.negotiate-precompress.json'), 'utf8'));
  assert.deepEqual(Object.keys(again.variants), ['index.html.gz']);
});

test('an untrustworthy manifest stops the run before it touches anything', async (t) => {
  const dir = await makeSite(t);
  await fs.writeFile(path.join(dir, '.negotiate-precompress.json'), '{"format": "negotiate-precompress/1", "vari');
  const run = await runCli([dir, '--codings', 'gzip']);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /^precompress: .*\.negotiate-precompress\.json is corrupt \(.*\); remove it, then run with --force to take over existing variants\n/);
  await assert.rejects(fs.lstat(path.join(dir, 'app.js.gz')), { code: 'ENOENT' });
});

test('CLI: the skipped section names each file and why', async (t) => {
  const dir = await makeSite(t);
  await fs.writeFile(path.join(dir, 'app.js.gz'), 'mine');
  await age(path.join(dir, 'app.js.gz'), -60);
  await fs.symlink('app.js', path.join(dir, 'alias.js'));
  const run = await runCli([dir, '--codings', 'gzip']);
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.trimEnd().split('\n');
  assert.match(lines[1], /^gzip\s+2\s+0\s+1\s+1\s/);
  assert.deepEqual(lines.slice(3), [
    'skipped (2):',
    '  alias.js: symbolic link (not followed)',
    `  app.js.gz: ${NOT_OURS}`,
  ]);
});

test('the manifest is not served', async (t) => {
  const { startTestServer } = require('../helpers/server');
  const dir = await makeSite(t);
  await precompressDir(dir, { engines, codings: ['br'] });
  const srv = await startTestServer({ root: dir });
  t.after(() => srv.close());
  for (const proto of ['h1', 'h2']) {
    assert.equal((await srv[proto]('/.negotiate-precompress.json')).status, 404, proto);
    const page = await srv[proto]('/index.html', { headers: { 'accept-encoding': 'br' } });
    assert.equal(page.headers['content-encoding'], 'br', proto);
    assert.ok(page.body.equals(await fs.readFile(path.join(dir, 'index.html.br'))), `${proto}: the variant as written`);
  }
});

test('a variant that appears while compressing is left alone', async (t) => {
  const dir = await makeSite(t);
  const target = path.join(dir, 'app.js.gz');
  // An engine that, mid-compression, lets "someone else" write the variant.
  const racing = Object.assign(Object.create(engines), {
    async compress(coding, input, options) {
      if (input.equals(SITE['app.js'])) await fs.writeFile(target, 'written meanwhile');
      return engines.compress(coding, input, options);
    },
  });
  const summary = await precompressDir(dir, { engines: racing, codings: ['gzip'] });
  assert.deepEqual(summary.errors, []);
  assert.deepEqual(summary.skipped, [{ file: 'app.js.gz', reason: 'changed while compressing; left alone' }]);
  assert.equal(await fs.readFile(target, 'utf8'), 'written meanwhile');
  assert.deepEqual((await fs.readdir(dir)).filter((name) => name.endsWith('.tmp')), [], 'no temporary left behind');
});

test('only: just the named files; a vanished source loses the variants the tool wrote, not the user\'s', async (t) => {
  const dir = await makeSite(t);
  await precompressDir(dir, { engines });
  const before = await variantIdentity(dir);
  const usersBr = Buffer.from('the user\'s own file at a variant\'s name');
  await fs.rm(path.join(dir, 'app.js.br'));
  await fs.writeFile(path.join(dir, 'app.js.br'), usersBr);
  await fs.rm(path.join(dir, 'app.js'));
  const added = text('<p>a page added later</p>\n', 5000);
  await fs.writeFile(path.join(dir, 'sub', 'added.html'), added);

  // Dot entries, variants and names outside the directory stand for nothing.
  const summary = await precompressDir(dir, { engines, only: ['app.js', 'sub/added.html', '.hidden/secret.js', 'index.html.gz', '../outside.html'] });
  assert.deepEqual(summary.errors, []);
  assert.equal(summary.removed, 3);
  assert.deepEqual(totals(summary, 'written'), [1, 1, 1, 1]);
  assert.equal(summary.sources, 1);
  for (const ext of ['.gz', '.zst', '.lzma']) assert.equal(await fs.access(path.join(dir, 'app.js' + ext)).then(() => true, () => false), false, ext);
  assert.deepEqual(await fs.readFile(path.join(dir, 'app.js.br')), usersBr);
  for (const coding of CODINGS) {
    assert.ok((await engines.decompress(coding, await fs.readFile(path.join(dir, 'sub', 'added.html' + VARIANT_EXTENSIONS[coding])))).equals(added), coding);
  }
  assert.deepEqual(await fs.readdir(path.join(dir, '.hidden')), ['secret.js']);
  for (const coding of CODINGS) {
    const stat = await fs.stat(path.join(dir, 'index.html' + VARIANT_EXTENSIONS[coding]), { bigint: true });
    assert.equal(`${stat.ino}:${stat.mtimeNs}`, before[`index.html${coding}`], `index.html ${coding}: not named, not touched`);
  }
});

test('a directory with dictionary rules also gets its deltas ahead of time, in the cache folder and never in the directory', async (t) => {
  const { createHash } = require('node:crypto');
  const { createDictionaryEngines } = require('../../server/dictionaries/dictionary-codings');
  const { appScript } = require('../helpers/dictionary-site');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'precompress-deltas-'));
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  const root = path.join(dir, 'root');
  const cacheDir = path.join(dir, 'cache');
  const [v1, v2] = [appScript('1', 40 * 1024), appScript('2', 40 * 1024)];
  await fs.mkdir(path.join(root, 'assets'), { recursive: true });
  await fs.writeFile(path.join(root, 'assets', 'app.v1.js'), v1);
  await fs.writeFile(path.join(root, 'assets', 'app.v2.js'), v2);
  await fs.writeFile(path.join(root, 'negotiate.config.json'), JSON.stringify({ dictionaries: [{ match: '/assets/app.*.js', matchDest: ['script'], id: 'app' }] }));
  const before = await listFiles(root);
  const { code, stdout, stderr } = await runCli([root, '--codings', 'br,gzip', '--cache-dir', cacheDir]);
  assert.deepEqual([code, stderr], [0, '']);
  assert.match(stdout, new RegExp(`^dictionary deltas \\(RFC 9842\\): 2 ready in ${cacheDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
  // Only the variants it was asked for are next to the files; the deltas are in the cache.
  assert.deepEqual(await listFiles(root), [...before, '.negotiate-precompress.json',
    'assets/app.v1.js.br', 'assets/app.v1.js.gz', 'assets/app.v2.js.br', 'assets/app.v2.js.gz'].sort());
  const kept = (await listFiles(cacheDir)).filter((name) => /\.(dcb|dcz)\d/.test(name));
  assert.equal(kept.length, 2, kept.join('\n'));
  // v2 against v1: each decodes, with v1 as the dictionary, to v2.
  const hash = createHash('sha256').update(v1).digest();
  assert.ok(kept.every((name) => name.includes(`.${hash.toString('hex')}.`)), kept.join('\n'));
  const deltas = createDictionaryEngines(engines);
  for (const name of kept) {
    const coding = /\.(dcb|dcz)\d/.exec(name)[1];
    const body = await fs.readFile(path.join(cacheDir, name));
    assert.equal((await deltas.decompress(coding, body, Buffer.from(v1))).toString(), v2, name);
  }
});
