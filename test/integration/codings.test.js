'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const { spawn, execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { Readable, Writable } = require('node:stream');
const { pipeline } = require('node:stream/promises');
const { once } = require('node:events');
const { CODINGS, VARIANT_EXTENSIONS, createEngines } = require('../../server/compression/codings');
const { commandPath } = require('../helpers/tools');

const engines = createEngines();
const LEVELS = ['dynamic', 'max'];

/** Deterministic text that compresses the way HTML/JS does: a small vocabulary, repeated irregularly. */
function textInput(bytes) {
  const words = ['const', 'function', 'return', 'the', 'server', '<div class="nav">', 'encoding', '\n', '{', '}', 'br', 'zstd', 'gzip', '=>'];
  let seed = 42;
  const parts = [];
  let length = 0;
  while (length < bytes) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const word = words[seed % words.length] + ' ';
    parts.push(word);
    length += word.length;
  }
  return Buffer.from(parts.join('')).subarray(0, bytes);
}

const INPUTS = {
  empty: Buffer.alloc(0),
  text: textInput(20_000),
  random: crypto.randomBytes(20_000),
  '1MiB text': textInput(1024 * 1024),
};

async function collect(readable) {
  const chunks = [];
  await pipeline(readable, new Writable({ write(chunk, _enc, cb) { chunks.push(chunk); cb(); } }));
  return Buffer.concat(chunks);
}

