'use strict';
// Each libFuzzer target of the HPACK core (native/fuzz) runs for a short,
// bounded time from the seed corpus and must not crash. Longer runs:
// `npm run fuzz -- --seconds 300` (figures in docs/reliability.md).

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const path = require('node:path');
const { TARGETS, skipReason, build, runTarget } = require('../../native/fuzz/fuzzer');
const { buildCorpus } = require('../../native/fuzz/corpus');
const { makeTempDir, SHARED_DIR } = require('../helpers/server');

const SECONDS_PER_TARGET = 12;

let skip = null;
let tmp = null;

before(async () => {
  skip = await skipReason();
  if (skip) return;
  tmp = await makeTempDir('negotiate-fuzz-');
  await build();
});

after(async () => {
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

for (const target of TARGETS) {
  test(`fuzz target ${target}: ${SECONDS_PER_TARGET} s without a crash`, { timeout: 180_000 }, async (t) => {
    if (skip) return t.skip(skip);
    const corpusDir = path.join(tmp, target);
    try {
      await buildCorpus(target, corpusDir, { sharedDir: SHARED_DIR });
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
      t.diagnostic(`no seed corpus: ${SHARED_DIR} is absent`);
    }
    const r = await runTarget(target, { seconds: SECONDS_PER_TARGET, corpusDir });
    t.diagnostic(`${r.execs} executions`);
    assert.equal(r.crashed, false, `fuzz_${target} crashed; inputs: ${r.crashFiles.join(', ')}\n${r.output.slice(-4000)}`);
    assert.ok(r.execs > 0, `fuzz_${target} executed nothing:\n${r.output.slice(-2000)}`);
  });
}
