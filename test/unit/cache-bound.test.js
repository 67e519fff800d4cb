'use strict';
// server/files/cache-bound.js: --cache-bytes holds at every write into the cache folder, however
// many files are written, without measuring the folder at each.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const { CacheBound, LOW_WATER, RESCAN_SHARE } = require('../../server/files/cache-bound');

const MAX = 64 * 1024;

async function folderBytes(dir) {
  let total = 0;
  for (const name of await fs.readdir(dir)) total += (await fs.lstat(path.join(dir, name))).size;
  return total;
}

test('writes of every size stay within the limit at every step, oldest evicted first', async (t) => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'negotiate-bound-'));
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  const bound = new CacheBound(dir, MAX);
  let clock = Date.now() / 1000 - 10_000;
  let written = 0;
  for (let i = 0; i < 200; i++) {
    const size = [100, 1000, 3000][i % 3];
    assert.equal(await bound.reserve(size), true);
    const file = path.join(dir, `f${String(i).padStart(3, '0')}`);
    await fs.writeFile(file, Buffer.alloc(size));
    // Each file a second newer than the last, as written.
    await fs.utimes(file, clock, clock++);
    written += size;
    assert.ok(await folderBytes(dir) <= MAX, `after file ${i}`);
  }
  assert.ok(written > 4 * MAX);
  assert.ok(bound.evicted > 0);
  const names = await fs.readdir(dir);
  assert.ok(names.includes('f199') && !names.includes('f000'), 'the newest stay, the oldest went');
});

test('a folder measured after a gap counts what another writer added', async (t) => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'negotiate-bound-'));
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  const bound = new CacheBound(dir, MAX);
  assert.equal(await bound.reserve(10), true);
  assert.equal(bound.measured, 0);
  await fs.writeFile(path.join(dir, 'other'), Buffer.alloc(MAX));
  // Past RESCAN_SHARE of the limit since the last measure: measured again, the other's file evicted.
  assert.equal(await bound.reserve(Math.floor(MAX * RESCAN_SHARE)), true);
  assert.ok(bound.measured <= MAX * LOW_WATER);
  assert.deepEqual(await fs.readdir(dir), []);
});

test('what cannot fit even in an emptied folder is refused; a missing folder holds nothing', async (t) => {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'negotiate-bound-'));
  t.after(() => fs.rm(base, { recursive: true, force: true }));
  const bound = new CacheBound(path.join(base, 'not-yet'), MAX);
  assert.equal(await bound.reserve(MAX + 1), false);
  assert.equal(await bound.reserve(MAX), true, 'a first write may take it all');
  assert.equal(await bound.reserve(1), true, 'measured again: what was reserved was never written');
});