/** Runs a CLI with `input` on stdin and resolves with its stdout. */
function runTool(cmd, args, input) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [];
    let err = '';
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => { err += c; });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err}`))));
    child.stdin.end(input);
  });
}

const hasTool = (cmd) => commandPath(cmd) !== null;

// Each coding's own command-line tool, decompressing a file in place: it recognises its own
// suffix, strips it and writes the original name.
const SUFFIX_TOOLS = { br: ['brotli', ['-d', '-j']], zstd: ['zstd', ['-d', '-q', '--rm']], gzip: ['gzip', ['-d']], lzma: ['lzma', ['-d']] };

test('each variant\'s suffix is the one its coding\'s own tool reads, and deflate has none', { skip: Object.values(SUFFIX_TOOLS).map(([cmd]) => cmd).filter((cmd) => !hasTool(cmd)).join(', ') || false }, async (t) => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'codings-suffix-'));
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  assert.deepEqual(Object.keys(VARIANT_EXTENSIONS).sort(), CODINGS.filter((c) => c !== 'deflate').sort());
  for (const [coding, suffix] of Object.entries(VARIANT_EXTENSIONS)) {
    const [cmd, args] = SUFFIX_TOOLS[coding];
    const file = path.join(dir, `page-${coding}.html`);
    await fs.writeFile(file + suffix, await engines.compress(coding, INPUTS.text, { level: 'max' }));
    await promisify(execFile)(cmd, [...args, file + suffix]);
    assert.ok((await fs.readFile(file)).equals(INPUTS.text), `${cmd} turned ${path.basename(file + suffix)} into ${path.basename(file)}`);
  }
});

for (const coding of CODINGS) {
  for (const level of LEVELS) {
    test(`${coding} ${level}: buffers round-trip`, async () => {
      for (const [name, input] of Object.entries(INPUTS)) {
        const compressed = await engines.compress(coding, input, { level });
        assert.ok(Buffer.isBuffer(compressed), `${name}: compress resolves a Buffer`);
        if (name.includes('text')) assert.ok(compressed.length < input.length / 2, `${name}: text compresses (${compressed.length} of ${input.length})`);
        assert.ok((await engines.decompress(coding, compressed)).equals(input), `${name} round-trips`);
      }
    });
  }

  test(`${coding}: streams round-trip across many writes`, async () => {
    const input = INPUTS['1MiB text'];
    const chunks = [];
    for (let at = 0; at < input.length; at += 50_000) chunks.push(input.subarray(at, at + 50_000));
    const compressed = await collect(Readable.from(chunks).pipe(engines.createCompressStream(coding, { level: 'dynamic', sizeHint: input.length })));
    assert.ok((await engines.decompress(coding, compressed)).equals(input));
    const emptyStream = await collect(Readable.from([]).pipe(engines.createCompressStream(coding)));
    assert.equal((await engines.decompress(coding, emptyStream)).length, 0);
  });

  // The server frees a streamed response's compression slot on its compressor's 'close'.
  test(`${coding}: a stream read to its end emits 'close'`, async () => {
    const stream = engines.createCompressStream(coding, { level: 'dynamic', sizeHint: INPUTS.text.length });
    let closed = false;
    stream.once('close', () => { closed = true; });
    await pipeline(Readable.from([INPUTS.text]), stream, new Writable({ write: (chunk, encoding, done) => done() }));
    // 'close' follows the end by a tick at most (autoDestroy); one turn of the loop is plenty.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(closed, true);
  });

  test(`${coding}: destroy() mid-stream closes cleanly and the engine keeps working`, async () => {
    for (let i = 0; i < 3; i++) {
      const stream = engines.createCompressStream(coding, { level: 'max' });
      stream.on('error', (err) => assert.fail(`destroy must not surface an error: ${err.message}`));
      stream.write(INPUTS['1MiB text']);
      stream.write(INPUTS.random);
      const closed = once(stream, 'close');
      stream.destroy();
      await closed;
      assert.equal(stream.destroyed, true);
    }
    const after = await engines.compress(coding, INPUTS.text);
    assert.ok((await engines.decompress(coding, after)).equals(INPUTS.text));
  });

  // The cap counts decoded bytes: up to it resolves the whole output, past it rejects.
  test(`${coding}: decompress with maxOutputLength`, async () => {
    const input = INPUTS.text;
    const compressed = await engines.compress(coding, input);
    const empty = await engines.compress(coding, INPUTS.empty);
    const cases = [
      [compressed, input.length + 1, input],
      [compressed, input.length, input],
      [compressed, input.length - 1, 'ERR_BUFFER_TOO_LARGE'],
      [compressed, 1, 'ERR_BUFFER_TOO_LARGE'],
      [empty, 1, INPUTS.empty],
      [compressed, 0, 'ERR_OUT_OF_RANGE'],
      [compressed, 1.5, 'ERR_OUT_OF_RANGE'],
      [compressed, Infinity, 'ERR_OUT_OF_RANGE'],
    ];
    for (const [source, maxOutputLength, expected] of cases) {
      const what = `${source.length}-byte input, maxOutputLength ${maxOutputLength}`;
      const outcome = await engines.decompress(coding, source, { maxOutputLength }).catch((err) => err);
      if (Buffer.isBuffer(expected)) {
        assert.ok(Buffer.isBuffer(outcome) && outcome.equals(expected), `${what}: ${outcome.message || 'wrong bytes'}`);
      } else {
        assert.ok(outcome instanceof RangeError, `${what}: a RangeError`);
        assert.equal(outcome.code, expected, what);
      }
    }
  });

  test(`${coding}: corrupt input is rejected`, async () => {
    const compressed = await engines.compress(coding, INPUTS.text);
    const corrupt = Buffer.concat([compressed.subarray(0, 12), Buffer.alloc(64, 0xa5)]);
    await assert.rejects(engines.decompress(coding, corrupt));
  });
}

test('lzma: a stream destroyed mid-chunk ends its native coder once the chunk is done', async () => {
  const stream = engines.createCompressStream('lzma', { level: 'max' });
  stream.write(INPUTS['1MiB text']);
  stream.destroy();
  await once(stream, 'close');
  // Bounded wait for the thread pool to finish the chunk in flight.
  for (let i = 0; i < 500 && stream.nativeStream; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(stream.nativeStream, null);
});

test('errors carry stable codes', async () => {
  await assert.rejects(engines.compress('compress', INPUTS.text), { code: 'ERR_UNKNOWN_CODING' });
  await assert.rejects(engines.compress('identity', INPUTS.text), { code: 'ERR_UNKNOWN_CODING' });
  await assert.rejects(engines.compress('gzip', INPUTS.text, { level: 'fast' }), { code: 'ERR_INVALID_ARG_VALUE' });
  assert.throws(() => engines.createCompressStream('toString'), { code: 'ERR_UNKNOWN_CODING' });
  assert.throws(() => createEngines({ brotliEngine: 'brotli-wasm' }), { code: 'ERR_INVALID_ARG_VALUE' });
});

const CLI_DECODERS = [
  ['br', 'brotli', ['-dc']],
  ['gzip', 'gzip', ['-dc']],
  ['zstd', 'zstd', ['-dcq']],
  ['lzma', 'xz', ['--format=lzma', '-dc']],
  ['lzma', 'lzma', ['-dc']],
];

for (const [coding, cmd, args] of CLI_DECODERS) {
  test(`${coding} output decodes with ${cmd} ${args.join(' ')}`, { skip: !hasTool(cmd) && `${cmd} is not installed` }, async () => {
    for (const level of LEVELS) {
      for (const input of [INPUTS.text, INPUTS.empty]) {
        const decoded = await runTool(cmd, args, await engines.compress(coding, input, { level }));
        assert.ok(decoded.equals(input), `${level}, ${input.length} bytes`);
      }
    }
  });
}

test('lzma decodes what `lzma -9` writes, and max matches it except the dictionary size', { skip: !hasTool('lzma') && 'lzma is not installed' }, async () => {
  const input = INPUTS.text;
  const fromCli = await runTool('lzma', ['-9', '-c'], input);
  assert.ok((await engines.decompress('lzma', fromCli)).equals(input));
  const ours = await engines.compress('lzma', input, { level: 'max' });
  assert.equal(ours.length, fromCli.length);
  // Header: properties byte, 4-byte dictionary size, 8-byte unknown size; then identical LZMA data.
  assert.equal(ours[0], fromCli[0]);
  assert.ok(ours.subarray(5).equals(fromCli.subarray(5)));
});

test('iltorb brotli engine', async (t) => {
  let iltorb;
  try {
    iltorb = createEngines({ brotliEngine: 'iltorb' });
  } catch (err) {
    assert.equal(err.code, 'ERR_ENGINE_UNAVAILABLE');
    t.skip(`iltorb is not installed: ${err.message}`);
    return;
  }
  assert.equal(iltorb.brotliEngine, 'iltorb');
  for (const level of LEVELS) {
    const compressed = await iltorb.compress('br', INPUTS.text, { level });
    assert.ok((await engines.decompress('br', compressed)).equals(INPUTS.text), `${level} decodes with zlib`);
  }
  const streamed = await collect(Readable.from([INPUTS.text, INPUTS.random]).pipe(iltorb.createCompressStream('br', { level: 'dynamic' })));
  assert.ok((await engines.decompress('br', streamed)).equals(Buffer.concat([INPUTS.text, INPUTS.random])));
});
