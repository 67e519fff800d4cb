'use strict';
// The file system changed between the server's check and its open, by an attacker who can
// write inside the root: a directory swapped for a symlink to a directory outside the root,
// and a regular file (or its precompressed variant) swapped for a FIFO. The swaps are atomic
// renameat2(RENAME_EXCHANGE) in a tight loop (test/helpers/rename-exchange.py) while
// hundreds of requests run over a real HTTP/2 connection.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const fsSync = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { execFileSync } = require('node:child_process');
const { forEachEngine, startTestServer, makeTempDir, compressibleText } = require('../helpers/server');
const { releaseFifos } = require('../helpers/fifos');
const { decode } = require('../helpers/clients');
const { swapSkipReason, startSwapping } = require('../helpers/swapper');
const { openInRoot, PROC_FD } = require('../../server/files/open-in-root');

const REQUESTS = 400;
const PARALLEL = 8;
const PROMPT_MS = 5000;
// Stop starting requests after this long, so a server that hangs fails the test in bounded time.
const RACE_MS = 15_000;
const ACCEPT = ['identity', 'br', 'gzip'];

let scratch;
let skip;

before(async () => {
  scratch = await makeTempDir('negotiate-race-');
  skip = swapSkipReason(scratch);
});

after(() => fs.rm(scratch, { recursive: true, force: true }));

