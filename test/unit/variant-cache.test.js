'use strict';
// server/files/variant-cache.js: names that change with every stat field a rewrite changes,
// what counts as a file we may have written, a cache folder others can reach is refused (and
// never read from), a FIFO is never waited on, and eviction drops the oldest files first (and a dead writer's old temporaries).

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const { cachedPath, rootCacheDir, realCacheDir, mayBeOurs, readOurs, isOurFolder, prepareCacheDir, writeCached, evict } = require('../../server/files/variant-cache');
const { makeFifos, releaseFifos } = require('../helpers/fifos');

async function tempDir(t) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'negotiate-vcache-'));
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  return dir;
}

test('a cached name changes with the source\'s path and each stat field a rewrite changes, and with the coding', () => {
  const stat = { dev: 1, ino: 2, size: 3, mtimeMs: 4.5, ctimeMs: 6.5, atimeMs: 7 };
  const base = cachedPath('/c', '/r/a.js', stat, '.br');
  assert.match(base, /^\/c\/[0-9a-f]{64}\.br$/);
  assert.equal(cachedPath('/c', '/r/a.js', { ...stat, atimeMs: 8 }, '.br'), base, 'reading the source changes nothing');
  for (const [what, name] of [
    ['path', cachedPath('/c', '/r/b.js', stat, '.br')],
    ['dev', cachedPath('/c', '/r/a.js', { ...stat, dev: 9 }, '.br')],
    ['ino', cachedPath('/c', '/r/a.js', { ...stat, ino: 9 }, '.br')],
    ['size', cachedPath('/c', '/r/a.js', { ...stat, size: 9 }, '.br')],
    ['mtime', cachedPath('/c', '/r/a.js', { ...stat, mtimeMs: 4.501 }, '.br')],
    ['ctime', cachedPath('/c', '/r/a.js', { ...stat, ctimeMs: 6.501 }, '.br')],
    ['coding', cachedPath('/c', '/r/a.js', stat, '.gz')],
  ]) assert.notEqual(path.basename(name), path.basename(base), what);
  assert.notEqual(rootCacheDir('/c', '/r'), rootCacheDir('/c', '/r2'));
  assert.equal(path.dirname(rootCacheDir('/c', '/r')), '/c');
});

test('mayBeOurs: a regular file of this user that no one else may write', () => {
  const uid = process.getuid();
  const file = (over) => ({ isFile: () => true, uid, mode: 0o100600, ...over });
  const cases = [
    [file(), true], [file({ mode: 0o100644 }), true], [file({ mode: 0o100664 }), false], [file({ mode: 0o100602 }), false],
    [file({ uid: uid + 1 }), false], [file({ isFile: () => false }), false],
  ];
  for (const [stat, expected] of cases) assert.equal(mayBeOurs(stat), expected, JSON.stringify({ ...stat, mode: stat.mode.toString(8) }));
});

test('prepareCacheDir makes a 0700 folder and refuses one others can enter', async (t) => {
  const dir = await tempDir(t);
  await prepareCacheDir(path.join(dir, 'a', 'b'));
  assert.equal((await fs.stat(path.join(dir, 'a', 'b'))).mode & 0o777, 0o700);
  await fs.mkdir(path.join(dir, 'open'), { mode: 0o755 });
  await fs.chmod(path.join(dir, 'open'), 0o755);
  await assert.rejects(prepareCacheDir(path.join(dir, 'open')), { message: `${path.join(dir, 'open')} is open to other users (mode 755; expected 700)` });
  await fs.writeFile(path.join(dir, 'file'), '');
  await assert.rejects(prepareCacheDir(path.join(dir, 'file')), { code: 'EEXIST' });
});

