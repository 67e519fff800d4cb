'use strict';
// The core's one result type (select() → Selection), its explain() API, and the immutability of
// file metadata: every FileInfo the store hands out is deep-frozen here, so any later write to
// it (or to its representations) throws, and decide() would turn that into a 500.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const zlib = require('node:zlib');
const { normalizeOptions } = require('../../server/config/options');
const { createCore } = require('../../server/site/create-core');
const { settle } = require('../../server/decision/selection');

const KiB = 1024;
const TEXT = Buffer.from('the quick brown fox jumps over the lazy dog\n'.repeat(200));
const FILES = {
  'app.js': TEXT,
  'app.js.br': zlib.brotliCompressSync(TEXT),
  // Compressible by name, not by content: on-the-fly output is not smaller, so it is withdrawn.
  'noise.txt': crypto.randomBytes(8 * KiB),
  // Over bufferLimit: compressed while it streams.
  'big.txt': Buffer.from('lorem ipsum dolor sit amet '.repeat(4000)),
};

const silent = { enabled: () => false, debug() {}, info() {}, warn() {}, error() {} };

function deepFreeze(value, seen = new Set()) {
  if (value === null || typeof value !== 'object' || seen.has(value) || ArrayBuffer.isView(value)) return value;
  seen.add(value);
  for (const key of Reflect.ownKeys(value)) deepFreeze(value[key], seen);
  return Object.freeze(value);
}

function makeCore(t, tuning = {}) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'decision-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  for (const [name, bytes] of Object.entries(FILES)) fs.writeFileSync(path.join(root, name), bytes);
  fs.mkdirSync(path.join(root, 'dir'));
  const core = createCore(normalizeOptions({ root, precompress: false, bufferLimit: 64 * KiB, ...tuning }), silent);
  const lookup = core.store.lookup.bind(core.store);
  core.store.lookup = async (rel) => deepFreeze(await lookup(rel));
  return core;
}

async function selectFor(core, file, ae) {
  const info = await core.store.lookup(file);
  return { info, selection: core.select(info, ae) };
}

test('select() returns one Selection type: settled at once unless compression must run', async (t) => {
  const core = makeCore(t);
  const cases = [
    // file, Accept-Encoding, kind returned at once, settled kind, coding, source
    ['/app.js', 'br', 'rep', 'rep', 'br', 'precompressed'],
    ['/app.js', undefined, 'rep', 'rep', 'identity', 'identity'],
    ['/app.js', 'gzip', 'pending', 'rep', 'gzip', 'dynamic'],
    ['/app.js', 'gzip', 'rep', 'rep', 'gzip', 'dynamic'], // now cached: settled at once
    ['/app.js', 'identity;q=0, br;q=0, *;q=0', 'none', 'none', null, null],
    ['/big.txt', 'zstd', 'rep', 'rep', 'zstd', 'dynamic'],
    ['/noise.txt', 'gzip', 'pending', 'rep', 'identity', 'identity'], // withdrawn: identity next
    ['/noise.txt', 'gzip', 'rep', 'rep', 'identity', 'identity'],
    ['/noise.txt', 'gzip, identity;q=0', 'none', 'none', null, null],
  ];
  for (const [file, ae, kind, settledKind, coding, source] of cases) {
    const { selection } = await selectFor(core, file, ae);
    const what = `${file} with ${ae}`;
    assert.equal(selection.kind, kind, what);
    const settled = await settle(selection);
    assert.equal(settled.kind, settledKind, what);
    assert.equal(settled.rep?.coding ?? null, coding, what);
    assert.equal(settled.rep?.source ?? null, source, what);
  }
  const big = (await selectFor(core, '/big.txt', 'zstd')).selection.rep;
  assert.equal(big.streamsCompression, true);
  assert.equal(big.size, null);
});

