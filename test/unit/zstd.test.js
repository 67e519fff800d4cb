'use strict';
// zstd's two backends (server/compression/zstd.js): node:zlib's where it has zstd with
// dictionaries, zstd-napi elsewhere. Both make the same frames byte for byte (one libzstd, the
// same parameters), decode each other's streams, and report bad input with the same codes.

const test = require('node:test');
const assert = require('node:assert/strict');
const { Readable } = require('node:stream');
const { buffer } = require('node:stream/consumers');
const { createZstdEngine, zstdBackend, ZSTD_BACKENDS } = require('../../server/compression/zstd');
const { zlibZstdProblem } = require('../../server/compression/zstd-zlib');

// Each backend, or why it cannot run in this Node.js (node:zlib has zstd with dictionaries from
// Node 24; zstd-napi is an optional dependency).
const engines = {};
const skips = {};
for (const backend of ZSTD_BACKENDS) {
  try {
    engines[backend] = createZstdEngine(backend);
  } catch (err) {
    skips[backend] = `the ${backend} backend cannot run in Node.js ${process.versions.node}: ${err.message.split('\n')[0]}`;
  }
}
const both = skips.zlib ?? skips['zstd-napi'];

// Deterministic text with the repeats of HTML and JavaScript, `bytes` long.
function text(bytes, seed = 7) {
  const words = ['const', 'return', '<div class="nav">', '=>', 'function', '\n', 'encoding', '{', '}'];
  let s = seed;
  const parts = [];
  for (let n = 0; n < bytes;) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    parts.push(words[s % words.length]);
    n += parts.at(-1).length;
  }
  return Buffer.from(parts.join('')).subarray(0, bytes);
}

test('the backend: node:zlib\'s zstd where it has dictionaries, else zstd-napi', () => {
  assert.equal(zstdBackend(), zlibZstdProblem() === null ? 'zlib' : 'zstd-napi');
  // Node 24.19+ has zstd, dictionaries and refuses truncated frames; Node 20 has no zstd.
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major > 24 || (major === 24 && minor >= 19)) assert.equal(zstdBackend(), 'zlib');
  if (major < 22) {
    assert.equal(zstdBackend(), 'zstd-napi');
    assert.equal(zlibZstdProblem(), `node:zlib has no zstd in Node.js ${process.versions.node}`);
  }
  assert.throws(() => createZstdEngine('zstd-wasm'), { code: 'ERR_INVALID_ARG_VALUE', message: "unknown zstd backend 'zstd-wasm' (expected zlib or zstd-napi)" });
});

// [input, level]: empty, one byte, text that fits a block, and past the 128 KiB block size.
const FRAMES = [[0, 3], [1, 3], [5000, 1], [5000, 19], [300_000, 3], [300_000, 19]];
for (const [bytes, level] of FRAMES) {
  test(`${bytes} bytes at level ${level}: the same frame from both backends, and each decodes it`, { skip: both }, async () => {
    const input = text(bytes);
    const [a, b] = await Promise.all(ZSTD_BACKENDS.map((k) => engines[k].compress(input, { level })));
    assert.ok(a.equals(b), `${a.length} and ${b.length} bytes`);
    assert.equal(a.readUInt32LE(0), 0xfd2fb528, 'a zstd frame');
    for (const k of ZSTD_BACKENDS) assert.ok((await engines[k].decompress(a)).equals(input), k);
  });
}

// [dictionary bytes, input bytes, level]: a small raw dictionary, and one past a megabyte at a
// fast level, where both backends enlarge the match tables (zstd-params.js).
const DICTIONARY_FRAMES = [[2000, 5000, 3], [2000, 5000, 19], [1_100_000, 200_000, 3]];
for (const [dictionaryBytes, bytes, level] of DICTIONARY_FRAMES) {
  test(`dcz's frames: ${bytes} bytes against a ${dictionaryBytes}-byte dictionary at level ${level}, byte for byte the same`, { skip: both }, async () => {
    const dictionary = text(dictionaryBytes, 1);
    const input = Buffer.concat([text(bytes / 2, 1), text(bytes / 2, 2)]);
    const [a, b] = await Promise.all(ZSTD_BACKENDS.map((k) => engines[k].compressWithDictionary(input, dictionary, { level })));
    assert.ok(a.equals(b), `${a.length} and ${b.length} bytes`);
    for (const k of ZSTD_BACKENDS) assert.ok((await engines[k].decompressWithDictionary(a, dictionary)).equals(input), k);
    assert.ok(a.length < (await engines.zlib.compress(input, { level })).length, 'the dictionary was used');
  });
}

test('streams: each backend decodes the other\'s, chunked as files are read', { skip: both }, async () => {
  const input = text(300_000);
  const chunks = [input.subarray(0, 65536), input.subarray(65536, 200_000), input.subarray(200_000)];
  for (const [from, to] of [['zlib', 'zstd-napi'], ['zstd-napi', 'zlib']]) {
    const frame = await buffer(Readable.from(chunks).pipe(engines[from].createCompressStream({ level: 3 })));
    assert.ok((await engines[to].decompress(frame)).equals(input), `${from} -> ${to}`);
  }
});

for (const backend of ZSTD_BACKENDS) {
  test(`${backend}: bad input is refused with the codes of the decoder's contract`, { skip: skips[backend] }, async () => {
    const engine = engines[backend];
    const input = text(50_000);
    const frame = await engine.compress(input, { level: 3 });
    await assert.rejects(engine.decompress(frame, 1000), { name: 'RangeError', code: 'ERR_BUFFER_TOO_LARGE', message: 'decoded output exceeds 1000 bytes' });
    await assert.rejects(engine.decompress(frame.subarray(0, frame.length - 3)), { code: 'ERR_ZSTD_TRUNCATED', message: 'zstd input ends inside a frame' });
    await assert.rejects(engine.decompress(Buffer.from('not zstd at all')), /Unknown frame descriptor/);
    assert.ok((await engine.decompress(frame, input.length)).equals(input), 'a cap of exactly the size');
    const twice = Buffer.concat([frame, frame]);
    assert.ok((await engine.decompress(twice)).equals(Buffer.concat([input, input])), 'frames one after the other');
    await assert.rejects(engine.decompress(twice, input.length), { code: 'ERR_BUFFER_TOO_LARGE', message: `decoded output exceeds ${input.length} bytes` }, 'the cap counts every frame');
    await assert.rejects(engine.decompress(Buffer.concat([frame, Buffer.from('trailing bytes')])), /Unknown frame descriptor/);
    assert.equal((await engine.decompress(Buffer.alloc(0))).length, 0);
  });
}
