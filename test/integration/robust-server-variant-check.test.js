'use strict';
// The content check of a variant up to a second older than its original (see variantAge in
// server/files/file-store.js), against a hostile served folder: a variant that is a decompression
// bomb, and the original swapped for a FIFO while it is checked.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const fsSync = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { execFileSync } = require('node:child_process');
const { startTestServer, makeTempDir, compressibleText } = require('../helpers/server');
const { releaseFifos } = require('../helpers/fifos');
const { decode, engines } = require('../helpers/clients');
const { BOMBS } = require('../helpers/bombs');
const { swapSkipReason, startSwapping } = require('../helpers/swapper');
const { VARIANT_EXTENSIONS } = require('../../server/compression/codings');
const { FileStore } = require('../../server/files/file-store');
const { createFileInfoBuilder } = require('../../server/decision/file-info');

const MiB = 1024 * 1024;
const BOMB_BYTES = 1024 * MiB;
const RSS_GROWTH_LIMIT = 100 * MiB;
const PROMPT_MS = 5000;
const TEXT = compressibleText(64 * 1024, 'original');

let scratch;

before(async () => {
  scratch = await makeTempDir('negotiate-verify-');
});

after(() => fs.rm(scratch, { recursive: true, force: true }));

function captureLogger() {
  const lines = [];
  const push = (msg) => lines.push(msg);
  return { lines, enabled: () => true, error: push, warn: push, info() {}, debug() {}, always() {}, drain: async () => {} };
}

// Peak RSS since resetPeak() (Linux: writing 5 to clear_refs resets VmHWM to the current RSS).
const PEAK_SKIP = (() => {
  try {
    fsSync.writeFileSync('/proc/self/clear_refs', '5');
    return false;
  } catch (err) {
    return `peak RSS cannot be reset here (/proc/self/clear_refs: ${err.code})`;
  }
})();

function resetPeak() {
  fsSync.writeFileSync('/proc/self/clear_refs', '5');
  return process.memoryUsage().rss;
}

function peakRss() {
  return Number(/VmHWM:\s+(\d+) kB/.exec(fsSync.readFileSync('/proc/self/status', 'latin1'))[1]) * 1024;
}

// A whole second in the past; the original is written half a second later, as `brotli -k`
// leaves a variant made from it (mtime truncated to the second).
const SECOND = Math.floor(Date.now() / 1000) - 60;

