'use strict';
// server/files/cache-folders.js and server/site/cache-upkeep.js: the cache folder's root
// folders, their notes, and the removal of unused ones, with an injected clock; nothing the
// server did not make is listed or removed.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const { noteRootUse, listRootFolders, removeRootFolder, pruneUnused } = require('../../server/files/cache-folders');
const { rootCacheDir, prepareCacheDir } = require('../../server/files/variant-cache');
const { startCacheUpkeep, NOTE_EVERY_MS } = require('../../server/site/cache-upkeep');

const DAY_MS = 86_400_000;
const NOW = Date.parse('2026-11-27T12:00:00Z');

async function cacheWith(t) {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cache-folders-')));
  t.after(() => fs.rm(base, { recursive: true, force: true }));
  return base;
}

async function rootFolder(base, root, files = { a: 10 }) {
  const dir = rootCacheDir(base, root);
  await prepareCacheDir(dir);
  for (const [name, size] of Object.entries(files)) await fs.writeFile(path.join(dir, name), Buffer.alloc(size));
  return dir;
}

async function age(file, ms) {
  const when = new Date(ms);
  await fs.utimes(file, when, when);
}

test('a noted folder lists its root, size (nested folders too) and the note\'s time; others their newest file', async (t) => {
  const base = await cacheWith(t);
  const noted = await rootFolder(base, '/srv/site', { a: 100, b: 20 });
  await prepareCacheDir(path.join(noted, 'dictionaries'));
  await fs.writeFile(path.join(noted, 'dictionaries', 'd'), Buffer.alloc(5));
  await noteRootUse(base, '/srv/site', NOW - DAY_MS);
  const old = await rootFolder(base, '/srv/old', { x: 7 });
  await age(path.join(old, 'x'), NOW - 40 * DAY_MS);
  const folders = await listRootFolders(base);
  assert.deepEqual(folders.map(({ root, bytes, lastUsedMs, dir }) => ({ root, bytes, lastUsedMs, dir })), [
    { root: '/srv/site', bytes: 125, lastUsedMs: NOW - DAY_MS, dir: noted },
    { root: null, bytes: 7, lastUsedMs: NOW - 40 * DAY_MS, dir: old },
  ]);
  // Noting again only moves the time.
  await noteRootUse(base, '/srv/site', NOW);
  assert.equal((await listRootFolders(base))[0].lastUsedMs, NOW);
});

test('what the server did not make is neither listed nor removed', async (t) => {
  const base = await cacheWith(t);
  const open = await rootFolder(base, '/srv/open');
  await fs.chmod(open, 0o755);
  const elsewhere = await fs.mkdtemp(path.join(os.tmpdir(), 'cache-target-'));
  t.after(() => fs.rm(elsewhere, { recursive: true, force: true }));
  await fs.symlink(elsewhere, path.join(base, 'f'.repeat(32)));
  await fs.mkdir(path.join(base, 'not-a-root-folder'), { mode: 0o700 });
  await fs.writeFile(path.join(base, 'e'.repeat(32)), 'a file');
  assert.deepEqual(await listRootFolders(base), []);
  assert.deepEqual(await pruneUnused(base, { maxAgeMs: 0, now: NOW + 365 * DAY_MS }), []);
  for (const name of [path.basename(open), 'f'.repeat(32), 'not-a-root-folder', 'e'.repeat(32)]) await fs.lstat(path.join(base, name));
  await fs.stat(elsewhere);
});

test('pruneUnused removes folders and notes past the age, keeps the rest and the root being served', async (t) => {
  const base = await cacheWith(t);
  const roots = { '/srv/recent': NOW - 29 * DAY_MS, '/srv/stale': NOW - 31 * DAY_MS, '/srv/served': NOW - 90 * DAY_MS };
  for (const [root, used] of Object.entries(roots)) {
    await rootFolder(base, root);
    await noteRootUse(base, root, used);
  }
  const removed = await pruneUnused(base, { maxAgeMs: 30 * DAY_MS, now: NOW, keep: path.basename(rootCacheDir(base, '/srv/served')) });
  assert.deepEqual(removed.map((f) => f.root), ['/srv/stale']);
  assert.deepEqual((await listRootFolders(base)).map((f) => f.root), ['/srv/recent', '/srv/served']);
  await assert.rejects(fs.lstat(rootCacheDir(base, '/srv/stale')), { code: 'ENOENT' });
  await assert.rejects(fs.lstat(path.join(base, 'roots', `${path.basename(rootCacheDir(base, '/srv/stale'))}.json`)), { code: 'ENOENT' });
  await removeRootFolder(base, (await listRootFolders(base))[0]);
  assert.deepEqual((await listRootFolders(base)).map((f) => f.root), ['/srv/served']);
});

test('a missing cache folder lists nothing', async (t) => {
  const base = await cacheWith(t);
  assert.deepEqual(await listRootFolders(path.join(base, 'absent')), []);
});

function fakeTimers(now) {
  const timers = { now: () => now, intervals: [], setInterval: (fn, ms) => timers.intervals.push({ fn, ms }), clearInterval: () => { timers.cleared = true; } };
  return timers;
}

test('upkeep: notes the root at start and every half day, prunes the others, says so once; 0 days prunes nothing', async (t) => {
  const base = await cacheWith(t);
  await rootFolder(base, '/srv/gone');
  await noteRootUse(base, '/srv/gone', NOW - 31 * DAY_MS);
  const lines = [];
  const log = { info: (line) => lines.push(line), debug: (line) => lines.push(`debug: ${line}`) };
  const never = startCacheUpkeep({ cacheDir: base, rootReal: '/srv/site', maxAgeDays: 0, log, timers: fakeTimers(NOW) });
  await never.done;
  assert.deepEqual((await listRootFolders(base)).map((f) => f.root).sort(), ['/srv/gone']);
  never.stop();
  const timers = fakeTimers(NOW);
  const upkeep = startCacheUpkeep({ cacheDir: base, rootReal: '/srv/site', maxAgeDays: 30, log, timers });
  await upkeep.done;
  assert.equal(timers.intervals[0].ms, NOTE_EVERY_MS);
  assert.deepEqual(lines, [`cache: removed 1 folder(s) of roots not served for 30 days (10 B) from ${base}`]);
  upkeep.stop();
  assert.equal(timers.cleared, true);
});

test('a note whose folder never came is removed once as old, with no folder to count', async (t) => {
  const base = await cacheWith(t);
  await noteRootUse(base, '/srv/never-cached', NOW - 31 * DAY_MS);
  await noteRootUse(base, '/srv/lately', NOW - DAY_MS);
  assert.deepEqual(await pruneUnused(base, { maxAgeMs: 30 * DAY_MS, now: NOW }), []);
  assert.deepEqual(await fs.readdir(path.join(base, 'roots')), [`${path.basename(rootCacheDir(base, '/srv/lately'))}.json`]);
});
