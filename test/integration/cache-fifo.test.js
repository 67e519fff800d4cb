'use strict';
// FIFOs planted in the cache folder (--cache-dir, which may be shared) at the exact names the
// server reads: cached variants, dictionary deltas and retired dictionaries. Each read opens
// without waiting for a writer and refuses what is not a regular file of ours, so no libuv
// thread is held: every request, the deltas' and everyone else's, is answered promptly, on both
// engines. What the rules say becomes of each FIFO: a delta's is replaced by the delta made
// instead, a retired dictionary's is deleted at start, a variant's is ignored (the file is
// compressed on the fly).

const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const path = require('node:path');
const zlib = require('node:zlib');
const crypto = require('node:crypto');
const { forEachEngine, startTestServer, makeTempDir, compressibleText } = require('../helpers/server');
const { makeFifos, releaseFifos } = require('../helpers/fifos');
const { waitFor } = require('../helpers/poll');
const { appScript } = require('../helpers/dictionary-site');
const { createEngines } = require('../../server/compression/codings');
const { createDictionaryEngines, sha256 } = require('../../server/dictionaries/dictionary-codings');
const { rootCacheDir, realCacheDir, cachedPath } = require('../../server/files/variant-cache');
const { deltaPath } = require('../../server/dictionaries/delta-store');
const { retiredDir } = require('../../server/dictionaries/retired-dictionaries');

// Far below the 10 s a client gives up after, far above what a loaded machine needs.
const PROMPT_MS = 5000;
const RULE = { match: '/assets/app.*.js' };
const RELEASES = { v0: Buffer.from(`${appScript('v0', 32 * 1024)}// release 0\n`), v1: Buffer.from(appScript('v1', 32 * 1024)), v2: Buffer.from(appScript('v2', 32 * 1024)) };
// [file, dictionary]: the deltas a client holding an older release asks for.
const PAIRS = [['v2', 'v1'], ['v2', 'v0'], ['v1', 'v0']];
const CODINGS = ['dcb', 'dcz'];
const dictionaryEngines = createDictionaryEngines(createEngines());

function within(promise, what) {
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer within ${PROMPT_MS} ms`)), PROMPT_MS); });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const kindOf = async (file) => {
  const st = await fs.lstat(file).catch(() => null);
  return st === null ? 'gone' : st.isFIFO() ? 'fifo' : st.isFile() ? 'file' : 'other';
};

forEachEngine((engine) => {
  test('FIFOs at the names the server reads in the cache folder never stall it', { timeout: 60_000 }, async (t) => {
    const tmp = await makeTempDir();
    t.after(() => fs.rm(tmp, { recursive: true, force: true }));
    const root = path.join(tmp, 'root');
    const cacheDir = path.join(tmp, 'cache');
    await fs.mkdir(path.join(root, 'assets'), { recursive: true });
    for (const [version, bytes] of Object.entries(RELEASES)) await fs.writeFile(path.join(root, 'assets', `app.${version}.js`), bytes);
    const plain = compressibleText(20_000, 'plain');
    await fs.writeFile(path.join(root, 'plain.txt'), plain);
    await fs.writeFile(path.join(root, 'other.txt'), 'other\n');
    const rootReal = await fs.realpath(root);
    const folder = rootCacheDir(realCacheDir(cacheDir), rootReal);
    await fs.mkdir(retiredDir(folder), { recursive: true, mode: 0o700 });
    const infoOf = async (rel) => {
      const real = path.join(rootReal, rel);
      return { real, stat: await fs.stat(real) };
    };

    const deltas = [];
    for (const [file, dictionary] of PAIRS) {
      const info = await infoOf(`assets/app.${file}.js`);
      for (const coding of CODINGS) {
        deltas.push({ file, dictionary, coding, at: deltaPath(folder, info, coding + dictionaryEngines.settingsTag(coding), sha256(RELEASES[dictionary]).toString('hex')) });
      }
    }
    const plainInfo = await infoOf('plain.txt');
    const variants = ['.br', '.gz'].map((ext) => cachedPath(folder, plainInfo.real, plainInfo.stat, ext));
    // A retired content that is a FIFO, and a real one whose path file is a FIFO.
    const kept = Buffer.from('a previous release of app.js\n'.repeat(100));
    const keptHex = sha256(kept).toString('hex');
    await fs.writeFile(path.join(retiredDir(folder), keptHex), kept, { mode: 0o600 });
    const retired = [path.join(retiredDir(folder), crypto.createHash('sha256').update('gone').digest('hex')), path.join(retiredDir(folder), `${keptHex}.json`)];
    const fifos = [...deltas.map((d) => d.at), ...variants, ...retired];
    makeFifos(fifos);
    t.after(() => releaseFifos(fifos));

    const s = await startTestServer({ engine, root, cacheDir, dictionaries: [RULE] });
    t.after(() => s.close());
    await within(waitFor(() => s.stats.dictionaries >= 3, { what: 'the dictionary scan' }), 'the dictionary scan');

    // The deltas one after the other (at once, some would wait for a compression slot and be
    // answered without a delta), the other files meanwhile: before, each read stuck on a FIFO
    // held one of libuv's four threads, and the other files waited behind them.
    const others = Promise.all([
      within(s.h2('/plain.txt', { headers: { 'accept-encoding': 'br' } }), 'plain.txt').then((res) => {
        assert.equal(res.headers['content-encoding'], 'br');
        assert.equal(zlib.brotliDecompressSync(res.body).toString(), plain);
      }),
      within(s.h1('/plain.txt', { headers: { 'accept-encoding': 'gzip' } }), 'plain.txt over HTTP/1.1').then((res) => {
        assert.equal(zlib.gunzipSync(res.body).toString(), plain);
      }),
      within(s.h2('/other.txt'), 'other.txt').then((res) => assert.equal(res.body.toString(), 'other\n')),
    ]);
    for (const { file, dictionary, coding } of deltas) {
      const res = await within(s.h2(`/assets/app.${file}.js`, {
        headers: { 'accept-encoding': coding, 'available-dictionary': `:${sha256(RELEASES[dictionary]).toString('base64')}:` },
      }), `${file} as ${coding} against ${dictionary}`);
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-encoding'], coding, `${file} against ${dictionary}`);
      assert.deepEqual(await dictionaryEngines.decompress(coding, res.body, RELEASES[dictionary]), RELEASES[file]);
    }
    await others;

    // The deltas made instead took the FIFOs' places (close waits for their writes); the
    // retired dictionaries' were deleted when the folder was loaded; the variants' are ignored.
    await waitFor(async () => (await Promise.all(retired.map(kindOf))).every((k) => k === 'gone'), { what: 'the retired FIFOs deleted' });
    await s.close();
    assert.deepEqual(await Promise.all(deltas.map((d) => kindOf(d.at))), deltas.map(() => 'file'));
    assert.deepEqual(await Promise.all(variants.map(kindOf)), ['fifo', 'fifo']);
    assert.equal(await kindOf(path.join(retiredDir(folder), keptHex)), 'gone', 'a content without its path goes too');
  });
});
