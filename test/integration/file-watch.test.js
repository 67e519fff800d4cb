'use strict';
// Stat-free revalidation (server/files/name-watch.js, file-store.js): a checked file whose
// directories are watched is served without touching the disk, and every kind of change on
// disk reaches the next request once its inotify event is handled. trustMs (the fallback
// recheck) is set to a minute here, so only the events can explain a change being seen.

const { test, describe, before, after } = require('node:test');
const assert = require('node:assert/strict');
const EventEmitter = require('node:events');
const fs = require('node:fs');
const fsp = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const { FileStore } = require('../../server/files/file-store');
const { createFileInfoBuilder } = require('../../server/decision/file-info');
const { forEachEngine, startTestServer } = require('../helpers/server');

const TRUST_MS = 60_000;
const POLL_MS = 5_000;

async function until(what, probe) {
  const deadline = Date.now() + POLL_MS;
  for (;;) {
    const result = await probe();
    if (result !== undefined) return result;
    if (Date.now() > deadline) throw new Error(`not seen within ${POLL_MS} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function makeStore(root, options = {}) {
  const warnings = [];
  const log = { warn: (m) => warnings.push(m), debug() {}, info() {}, error: (m) => warnings.push(m) };
  const store = new FileStore({
    rootReal: fs.realpathSync(root),
    variantCodings: [['br', '.br'], ['gzip', '.gz']],
    buildInfo: createFileInfoBuilder({ encodings: ['br', 'gzip'], dynamicReasons: { br: 'off in this test', gzip: 'off in this test' }, minCompressBytes: 0, cacheControl: 'no-cache' }),
    minCompressBytes: 0,
    bufferLimit: 1024 * 1024,
    maxBytes: 16 * 1024 * 1024,
    revalidateMs: 0,
    trustMs: TRUST_MS,
    log,
    decompress: async () => { throw new Error('not used'); },
    ...options,
  });
  return { store, warnings };
}

// The file's bytes as the store would serve them now, or its 404 code.
async function served(store, rel) {
  try {
    const info = await store.lookup(rel);
    return info.kind === 'file' ? info.bytes.toString() : 'dir';
  } catch (err) {
    return err.code;
  }
}

// Two lookups: the first makes the watches, the second's check starts after them and holds.
async function settle(store, rel) {
  await store.lookup(rel);
  await store.lookup(rel);
  assert.notEqual(store.current(rel), undefined, `${rel} is trusted after two checks`);
}

// Counts the fs calls a lookup could make on the way to the disk.
function countFsCalls(run) {
  const names = ['stat', 'lstat', 'open', 'fstat', 'readlink'];
  const saved = names.map((n) => fs[n]);
  const savedRealpath = fs.realpath.native;
  let calls = 0;
  for (const n of names) fs[n] = function counted(...args) { calls++; return saved[names.indexOf(n)].apply(this, args); };
  fs.realpath.native = function counted(...args) { calls++; return savedRealpath.apply(this, args); };
  return run().finally(() => {
    names.forEach((n, i) => { fs[n] = saved[i]; });
    fs.realpath.native = savedRealpath;
  }).then(() => calls);
}

// An fs.watch stand-in: records the watchers it makes, so a test can fail one.
function fakeWatch({ throwCode = null } = {}) {
  const watchers = [];
  const watch = (dir) => {
    if (throwCode !== null) throw Object.assign(new Error(`${throwCode}: watch ${dir}`), { code: throwCode });
    const w = new EventEmitter();
    w.close = () => { w.closed = true; };
    watchers.push(w);
    return w;
  };
  return { watch, watchers };
}

describe('file store watching', () => {
  let tmp;
  let root;
  let outside;
  let store;
  let warnings;

  before(async () => {
    tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'negotiate-watch-'));
    root = path.join(tmp, 'root');
    outside = path.join(tmp, 'outside');
    await fsp.mkdir(path.join(root, 'dir', 'sub'), { recursive: true });
    await fsp.mkdir(outside);
    await fsp.writeFile(path.join(outside, 'x.html'), 'OUTSIDE');
    ({ store, warnings } = makeStore(root));
  });

  after(async () => {
    store.close();
    await fsp.rm(tmp, { recursive: true, force: true });
  });

  test('a checked file is served with no fs call at all', async () => {
    await fsp.writeFile(path.join(root, 'hot.html'), 'hot');
    await settle(store, '/hot.html');
    const calls = await countFsCalls(async () => {
      for (let i = 0; i < 50; i++) assert.equal(await served(store, '/hot.html'), 'hot');
    });
    assert.equal(calls, 0);
    assert.ok(store.stats.watchedDirs >= 1);
  });

  const CHANGES = [
    ['rewritten in place (same size)', 'a.html', 'v1', async (f) => fsp.writeFile(f, 'v2'), 'v2'],
    ['replaced by rename', 'b.html', 'v1', async (f) => {
      await fsp.writeFile(`${f}.tmp`, 'replacement');
      await fsp.rename(`${f}.tmp`, f);
    }, 'replacement'],
    ['deleted', 'c.html', 'v1', async (f) => fsp.unlink(f), 'ERR_NOT_FOUND'],
    ['renamed away', 'd.html', 'v1', async (f) => fsp.rename(f, path.join(root, 'd2.html')), 'ERR_NOT_FOUND'],
    ['replaced by a directory', 'e.html', 'v1', async (f) => {
      await fsp.unlink(f);
      await fsp.mkdir(f);
    }, 'dir'],
    ['in a subdirectory, the directory renamed and replaced', 'dir/sub/f.html', 'v1', async () => {
      await fsp.rename(path.join(root, 'dir', 'sub'), path.join(root, 'dir', 'old-sub'));
      await fsp.mkdir(path.join(root, 'dir', 'sub'));
      await fsp.writeFile(path.join(root, 'dir', 'sub', 'f.html'), 'new tree');
    }, 'new tree'],
  ];
  for (const [what, rel, before, change, after] of CHANGES) {
    test(`file ${what}: the next request after the event sees it`, async () => {
      const file = path.join(root, rel);
      await fsp.writeFile(file, before);
      await settle(store, `/${rel}`);
      await change(file);
      await until(what, async () => ((await served(store, `/${rel}`)) === after ? true : undefined));
    });
  }

  test('a variant added, then removed, is seen', async () => {
    const file = path.join(root, 'v.html');
    await fsp.writeFile(file, 'x'.repeat(1000));
    await settle(store, '/v.html');
    assert.equal((await store.lookup('/v.html')).variants.br, undefined);
    await fsp.writeFile(`${file}.br`, 'tiny');
    const future = new Date(Date.now() + 5000);
    await fsp.utimes(`${file}.br`, future, future);
    await until('variant added', async () => ((await store.lookup('/v.html')).variants.br?.size === 4 ? true : undefined));
    await settle(store, '/v.html');
    await fsp.unlink(`${file}.br`);
    await until('variant removed', async () => ((await store.lookup('/v.html')).variants.br === undefined ? true : undefined));
  });

  test('a directory replaced by a symlink out of the root: never its bytes, then 404', async () => {
    await fsp.mkdir(path.join(root, 'swap'));
    await fsp.writeFile(path.join(root, 'swap', 'x.html'), 'INSIDE');
    await settle(store, '/swap/x.html');
    await fsp.rename(path.join(root, 'swap'), path.join(root, 'swap-old'));
    await fsp.symlink(outside, path.join(root, 'swap'));
    const seen = await until('the swap', async () => {
      const now = await served(store, '/swap/x.html');
      assert.notEqual(now, 'OUTSIDE');
      return now === 'INSIDE' ? undefined : now;
    });
    assert.equal(seen, 'ERR_OUTSIDE_ROOT');
    assert.deepEqual(warnings, []);
  });

  test('the root itself moved away: its files are checked again', async () => {
    const own = path.join(tmp, 'own-root');
    await fsp.mkdir(own);
    await fsp.writeFile(path.join(own, 'r.html'), 'rooted');
    const { store: ownStore, warnings: ownWarnings } = makeStore(own);
    try {
      await settle(ownStore, '/r.html');
      await fsp.rename(own, path.join(tmp, 'own-root-moved'));
      await until('the move', async () => ((await served(ownStore, '/r.html')) === 'ERR_NOT_FOUND' ? true : undefined));
      assert.deepEqual(ownWarnings, []);
    } finally {
      ownStore.close();
    }
  });

  test('a file reached through a symlink is checked on every request', async () => {
    await fsp.mkdir(path.join(root, 'real'));
    await fsp.writeFile(path.join(root, 'real', 'l.html'), 'linked');
    await fsp.symlink('real', path.join(root, 'link'));
    await store.lookup('/link/l.html');
    await store.lookup('/link/l.html');
    assert.equal(store.current('/link/l.html'), undefined);
    await fsp.writeFile(path.join(root, 'real', 'l.html'), 'LINKED');
    assert.equal(await served(store, '/link/l.html'), 'LINKED');
  });
});

describe('file store when watching fails', () => {
  let tmp;

  before(async () => {
    tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'negotiate-watch-fail-'));
    await fsp.writeFile(path.join(tmp, 'a.html'), 'v1');
  });

  after(() => fsp.rm(tmp, { recursive: true, force: true }));

  test('no watch left (ENOSPC): every request checks the disk, with one warning', async () => {
    const { watch } = fakeWatch({ throwCode: 'ENOSPC' });
    const { store, warnings } = makeStore(tmp, { watch });
    await store.lookup('/a.html');
    await store.lookup('/a.html');
    assert.equal(store.current('/a.html'), undefined);
    await fsp.writeFile(path.join(tmp, 'a.html'), 'v2');
    assert.equal(await served(store, '/a.html'), 'v2');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /ENOSPC/);
    store.close();
  });

  test('a watcher that errors: its entries are checked again at once', async () => {
    await fsp.writeFile(path.join(tmp, 'a.html'), 'v1');
    const { watch, watchers } = fakeWatch();
    const { store, warnings } = makeStore(tmp, { watch });
    await store.lookup('/a.html');
    await store.lookup('/a.html');
    assert.notEqual(store.current('/a.html'), undefined);
    await fsp.writeFile(path.join(tmp, 'a.html'), 'v3');
    // The stand-in reports no event: only the failure makes the change visible.
    assert.equal(await served(store, '/a.html'), 'v1');
    watchers[0].emit('error', Object.assign(new Error('EIO: watch failed'), { code: 'EIO' }));
    assert.equal(watchers[0].closed, true);
    assert.equal(store.current('/a.html'), undefined);
    assert.equal(await served(store, '/a.html'), 'v3');
    assert.match(warnings.join('\n'), /EIO/);
    store.close();
  });

  test('watch: false checks the disk on every request', async () => {
    const { store } = makeStore(tmp, { watch: false });
    await store.lookup('/a.html');
    await store.lookup('/a.html');
    assert.equal(store.current('/a.html'), undefined);
    assert.equal(store.stats.watchedDirs, 0);
  });
});

forEachEngine((engine) => {
  let t;

  before(async () => {
    t = await startTestServer({ engine, watchMaxAgeMs: TRUST_MS, files: { 'page.html': 'first version' } });
  });

  after(() => t.close());

  test('a changed file reaches the next HTTP/2 and HTTP/1.1 request after its event', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await t.h2('/page.html')).body.toString(), 'first version');
    assert.equal(t.stats.fileCache.watchedDirs, 1);
    await fsp.writeFile(path.join(t.root, 'page.html'), 'second version!');
    await until('the change over HTTP/2', async () => ((await t.h2('/page.html')).body.toString() === 'second version!' ? true : undefined));
    const res = await t.h1('/page.html');
    assert.equal(res.status, 200);
    assert.equal(res.body.toString(), 'second version!');
    await fsp.unlink(path.join(t.root, 'page.html'));
    await until('the deletion', async () => ((await t.h2('/page.html')).status === 404 ? true : undefined));
    // The entry went with the file, and its watch with it.
    assert.equal(t.stats.fileCache.watchedDirs, 0);
  });
});

describe('file store byte budget', () => {
  test('past maxBytes the least recently used file goes first; a used one gets a second chance', async () => {
    const tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'negotiate-budget-'));
    for (const name of ['a', 'b', 'c', 'd']) await fsp.writeFile(path.join(tmp, `${name}.html`), name.repeat(100));
    const { store } = makeStore(tmp, { maxBytes: 250 });
    try {
      await store.lookup('/a.html');
      await store.lookup('/b.html');
      await store.lookup('/a.html');
      await store.lookup('/c.html');
      assert.deepEqual([...store.entries.keys()].sort(), ['/a.html', '/c.html']);
      assert.equal(store.stats.bytes, 200);
      // a was moved back when b went, so c is now the oldest unused one.
      await store.lookup('/d.html');
      assert.deepEqual([...store.entries.keys()].sort(), ['/a.html', '/d.html']);
      // Evicted while its check runs: served, but neither counted nor watched.
      const pending = store.lookup('/b.html');
      store.evict('/b.html');
      assert.equal((await pending).bytes.toString(), 'b'.repeat(100));
      assert.equal(store.stats.bytes, 200);
      assert.equal(store.stats.entries, 2);
      assert.equal(store.names.dirs.get(fs.realpathSync(tmp)).refs, 2);
    } finally {
      store.close();
      await fsp.rm(tmp, { recursive: true, force: true });
    }
  });
});