// Runs `count` GETs (fewer if RACE_MS runs out), `parallel` at a time; resolves every outcome
// ({ status, body } decoded, or { error }).
async function hammer(t, targets, count, parallel = PARALLEL) {
  const results = [];
  let next = 0;
  const stopAt = Date.now() + RACE_MS;
  const lane = async () => {
    while (next < count && Date.now() < stopAt) {
      const i = next++;
      const headers = { 'accept-encoding': ACCEPT[i % ACCEPT.length] };
      try {
        const res = await t.h2(targets[i % targets.length], { headers });
        results.push({ status: res.status, body: await decode(res.headers['content-encoding'], res.body) });
      } catch (error) {
        results.push({ error });
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  return results;
}

forEachEngine((engine) => {
  test('a directory swapped for a symlink to outside the root never serves outside bytes', async (ctx) => {
    if (skip) { ctx.skip(skip); return; }
    const inside = compressibleText(3000, 'inside');
    const insideBig = compressibleText(96 * 1024, 'inside-big');
    // One per engine: scratch is shared by the whole file.
    const outsideDir = await fs.mkdtemp(path.join(scratch, 'outside-'));
    const marker = 'OUTSIDE-THE-ROOT-SECRET';
    const outside = compressibleText(3000, marker);
    await fs.writeFile(path.join(outsideDir, 'passwd'), outside);
    await fs.writeFile(path.join(outsideDir, 'passwd.br'), zlib.brotliCompressSync(outside));
    await fs.writeFile(path.join(outsideDir, 'big.txt'), compressibleText(96 * 1024, marker));
    const t = await startTestServer({
      engine,
      // 64 KiB: big.txt is streamed from an fd re-opened per response, passwd served from memory.
      bufferLimit: 64 * 1024,
      files: {
        'race/passwd': inside,
        'race/passwd.br': zlib.brotliCompressSync(inside),
        'race/big.txt': insideBig,
        'ok.txt': 'ok\n',
      },
    });
    try {
      await fs.symlink(outsideDir, path.join(t.root, 'swap'));
      const swapper = await startSwapping(path.join(t.root, 'race'), path.join(t.root, 'swap'));
      let results;
      let swaps;
      try {
        results = await hammer(t, ['/race/passwd', '/race/big.txt'], REQUESTS);
      } finally {
        swaps = await swapper.stop();
      }
      const leaked = results.filter((r) => r.body && r.body.includes(marker));
      const served = results.filter((r) => r.status === 200);
      const failed = results.filter((r) => r.error);
      ctx.diagnostic(`${results.length} requests during ${swaps} swaps: ${served.length} served, ${leaked.length} with outside bytes, ${failed.length} aborted`);
      assert.equal(results.length, REQUESTS);
      assert.ok(swaps > 100, `the swap loop ran (${swaps} swaps)`);
      assert.equal(leaked.length, 0, `${leaked.length} of ${results.length} responses carried bytes from outside the root`);
      for (const r of results) {
        if (r.error) continue;
        // 404 when the check saw the symlink, 503 when the file kept changing under every retry.
        assert.ok([200, 404, 503].includes(r.status), `status ${r.status}`);
        if (r.status === 200) assert.ok(r.body.equals(Buffer.from(inside)) || r.body.equals(Buffer.from(insideBig)), 'a whole inside file');
      }
      assert.ok(served.length > 0, 'some requests were served while the tree was in place');
      // After the race the file is served normally.
      const res = await t.h2('/race/passwd');
      assert.equal(res.status, 200);
      assert.equal(res.body.toString(), inside);
    } finally {
      await t.close();
    }
  });
});

// Both proofs, without a race: what each accepts and refuses.
for (const verify of ['proc', 'realpath']) {
  test(`openInRoot (${verify}): regular files and directories inside the root, nothing else`, async (ctx) => {
    if (verify === 'proc' && !PROC_FD) { ctx.skip('/proc/self/fd is not available'); return; }
    const dir = await fs.realpath(await fs.mkdtemp(path.join(scratch, `${verify}-`)));
    const root = path.join(dir, 'root');
    await fs.mkdir(path.join(root, 'sub'), { recursive: true });
    await fs.writeFile(path.join(root, 'sub', 'f'), 'inside');
    await fs.writeFile(path.join(dir, 'secret'), 'outside');
    await fs.symlink('f', path.join(root, 'sub', 'link'));
    await fs.symlink(path.join(dir, 'secret'), path.join(root, 'out'));
    await fs.symlink(dir, path.join(root, 'updir'));
    execFileSync('mkfifo', [path.join(root, 'fifo')]);
    const cases = [
      ['sub/f', {}, path.join(root, 'sub', 'f')],
      ['sub/link', {}, path.join(root, 'sub', 'f')],
      ['sub', {}, path.join(root, 'sub')],
      ['sub/link', { exact: true }, 404],
      ['out', {}, 404],
      ['updir/secret', {}, 404],
      ['fifo', {}, 404],
      ['missing', {}, 404],
    ];
    for (const [rel, options, expected] of cases) {
      const outcome = await openInRoot(root, path.join(root, rel), { ...options, verify }).then(
        ({ fd, real }) => { fsSync.closeSync(fd); return real; },
        (err) => err.status);
      assert.equal(outcome, expected, rel);
    }
  });
}

// The proof by /proc/self/fd alone (the realpath fallback, for systems without it, narrows the
// window but does not close it; see server/files/open-in-root.js).
test('openInRoot never yields a file outside the root while a directory is swapped', async (ctx) => {
  if (skip) { ctx.skip(skip); return; }
  if (!PROC_FD) { ctx.skip('/proc/self/fd is not available'); return; }
  const dir = await fs.realpath(await fs.mkdtemp(path.join(scratch, 'open-')));
  const root = path.join(dir, 'root');
  await fs.mkdir(path.join(root, 'race'), { recursive: true });
  await fs.mkdir(path.join(dir, 'outside'));
  await fs.writeFile(path.join(root, 'race', 'f'), 'inside');
  await fs.writeFile(path.join(dir, 'outside', 'f'), 'outside');
  await fs.symlink(path.join(dir, 'outside'), path.join(root, 'swap'));
  const swapper = await startSwapping(path.join(root, 'race'), path.join(root, 'swap'));
  const seen = { inside: 0, outside: 0, refused: 0 };
  let swaps;
  try {
    for (let i = 0; i < 2000; i++) {
      try {
        const { fd } = await openInRoot(root, path.join(root, 'race', 'f'));
        try {
          seen[fsSync.readFileSync(fd, 'latin1')]++;
        } finally {
          fsSync.closeSync(fd);
        }
      } catch (err) {
        assert.equal(err.status, 404, err.stack);
        seen.refused++;
      }
    }
  } finally {
    swaps = await swapper.stop();
  }
  ctx.diagnostic(`2000 opens during ${swaps} swaps: ${JSON.stringify(seen)}`);
  assert.equal(seen.outside, 0);
  assert.ok(seen.inside > 0 && seen.refused > 0, 'both states of the tree were met');
});

forEachEngine((engine) => {
  test('files and variants swapped for FIFOs get 404 and never stall the server', async (ctx) => {
    if (skip) { ctx.skip(skip); return; }
    const text = compressibleText(3000, 'fifo');
    const t = await startTestServer({
      engine,
      files: { 'f/x.js': text, 'f/x.js.br': zlib.brotliCompressSync(text), 'ok.txt': 'still served\n' },
    });
    const fifos = ['fifo-file', 'fifo-variant', 'f/pipe.js', 'f/x.js.gz'].map((name) => path.join(t.root, name));
    try {
      for (const fifo of fifos) execFileSync('mkfifo', [fifo]);
      const swappers = await Promise.all([
        startSwapping(path.join(t.root, 'f/x.js'), fifos[0]),
        startSwapping(path.join(t.root, 'f/x.js.br'), fifos[1]),
      ]);
      let results;
      let swaps;
      try {
        results = await hammer(t, ['/f/x.js', '/f/x.js.br', '/f/pipe.js', '/f/x.js.gz'], REQUESTS, 16);
      } finally {
        swaps = await Promise.all(swappers.map((s) => s.stop()));
      }
      const timedOut = results.filter((r) => r.error);
      ctx.diagnostic(`${results.length} requests during ${swaps.join(' + ')} swaps: ${timedOut.length} failed`);
      assert.ok(swaps.every((n) => n > 100), `the swap loops ran (${swaps})`);
      assert.deepEqual(timedOut.map((r) => r.error.message), [], 'every request during the race was answered');
      // 404 when a FIFO was met, 503 when the file kept changing under every retry.
      assert.deepEqual(results.filter((r) => ![200, 404, 503].includes(r.status)).map((r) => r.status), []);

      // After the race: ordinary files promptly, FIFOs 404.
      const deadline = AbortSignal.timeout(PROMPT_MS);
      const within = (p) => Promise.race([p, new Promise((_, reject) => deadline.addEventListener('abort', () => reject(new Error(`no answer within ${PROMPT_MS} ms`))))]);
      const ok = await within(t.h1('/ok.txt'));
      assert.equal(ok.status, 200);
      assert.equal(ok.body.toString(), 'still served\n');
      const file = await within(t.h2('/f/x.js', { headers: { 'accept-encoding': 'br' } }));
      assert.equal(file.status, 200);
      assert.equal((await decode(file.headers['content-encoding'], file.body)).toString(), text);
      for (const target of ['/f/pipe.js', '/fifo-file', '/f/x.js.gz']) {
        const res = await within(t.h2(target));
        assert.equal(res.status, 404, target);
      }
    } finally {
      await releaseFifos(fifos);
      await t.close();
    }
  });
});
