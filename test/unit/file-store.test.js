'use strict';
// server/files/file-store.js on its own, over a temporary root: what a first look-up finds, a
// change seen once the revalidation interval is over (revalidateMs 0: every look-up checks the
// disk; a long one: the snapshot holds until invalidate()), variants next to a file judged by
// their mtime (fresh, same second checked by content, older refused), a vanished file, a
// directory, and what lies outside the root. buildInfo is a fake that hands back what the store
// found, so the assertions are about the store's reading of the disk, not about headers. No
// names are watched (watch: false), so nothing depends on inotify events arriving in time.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { FileStore } = require('../../server/files/file-store');

// A file's mtime, in seconds, as utimes takes it.
const T = 1_700_000_000;

function tempRoot(t) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'file-store-')));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  return root;
}

function write(root, rel, content, mtime = T) {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  fs.utimesSync(file, mtime, mtime);
  return file;
}

// A store over `root` recording what it builds, warns and decompresses. decompress: the
// variant's bytes read as `<coding>:<original>`, so a test decides what a variant decodes to.
function makeStore(t, root, options = {}) {
  const built = [];
  const warnings = [];
  const decoded = [];
  const store = new FileStore({
    rootReal: root,
    variantCodings: [['br', '.br'], ['gzip', '.gz']],
    buildInfo: (rel, real, identity, found, cachedPaths) => {
      built.push(rel);
      const stale = Object.values(found).filter((v) => v.age === 'stale' || v.mismatch).map((variant) => ({ variant, reason: variant.mismatch ?? 'older' }));
      return { info: { kind: 'file', rel, real, stat: identity.stat, bytes: identity.bytes, found, cachedPaths }, stale };
    },
    minCompressBytes: 0,
    bufferLimit: 1024 * 1024,
    maxBytes: 16 * 1024 * 1024,
    revalidateMs: 0,
    trustMs: 0,
    watch: false,
    log: { warn: (line) => warnings.push(line), debug() {}, error() {} },
    decompress: async (coding, buf) => {
      decoded.push(coding);
      const [prefix, ...rest] = buf.toString().split(':');
      if (prefix !== coding) throw new Error(`not ${coding}`);
      return Buffer.from(rest.join(':'));
    },
    ...options,
  });
  t.after(() => store.close());
  return { store, built, warnings, decoded };
}

// What the store says about `rel`: a summary of the info, or the error's status and code.
async function look(store, rel) {
  try {
    const info = await store.lookup(rel);
    if (info.kind === 'dir') return { kind: 'dir', real: info.real };
    const variants = Object.fromEntries(Object.entries(info.found).map(([coding, v]) => [coding, { path: v.path, age: v.age, mismatch: v.mismatch ?? null, bytes: v.bytes.toString() }]));
    return { kind: 'file', real: info.real, size: info.stat.size, bytes: info.bytes.toString(), variants };
  } catch (err) {
    return { error: [err.status, err.code] };
  }
}