test('realCacheDir resolves links as far as the folder exists', async (t) => {
  const dir = await tempDir(t);
  const real = await fs.realpath(dir);
  await fs.mkdir(path.join(dir, 'target'));
  await fs.symlink(path.join(dir, 'target'), path.join(dir, 'link'));
  assert.equal(realCacheDir(path.join(dir, 'link', 'not', 'yet')), path.join(real, 'target', 'not', 'yet'));
  assert.equal(realCacheDir(path.join(dir, 'link')), path.join(real, 'target'));
});

test('evict drops the least recently written files until the rest fit, and old temporaries', async (t) => {
  const dir = await tempDir(t);
  const now = Date.now();
  const files = [['a', 100, 50], ['b', 100, 40], ['c', 100, 30], ['d', 100, 20], ['.tmp-1-old', 10, 7200], ['.tmp-2-new', 10, 10]];
  for (const [name, size, ageS] of files) {
    await fs.writeFile(path.join(dir, name), Buffer.alloc(size));
    const when = new Date(now - ageS * 1000);
    await fs.utimes(path.join(dir, name), when, when);
  }
  const cases = [[1000, [], 400], [250, ['a', 'b'], 200], [99, ['c', 'd'], 0]];
  for (const [limit, gone, bytes] of cases) {
    const before = new Set(await fs.readdir(dir));
    const result = await evict(dir, limit, now);
    const after = new Set(await fs.readdir(dir));
    assert.deepEqual([...before].filter((n) => !after.has(n) && !n.startsWith('.tmp-')), gone, `limit ${limit}`);
    assert.equal(result.bytes, bytes, `limit ${limit}`);
    assert.equal(result.evicted, gone.length);
  }
  assert.deepEqual((await fs.readdir(dir)).sort(), ['.tmp-2-new']);
});

test('writeCached replaces a file whole, 0600, and leaves no temporary', async (t) => {
  const dir = await tempDir(t);
  const file = path.join(dir, 'x.br');
  await writeCached(file, Buffer.from('one'));
  await writeCached(file, Buffer.from('two'));
  assert.equal(await fs.readFile(file, 'utf8'), 'two');
  assert.equal((await fs.stat(file)).mode & 0o777, 0o600);
  assert.deepEqual(await fs.readdir(dir), ['x.br']);
});

test('readOurs reads only a regular file of ours in a folder of ours, and never waits on a FIFO', async (t) => {
  const base = await tempDir(t);
  const ours = path.join(base, 'ours');
  await prepareCacheDir(ours);
  const open = path.join(base, 'open');
  await fs.mkdir(open);
  await fs.chmod(open, 0o755);
  const put = async (dir, name, mode = 0o600) => {
    await fs.writeFile(path.join(dir, name), 'cached', { mode });
    await fs.chmod(path.join(dir, name), mode);
  };
  await put(ours, 'good');
  await put(ours, 'writable', 0o620);
  await put(open, 'good');
  makeFifos([path.join(ours, 'fifo')]);
  t.after(() => releaseFifos([path.join(ours, 'fifo')]));
  await fs.symlink(path.join(ours, 'good'), path.join(ours, 'link'));
  await fs.mkdir(path.join(ours, 'dir'), { mode: 0o700 });
  const cases = [
    // [folder, name, max bytes, expected]
    [ours, 'good', 100, 'cached'],
    [ours, 'good', 5, null], // larger than allowed
    [ours, 'writable', 100, null], // others may write it
    [ours, 'fifo', 100, null],
    [ours, 'link', 100, null],
    [ours, 'dir', 100, null],
    [ours, 'missing', 100, null],
    [open, 'good', 100, null], // a folder others can enter
  ];
  for (const [dir, name, max, expected] of cases) {
    const read = await readOurs(path.join(dir, name), max);
    assert.equal(read === null ? null : read.bytes.toString(), expected, `${path.basename(dir)}/${name}`);
  }
  assert.equal(await isOurFolder(ours), true);
  assert.equal(await isOurFolder(open), false);
  assert.equal(await isOurFolder(path.join(ours, 'good')), false);
});