test('a file whose on-the-fly output is not smaller keeps its FileInfo unchanged; the core holds the withdrawal', async (t) => {
  const core = makeCore(t);
  const { info, selection } = await selectFor(core, '/noise.txt', 'gzip');
  await settle(selection);
  assert.ok(info.offered.includes('gzip'), 'the FileInfo still lists what the disk offered');
  assert.ok(!core.offer(info).offered.includes('gzip'));
  assert.match(core.offer(info).unavailable.gzip, /^on-the-fly output \(\d+ bytes\) not smaller than the file \(8192 bytes\)$/);
  const d = await core.decide('GET', '/noise.txt', { 'accept-encoding': 'gzip' });
  assert.equal(d.status, 200);
  assert.equal(d.coding, 'identity');
});

test('no free compression slot: busy, then what needs no compression, else 503', async (t) => {
  const core = makeCore(t, { maxConcurrentCompressions: 1 });
  const info = await core.store.lookup('/app.js');
  const running = core.select(info, 'gzip');
  assert.equal(running.kind, 'pending');
  const [fallback, busy] = await Promise.all([settle(core.select(info, 'deflate')), settle(core.select(info, 'deflate, identity;q=0'))]);
  assert.equal(fallback.kind, 'rep');
  assert.equal(fallback.rep.coding, 'identity');
  assert.equal(busy.kind, 'busy');
  const d = await core.present(false, busy, info, {});
  assert.equal(d.status, 503);
  assert.equal((await running.pending).rep.coding, 'gzip');
});

test('decide() answers every path with frozen metadata (no write to a FileInfo or representation)', async (t) => {
  const core = makeCore(t);
  const cases = [
    // target, Accept-Encoding, status, coding
    ['/app.js', 'br', 200, 'br'],
    ['/app.js', 'gzip', 200, 'gzip'],
    ['/app.js', 'gzip', 200, 'gzip'],
    ['/big.txt', 'gzip', 200, 'gzip'],
    ['/big.txt', 'gzip', 200, 'gzip'],
    ['/noise.txt', 'deflate', 200, 'identity'],
    ['/noise.txt', 'deflate, identity;q=0', 406, null],
    ['/_negotiate?path=/noise.txt&ae=br', undefined, 200, null],
  ];
  for (const [target, ae, status, coding] of cases) {
    const d = await core.decide('GET', target, ae === undefined ? {} : { 'accept-encoding': ae });
    if (d.body !== null && !Buffer.isBuffer(d.body)) d.body.destroy();
    assert.equal(d.status, status, `${target} with ${ae}`);
    assert.equal(d.coding, coding, `${target} with ${ae}`);
  }
});

test('explain() reports candidates, q-values, sizes and the choice from the decision itself', async (t) => {
  const core = makeCore(t);
  const report = await core.explain('/app.js', 'gzip;q=0.5, br;q=0.8, zstd');
  assert.equal(report.status, 200);
  assert.equal(report.chosen, 'zstd');
  assert.equal(report.source, 'dynamic');
  const byCoding = Object.fromEntries(report.variants.map((v) => [v.coding, v]));
  assert.deepEqual(byCoding.br, { coding: 'br', q: 0.8, acceptable: true, available: true, source: 'precompressed', bytes: FILES['app.js.br'].length });
  assert.equal(byCoding.gzip.q, 0.5);
  assert.equal(byCoding.identity.bytes, TEXT.length);
  const zstd = await settle(core.select(await core.store.lookup('/app.js'), 'zstd'));
  assert.equal(byCoding.zstd.bytes, zstd.rep.size);
  assert.match(report.reason, /^zstd \(dynamic\) has the highest client q-value/);

  const noise = await core.explain('/noise.txt', 'gzip, identity;q=0');
  assert.equal(noise.status, 406);
  assert.equal(noise.chosen, null);
  assert.equal(noise.variants.find((v) => v.coding === 'gzip').available, false);
  assert.match(noise.reason, /gzip unavailable: on-the-fly output \(\d+ bytes\) not smaller than the file/);

  const big = await core.explain('/big.txt', 'br');
  assert.equal(big.chosen, 'br');
  assert.equal(big.variants.find((v) => v.coding === 'br').bytes, null, 'streamed compression has no size up front');

  await assert.rejects(core.explain('/missing.js', 'br'), { status: 404 });
  await assert.rejects(core.explain('/dir', 'br'), { status: 400, code: 'ERR_DIRECTORY' });
});