test('first look-up: the file, its bytes and its fresh variants; a directory; nothing else', async (t) => {
  const root = tempRoot(t);
  write(root, 'a.txt', 'hello');
  write(root, 'a.txt.br', 'br:hello', T + 1);
  write(root, 'plain.txt', 'plain');
  // Nor is a directory with a variant's name.
  fs.mkdirSync(path.join(root, 'plain.txt.gz'));
  fs.mkdirSync(path.join(root, 'sub'));
  write(root, 'outside/secret.txt', 'secret');
  const inside = path.join(root, 'in');
  fs.mkdirSync(inside);
  fs.symlinkSync(path.join(root, 'outside', 'secret.txt'), path.join(inside, 'link.txt'));
  const { store } = makeStore(t, inside);
  write(root, 'in/b.txt', 'bee');
  // A symlinked variant is not a variant.
  fs.symlinkSync(path.join(root, 'a.txt.br'), path.join(inside, 'b.txt.br'));
  const all = makeStore(t, root).store;
  // [rel, store, outcome]
  const cases = [
    ['/a.txt', all, { kind: 'file', real: path.join(root, 'a.txt'), size: 5, bytes: 'hello', variants: { br: { path: path.join(root, 'a.txt.br'), age: 'fresh', mismatch: null, bytes: 'br:hello' } } }],
    ['/plain.txt', all, { kind: 'file', real: path.join(root, 'plain.txt'), size: 5, bytes: 'plain', variants: {} }],
    ['/sub', all, { kind: 'dir', real: path.join(root, 'sub') }],
    ['/', all, { kind: 'dir', real: root }],
    ['/nothing.txt', all, { error: [404, 'ERR_NOT_FOUND'] }],
    ['/a.txt/x', all, { error: [404, 'ERR_NOT_FOUND'] }],
    ['/link.txt', store, { error: [404, 'ERR_OUTSIDE_ROOT'] }],
    ['/b.txt', store, { kind: 'file', real: path.join(inside, 'b.txt'), size: 3, bytes: 'bee', variants: {} }],
  ];
  for (const [rel, s, expected] of cases) assert.deepEqual(await look(s, rel), expected, rel);
});

test('a look-up made while a check runs shares it; an unchanged file keeps its snapshot', async (t) => {
  const root = tempRoot(t);
  write(root, 'a.txt', 'hello');
  const { store, built } = makeStore(t, root);
  const [first, second] = await Promise.all([store.lookup('/a.txt'), store.lookup('/a.txt')]);
  assert.equal(first, second);
  // revalidateMs 0: the disk is checked again, finds the same stats, and the same object comes back.
  assert.equal(store.current('/a.txt'), undefined);
  assert.equal(await store.lookup('/a.txt'), first);
  assert.deepEqual(built, ['/a.txt']);
  assert.deepEqual(store.stats, { entries: 1, bytes: 5, watchedDirs: 0 });
});

test('a changed file: seen at the next look-up past the interval, held within it until invalidated', async (t) => {
  const root = tempRoot(t);
  write(root, 'a.txt', 'hello');
  const checked = makeStore(t, root);
  const held = makeStore(t, root, { revalidateMs: 3_600_000 });
  const before = await held.store.lookup('/a.txt');
  await checked.store.lookup('/a.txt');
  write(root, 'a.txt', 'hello, world', T + 10);
  assert.deepEqual(await look(checked.store, '/a.txt'), { kind: 'file', real: path.join(root, 'a.txt'), size: 12, bytes: 'hello, world', variants: {} });
  // The same size, a new mtime: seen too.
  write(root, 'a.txt', 'HELLO, WORLD', T + 20);
  assert.equal((await look(checked.store, '/a.txt')).bytes, 'HELLO, WORLD');
  assert.deepEqual(checked.built, ['/a.txt', '/a.txt', '/a.txt']);
  // Within the interval the snapshot is served without touching the disk.
  assert.equal(held.store.current('/a.txt'), before);
  assert.equal(await held.store.lookup('/a.txt'), before);
  assert.equal(before.bytes.toString(), 'hello');
  held.store.invalidate('/a.txt');
  assert.equal(held.store.current('/a.txt'), undefined);
  assert.equal((await held.store.lookup('/a.txt')).bytes.toString(), 'HELLO, WORLD');
});