function within(promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer within ${PROMPT_MS} ms`)), PROMPT_MS); });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

for (const coding of ['br', 'gzip', 'zstd', 'lzma']) {
  test(`a same-second ${coding} variant that decodes to 1 GiB is refused in bounded memory`, { skip: PEAK_SKIP }, async (ctx) => {
    const bomb = await BOMBS[coding](BOMB_BYTES);
    const log = captureLogger();
    const ext = VARIANT_EXTENSIONS[coding];
    const t = await startTestServer({
      logger: log,
      files: { 'app.js': { content: TEXT, mtime: SECOND + 0.5 }, [`app.js${ext}`]: { content: bomb, mtime: SECOND } },
    });
    try {
      const variant = path.join(await fs.realpath(t.root), `app.js${ext}`);
      const base = resetPeak();
      const res = await t.h2('/app.js', { headers: { 'accept-encoding': coding } });
      const growth = peakRss() - base;
      ctx.diagnostic(`${bomb.length}-byte ${coding} bomb: peak RSS grew ${(growth / MiB).toFixed(1)} MiB while checked`);
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-encoding'], coding);
      assert.ok(!res.body.equals(bomb), 'not the bomb');
      assert.equal((await decode(coding, res.body)).toString(), TEXT, 'compressed on the fly from the original');
      assert.ok(growth < RSS_GROWTH_LIMIT, `peak RSS grew ${(growth / MiB).toFixed(1)} MiB`);
      assert.deepEqual(log.lines, [`ignoring stale variants of ${path.join(path.dirname(variant), 'app.js')}: app.js${ext} older than the file, and decodes to more than its ${TEXT.length} bytes`]);
      const report = JSON.parse((await t.h1(`/_negotiate?path=/app.js&ae=${coding}`)).body);
      assert.equal(report.source, 'dynamic');
    } finally {
      await t.close();
    }
  });
}

// The engines themselves, the same bombs: each stops right past the cap.
test('every engine stops decoding a 1 GiB bomb right past maxOutputLength', { skip: PEAK_SKIP }, async (ctx) => {
  for (const coding of ['br', 'gzip', 'zstd', 'lzma']) {
    const bomb = await BOMBS[coding](BOMB_BYTES);
    const base = resetPeak();
    const outcome = await engines.decompress(coding, bomb, { maxOutputLength: MiB }).catch((err) => err);
    const growth = peakRss() - base;
    ctx.diagnostic(`${coding}: peak RSS grew ${(growth / MiB).toFixed(1)} MiB`);
    assert.equal(outcome.code, 'ERR_BUFFER_TOO_LARGE', coding);
    assert.ok(growth < RSS_GROWTH_LIMIT, `${coding}: peak RSS grew ${(growth / MiB).toFixed(1)} MiB`);
  }
});

// Deterministic: the original is replaced by a FIFO between its open and its check, while the
// first of two same-second variants is decoded. The second check must not open the FIFO by
// name (that open would wait for a writer forever, holding a libuv thread).
test('the original swapped for a FIFO during the check: the check ends, the variant is refused', async () => {
  const root = await fs.realpath(await fs.mkdtemp(path.join(scratch, 'store-')));
  const file = path.join(root, 'big.js');
  const big = compressibleText(256 * 1024, 'big');
  await fs.writeFile(file, big);
  await fs.writeFile(`${file}.br`, zlib.brotliCompressSync(big));
  await fs.writeFile(`${file}.gz`, zlib.gzipSync(big));
  for (const name of [file, `${file}.br`, `${file}.gz`]) await fs.utimes(name, SECOND, SECOND);
  await fs.utimes(file, SECOND + 0.5, SECOND + 0.5);
  const log = captureLogger();
  let swapped = false;
  const store = new FileStore({
    rootReal: root,
    variantCodings: [['br', '.br'], ['gzip', '.gz']],
    buildInfo: createFileInfoBuilder({ encodings: ['br', 'gzip'], dynamicReasons: { br: null, gzip: null }, minCompressBytes: 0, cacheControl: 'no-cache' }),
    minCompressBytes: 0,
    // Smaller than every file here: the check has to read them again.
    bufferLimit: 1024,
    maxBytes: MiB,
    revalidateMs: 0,
    log,
    decompress: async (coding, input, options) => {
      if (!swapped) {
        swapped = true;
        await fs.rename(file, `${file}.aside`);
        execFileSync('mkfifo', [file]);
      }
      return engines.decompress(coding, input, options);
    },
  });
  try {
    const info = await within(store.lookup('big.js'), 'lookup');
    assert.ok(swapped);
    assert.equal(info.found.br.mismatch, null, 'decoded before the swap: the br variant is the original');
    assert.equal(info.found.gzip.mismatch, 'older than the file, and cannot be checked by content (not a regular file)');
    assert.deepEqual(Object.keys(info.variants), ['br']);
    await assert.rejects(within(store.lookup('big.js'), 'lookup after the swap'), { status: 404 });
  } finally {
    await releaseFifos([file]);
  }
});

// Over a real server: the original (too large to keep in memory) is swapped for a FIFO in a
// tight loop while its mtime keeps changing within the variant's second, so every request
// checks the variant afresh and some checks meet the FIFO.
test('an original swapped for a FIFO while its same-second variant is checked: every request answers', async (ctx) => {
  const skip = swapSkipReason(scratch);
  if (skip) { ctx.skip(skip); return; }
  const big = compressibleText(256 * 1024, 'race');
  const t = await startTestServer({
    bufferLimit: 64 * 1024,
    files: {
      'f/big.js': { content: big, mtime: SECOND + 0.5 },
      'f/big.js.br': { content: zlib.brotliCompressSync(big), mtime: SECOND },
      'ok.txt': 'still served\n',
    },
  });
  const original = path.join(t.root, 'f/big.js');
  const fifo = path.join(t.root, 'fifo');
  execFileSync('mkfifo', [fifo]);
  const handle = await fs.open(original, 'r');
  try {
    const swapper = await startSwapping(original, fifo);
    let touching = true;
    const touches = (async () => {
      for (let i = 1; touching; i++) {
        const mtime = SECOND + 0.5 + (i % 400_000) * 1e-6;
        await handle.utimes(mtime, mtime);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const results = [];
    let swaps;
    try {
      const stopAt = Date.now() + 8000;
      const lane = async (target) => {
        for (let i = 0; i < 60 && Date.now() < stopAt; i++) {
          const res = await t.h2(target, { headers: { 'accept-encoding': 'br' } }).catch((error) => ({ error }));
          results.push(res);
        }
      };
      await Promise.all([...Array.from({ length: 6 }, () => lane('/f/big.js')), lane('/ok.txt')]);
    } finally {
      touching = false;
      await touches;
      swaps = await swapper.stop();
    }
    // A response streamed from the original is reset (INTERNAL_ERROR) when the file changes
    // under it (server/files/file-body.js); a request left waiting is cancelled by the client after
    // its timeout (CANCEL).
    const reset = results.filter((r) => r.error && /NGHTTP2_INTERNAL_ERROR|\(rst 2\)/.test(r.error.message));
    const failed = results.filter((r) => r.error && !reset.includes(r));
    ctx.diagnostic(`${results.length} requests during ${swaps} swaps: ${reset.length} reset mid-stream, ${failed.length} unanswered`);
    assert.ok(swaps > 100, `the swap loop ran (${swaps} swaps)`);
    assert.deepEqual(failed.map((r) => r.error.message), [], 'every request was answered');
    // 404 when the FIFO was met, 503 when the file kept changing under every retry.
    assert.deepEqual(results.filter((r) => !r.error && ![200, 404, 503].includes(r.status)).map((r) => r.status), []);

    // The FIFO left at the original's name: 404, and the server still serves promptly.
    await fs.rename(fifo, `${original}.aside`);
    await fs.rename(original, fifo);
    await fs.rename(`${original}.aside`, original);
    const res = await within(t.h2('/f/big.js', { headers: { 'accept-encoding': 'br' } }), '/f/big.js');
    assert.equal(res.status, 404);
    const ok = await within(t.h1('/ok.txt'), '/ok.txt');
    assert.equal(ok.status, 200);
    assert.equal(ok.body.toString(), 'still served\n');
  } finally {
    await handle.close();
    await releaseFifos([original, fifo]);
    await t.close();
  }
});
