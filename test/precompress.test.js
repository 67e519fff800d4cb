'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { execFile } = require('node:child_process');
const { precompressDir } = require('../server/precompress');
const { createEngines, VARIANT_EXTENSIONS } = require('../server/codings');

const SCRIPT = path.join(__dirname, '..', 'server', 'precompress.js');
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
  // A stale variant of a file that does not compress must disappear.
  await fs.writeFile(path.join(dir, 'noise.txt.br'), 'stale');
  await fs.utimes(path.join(dir, 'noise.txt'), new Date(Date.now() + 5000), new Date(Date.now() + 5000));

  const summary = await precompressDir(dir, { engines });
  assert.deepEqual(summary.errors, []);
  assert.deepEqual(
    { sources: summary.sources, tooSmall: summary.tooSmall, incompressible: summary.incompressible },
    { sources: 4, tooSmall: 1, incompressible: 2 },
  );
  assert.deepEqual(totals(summary, 'written'), [3, 3, 3, 3]);
  assert.deepEqual(totals(summary, 'notSmaller'), [1, 1, 1, 1]);

  const expected = Object.keys(SITE).filter((name) => !name.startsWith('.'));
  for (const name of WITH_VARIANTS) for (const coding of CODINGS) expected.push(name + VARIANT_EXTENSIONS[coding]);
  assert.deepEqual((await listFiles(dir)).filter((f) => !f.startsWith('.')), expected.sort());
  assert.deepEqual(await fs.readdir(path.join(dir, '.hidden')), ['secret.js'], 'dot-directories are not touched');

  for (const name of WITH_VARIANTS) {
    const sourceStat = await fs.stat(path.join(dir, name), { bigint: true });
    for (const coding of CODINGS) {
      const variant = path.join(dir, name + VARIANT_EXTENSIONS[coding]);
      const variantStat = await fs.stat(variant, { bigint: true });
      // Equal to the microsecond utimes() can set, never older than the source.
      assert.ok(variantStat.mtimeNs >= sourceStat.mtimeNs && variantStat.mtimeNs - sourceStat.mtimeNs < 1000n, `${name} ${coding} mtime`);
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
  // A directory where the variant should go makes the rename fail.
  await fs.mkdir(path.join(dir, 'app.js.gz', 'blocker'), { recursive: true });
  const logged = [];
  const summary = await precompressDir(dir, { engines, codings: ['gzip'], log: (line) => logged.push(line) });
  assert.deepEqual(summary.errors.map((e) => e.file), ['app.js']);
  assert.match(logged[0], /^app\.js: /);
  assert.equal(summary.codings.gzip.written, 2);
  await assert.rejects(precompressDir(dir, { engines, codings: ['deflate'] }), { code: 'ERR_PRECOMPRESS_USAGE' });
});

test('CLI: summary table, --quiet, and exit codes', async (t) => {
  const dir = await makeSite(t);
  const run = await runCli([dir, '--codings', 'gzip,br']);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, '', 'no progress output when not on a terminal');
  const lines = run.stdout.trimEnd().split('\n');
  assert.match(lines[0], /^coding\s+written\s+fresh\s+not smaller\s+before\s+after\s+saving$/);
  assert.match(lines[1], /^gzip\s+3\s+0\s+1\s+\S+ KiB\s+\S+ KiB\s+\d+\.\d%$/);
  assert.match(lines[2], /^br\s+3\s+0\s+1\s/);
  assert.match(lines[3], /4 compressible files; skipped 1 under 1\.0 KiB and 2 of incompressible types/);

  const again = await runCli([dir, '--codings', 'gzip,br', '--quiet']);
  assert.deepEqual(again, { code: 0, stdout: '', stderr: '' });

  await fs.mkdir(path.join(dir, 'index.html.zst', 'blocker'), { recursive: true });
  const failing = await runCli([dir, '--codings=zstd']);
  assert.equal(failing.code, 1);
  assert.match(failing.stderr, /^precompress: index\.html: /m);

  for (const args of [[dir, '--bogus'], [dir, '--codings', 'deflate'], [dir, '--codings', 'br,nope'], [dir, dir], [path.join(dir, 'missing')]]) {
    const bad = await runCli(args);
    assert.equal(bad.code, 2, `${args.join(' ')}: ${bad.stderr}`);
    assert.match(bad.stderr, /usage: node server\/precompress\.js/);
  }
});