test('variants next to the file, by their mtime against the file\'s', async (t) => {
  // [name, file mtime, variant mtime, variant content, age, mismatch, whether the content was decoded]
  const cases = [
    ['newer than the file: fresh, not decoded', T + 0.5, T + 2, 'br:hello', 'fresh', null, false],
    ['the same mtime: fresh', T + 0.5, T + 0.5, 'br:hello', 'fresh', null, false],
    ['the same whole second (brotli -k), decodes to the file: used', T + 0.5, T, 'br:hello', 'same-second', null, true],
    ['the same whole second, other content: refused', T + 0.5, T, 'br:HELLO', 'same-second', 'older than the file, and does not decode to its current content', true],
    ['the same whole second, not brotli at all: refused', T + 0.5, T, 'junk', 'same-second', 'older than the file, and cannot be checked by content (not br)', true],
    ['older than the file\'s second: stale, not decoded', T + 0.5, T - 1, 'br:hello', 'stale', null, false],
  ];
  for (const [name, fileMtime, variantMtime, content, age, mismatch, decodedIt] of cases) {
    const root = tempRoot(t);
    write(root, 'a.txt', 'hello', fileMtime);
    write(root, 'a.txt.br', content, variantMtime);
    const { store, decoded, warnings } = makeStore(t, root);
    const got = await look(store, '/a.txt');
    assert.deepEqual(got.variants, { br: { path: path.join(root, 'a.txt.br'), age, mismatch, bytes: content } }, name);
    assert.deepEqual(decoded, decodedIt ? ['br'] : [], name);
    // Anything refused is said once, naming the variant.
    const refused = age === 'stale' || mismatch !== null;
    assert.deepEqual(warnings, refused ? [`ignoring stale variants of ${path.join(root, 'a.txt')}: a.txt.br ${mismatch ?? 'older'}`] : [], name);
  }
});

test('a variant that goes stale when the file is rewritten is refused at the next look-up', async (t) => {
  const root = tempRoot(t);
  write(root, 'a.txt', 'hello');
  write(root, 'a.txt.gz', 'gzip:hello', T + 1);
  const { store } = makeStore(t, root);
  assert.equal((await look(store, '/a.txt')).variants.gzip.age, 'fresh');
  write(root, 'a.txt', 'hello again', T + 5);
  assert.deepEqual((await look(store, '/a.txt')).variants, { gzip: { path: path.join(root, 'a.txt.gz'), age: 'stale', mismatch: null, bytes: 'gzip:hello' } });
  // The variant rewritten after the file: fresh again.
  write(root, 'a.txt.gz', 'gzip:hello again', T + 6);
  assert.equal((await look(store, '/a.txt')).variants.gzip.age, 'fresh');
});

test('a vanished file: 404 at the next look-up, and its entry and bytes are dropped', async (t) => {
  const root = tempRoot(t);
  const file = write(root, 'a.txt', 'hello');
  write(root, 'b.txt', 'bee');
  const { store } = makeStore(t, root);
  await store.lookup('/a.txt');
  await store.lookup('/b.txt');
  assert.deepEqual(store.stats, { entries: 2, bytes: 8, watchedDirs: 0 });
  fs.unlinkSync(file);
  assert.deepEqual(await look(store, '/a.txt'), { error: [404, 'ERR_NOT_FOUND'] });
  assert.deepEqual(store.stats, { entries: 1, bytes: 3, watchedDirs: 0 });
  // Back again: found afresh.
  write(root, 'a.txt', 'new');
  assert.equal((await look(store, '/a.txt')).bytes, 'new');
});

test('a file replaced by a directory, and a directory by a file, are seen as such', async (t) => {
  const root = tempRoot(t);
  const file = write(root, 'x', 'file');
  const { store } = makeStore(t, root);
  assert.equal((await look(store, '/x')).kind, 'file');
  fs.unlinkSync(file);
  fs.mkdirSync(file);
  assert.deepEqual(await look(store, '/x'), { kind: 'dir', real: file });
  fs.rmdirSync(file);
  write(root, 'x', 'file again');
  assert.equal((await look(store, '/x')).bytes, 'file again');
});

test('files over bufferLimit are described without their bytes', async (t) => {
  const root = tempRoot(t);
  write(root, 'big.txt', 'x'.repeat(100));
  const { store } = makeStore(t, root, { bufferLimit: 99 });
  const info = await store.lookup('/big.txt');
  assert.equal(info.stat.size, 100);
  assert.equal(info.bytes, null);
  assert.deepEqual(store.stats, { entries: 1, bytes: 0, watchedDirs: 0 });
});
