'use strict';
// server/dictionaries/retired-dictionaries.js: previous contents kept in the cache folder come back,
// newest first, within the limits; whatever does not hash to its name, has no path, is too
// old or too big, or is past the limits is deleted; a dead writer's temporary goes, a live one
// stays; a folder another user could fill is left alone.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const { saveRetired, loadRetired, removeRetired } = require('../../server/dictionaries/retired-dictionaries');
const { sha256 } = require('../../server/dictionaries/dictionary-codings');
const { TEMP_MAX_AGE_MS } = require('../../server/files/variant-cache');
const { makeFifos, releaseFifos } = require('../helpers/fifos');

const NOW = Date.UTC(2026, 0, 1);
const LIMITS = { maxEntries: 3, maxBytes: 100, maxEntryBytes: 40, maxAgeMs: 10_000, nowMs: NOW };

async function folder(t) {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'negotiate-retired-'));
  t.after(() => fs.rm(base, { recursive: true, force: true }));
  return path.join(base, 'dictionaries');
}

// Saves `text` (served at rel) as written `ageMs` before NOW; its hex name.
async function save(dir, text, ageMs, rel = '/a/lib.js') {
  const hex = sha256(text).toString('hex');
  await saveRetired(dir, hex, rel, Buffer.from(text));
  const at = new Date(NOW - ageMs);
  await fs.utimes(path.join(dir, hex), at, at);
  return hex;
}

const names = async (dir) => (await fs.readdir(dir)).sort();

test('saved contents come back newest first, the folder 0700 and the files 0600', async (t) => {
  const dir = await folder(t);
  const old = await save(dir, 'old build', 2000);
  const recent = await save(dir, 'recent build', 1000, '/b/x.js');
  assert.equal(((await fs.stat(dir)).mode & 0o777).toString(8), '700');
  assert.equal(((await fs.stat(path.join(dir, old))).mode & 0o777).toString(8), '600');
  const kept = await loadRetired(dir, LIMITS);
  assert.deepEqual(kept.map((e) => [e.hash.toString('hex'), e.rel, e.bytes.toString(), e.ageMs]),
    [[recent, '/b/x.js', 'recent build', 1000], [old, '/a/lib.js', 'old build', 2000]]);
  await removeRetired(dir, old);
  assert.deepEqual(await names(dir), [recent, `${recent}.json`].sort());
});

test('loading deletes what may not be used and what is past the limits', async (t) => {
  const dir = await folder(t);
  const cases = {
    tampered: await save(dir, 'tampered', 1),
    pathless: await save(dir, 'no path', 2),
    badPath: await save(dir, 'bad path', 3),
    tooOld: await save(dir, 'too old', LIMITS.maxAgeMs + 1),
    tooBig: await save(dir, 'x'.repeat(LIMITS.maxEntryBytes + 1), 4),
  };
  await fs.writeFile(path.join(dir, cases.tampered), 'tampereD');
  await fs.rm(path.join(dir, `${cases.pathless}.json`));
  await fs.writeFile(path.join(dir, `${cases.badPath}.json`), '{"rel": 7}');
  // Past the count: the oldest of four goes; past the bytes: 3 x 35 > 100.
  const kept = [];
  for (let i = 0; i < 4; i++) kept.push(await save(dir, `${i}`.repeat(35), 100 + i));
  await fs.writeFile(path.join(dir, 'stray.json'), '{}');
  await fs.writeFile(path.join(dir, '.tmp-1-dead'), 'x');
  const dead = new Date(NOW - TEMP_MAX_AGE_MS - 1);
  await fs.utimes(path.join(dir, '.tmp-1-dead'), dead, dead);
  await fs.writeFile(path.join(dir, '.tmp-2-live'), 'x');
  const live = new Date(NOW);
  await fs.utimes(path.join(dir, '.tmp-2-live'), live, live);

  const loaded = await loadRetired(dir, LIMITS);
  assert.deepEqual(loaded.map((e) => e.bytes.toString()), ['0'.repeat(35), '1'.repeat(35)]);
  assert.deepEqual(await names(dir), ['.tmp-2-live', kept[0], `${kept[0]}.json`, kept[1], `${kept[1]}.json`].sort());
});

test('a link in place of a content is never followed, and a missing folder holds nothing', async (t) => {
  const dir = await folder(t);
  assert.deepEqual(await loadRetired(dir, LIMITS), []);
  const hex = await save(dir, 'linked', 1);
  const target = path.join(path.dirname(dir), 'elsewhere');
  await fs.writeFile(target, 'linked');
  await fs.rm(path.join(dir, hex));
  await fs.symlink(target, path.join(dir, hex));
  assert.deepEqual(await loadRetired(dir, LIMITS), []);
  assert.deepEqual(await names(dir), []);
  assert.equal(await fs.readFile(target, 'utf8'), 'linked', 'only the link went');
});

test('a folder others can enter, or that is a link, is neither read nor cleaned; a FIFO in ours is deleted', async (t) => {
  const dir = await folder(t);
  const hex = await save(dir, 'kept', 1);
  const fifo = path.join(dir, sha256('fifo').toString('hex'));
  makeFifos([fifo]);
  t.after(() => releaseFifos([fifo]));
  const link = path.join(path.dirname(dir), 'link');
  await fs.symlink(dir, link);
  await fs.chmod(dir, 0o755);
  for (const where of [dir, link]) assert.deepEqual(await loadRetired(where, LIMITS), [], where);
  assert.deepEqual(await names(dir), [hex, `${hex}.json`, path.basename(fifo)].sort());
  await fs.chmod(dir, 0o700);
  assert.deepEqual((await loadRetired(dir, LIMITS)).map((e) => e.bytes.toString()), ['kept']);
  assert.deepEqual(await names(dir), [hex, `${hex}.json`].sort());
});
