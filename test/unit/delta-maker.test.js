'use strict';
// The dictionary deltas (server/dictionaries/delta-maker.js), asked for through the decision core
// over a real root and cache folder, without sockets, with the delta codec wrapped to count its calls: a delta kept in the
// cache folder is decoded (checked) once per process, never at each use, and one this process
// made never; making and checking deltas is bounded per connection and for the process, past
// which a request gets br.

const test = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const { normalizeOptions } = require('../../server/config/options');
const { createCore } = require('../../server/site/create-core');
const { DeltaBudget } = require('../../server/dictionaries/delta-budget');
const { appScript } = require('../helpers/dictionary-site');
const { rootCacheDir, realCacheDir } = require('../../server/files/variant-cache');

const RULE = { match: '/assets/app.*.js' };
const VERSIONS = [0, 1, 2, 3, 4, 5];
const BYTES = Object.fromEntries(VERSIONS.map((v) => [v, Buffer.from(appScript(`v${v}`, 40 * 1024))]));
const sfHash = (bytes) => `:${crypto.createHash('sha256').update(bytes).digest('base64')}:`;
const silent = { warn() {}, info() {}, debug() {}, error() {}, always() {} };

async function site(t) {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'negotiate-core-deltas-'));
  t.after(() => fs.rm(tmp, { recursive: true, force: true }));
  const root = path.join(tmp, 'root');
  await fs.mkdir(path.join(root, 'assets'), { recursive: true });
  for (const v of VERSIONS) {
    await fs.writeFile(path.join(root, 'assets', `app.v${v}.js`), BYTES[v]);
    await fs.utimes(path.join(root, 'assets', `app.v${v}.js`), 1000 + v, 1000 + v);
  }
  // Nothing kept in memory: every repeat goes to the cache folder.
  return normalizeOptions({ root, cacheDir: path.join(tmp, 'cache'), dictionaries: [RULE], compressCacheBytes: 0 });
}

// A core whose delta codec counts its calls.
function countingCore(options) {
  const core = createCore(options, silent);
  const calls = { compress: 0, decompress: 0 };
  const real = core.deltas.engines;
  core.deltas.engines = {
    ...real,
    compress: (...args) => { calls.compress++; return real.compress(...args); },
    decompress: (...args) => { calls.decompress++; return real.decompress(...args); },
  };
  return { core, calls };
}

async function ask(core, file, dictionary, connection = {}, coding = 'dcb') {
  const d = await core.decide('GET', `/assets/app.v${file}.js`, { 'accept-encoding': `br, ${coding}`, 'available-dictionary': sfHash(BYTES[dictionary]) }, connection);
  assert.equal(d.status, 200);
  return d.headers['content-encoding'];
}

test('a kept delta is served without being decoded again: those made here never, those kept before once', async (t) => {
  const options = await site(t);
  let { core, calls } = countingCore(options);
  // Made ahead of time: v5 against v4 and v3, v4 against v3 and v2, in dcb and dcz.
  assert.equal(await core.deltasAhead, 8);
  await Promise.all(core.deltas.writes);
  assert.deepEqual(calls, { compress: 8, decompress: 0 });
  for (let i = 0; i < 3; i++) assert.equal(await ask(core, 5, 4), 'dcb');
  assert.deepEqual(calls, { compress: 8, decompress: 0 }, 'made here: read back as they are');
  await core.close();

  ({ core, calls } = countingCore(options));
  t.after(() => core.close());
  assert.equal(await core.deltasAhead, 8);
  assert.deepEqual(calls, { compress: 0, decompress: 8 }, 'kept before the restart: each checked once');
  for (let i = 0; i < 3; i++) {
    assert.equal(await ask(core, 5, 4), 'dcb');
    assert.equal(await ask(core, 4, 2, {}, 'dcz'), 'dcz');
  }
  assert.deepEqual(calls, { compress: 0, decompress: 8 }, 'and never again');
});

test('making deltas is bounded per connection and for the process; past it a request gets br', async (t) => {
  const options = await site(t);
  const { core, calls } = countingCore(options);
  t.after(() => core.close());
  await core.deltasAhead;
  await Promise.all(core.deltas.writes);
  let clock = 0;
  const size = BYTES[0].length;
  core.deltas.budget = new DeltaBudget({
    global: { bytesPerSecond: size, burstBytes: 4 * size },
    connection: { bytesPerSecond: size / 10, burstBytes: 2 * size },
  }, { now: () => clock });
  const [a, b, c] = [{}, {}, {}];
  const made = calls.compress;
  // Pairs nobody made yet: each would be a compression.
  assert.deepEqual([await ask(core, 0, 1, a), await ask(core, 0, 2, a), await ask(core, 0, 3, a)], ['dcb', 'dcb', 'br']);
  assert.deepEqual([await ask(core, 1, 0, b), await ask(core, 1, 2, b)], ['dcb', 'dcb']);
  assert.equal(await ask(core, 1, 3, c), 'br', 'the process has spent its burst');
  assert.equal(calls.compress - made, 4);
  // A delta made before costs nothing.
  assert.equal(await ask(core, 0, 1, a), 'dcb');
  assert.equal(await ask(core, 5, 4, c), 'dcb');
  clock += 10_000;
  assert.equal(await ask(core, 0, 3, a), 'dcb', 'the connection\'s rate refilled it');
  assert.equal(calls.compress - made, 5);
  assert.equal(core.stats.deltaBudget.refused, 2);
});

test('--cache-bytes holds at every delta written, however many', async (t) => {
  const options = { ...await site(t), cacheBytes: 2048 };
  const { core } = countingCore(options);
  t.after(() => core.close());
  await core.deltasAhead;
  core.deltas.budget = new DeltaBudget({ global: { bytesPerSecond: 0, burstBytes: Infinity }, connection: { bytesPerSecond: 0, burstBytes: Infinity } });
  const folder = rootCacheDir(realCacheDir(options.cacheDir), await fs.realpath(options.root));
  const folderBytes = async () => {
    let total = 0;
    for (const entry of await fs.readdir(folder, { withFileTypes: true })) if (entry.isFile()) total += (await fs.lstat(path.join(folder, entry.name))).size;
    return total;
  };
  let written = 0;
  for (const file of VERSIONS) {
    for (const dictionary of VERSIONS) {
      if (file === dictionary) continue;
      for (const coding of ['dcb', 'dcz']) {
        assert.equal(await ask(core, file, dictionary, {}, coding), coding);
        await Promise.all(core.deltas.writes);
        const bytes = await folderBytes();
        assert.ok(bytes <= options.cacheBytes, `${bytes} bytes in the folder after v${file} against v${dictionary} in ${coding}`);
        written++;
      }
    }
  }
  assert.equal(written, 60);
  const names = await fs.readdir(folder);
  assert.ok(names.filter((n) => /\.dc[bz]\d/.test(n)).length > 5, 'the most recent deltas are kept');
});
