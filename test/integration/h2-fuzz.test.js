'use strict';
// The native engine's frame reader and connection under coverage-guided fuzzing for a bounded
// time, seeded with byte streams captured from h2spec and real clients (test/fixtures/h2-frames).
// The first test checks the fuzzer itself finds a known bug, so a quiet run means something;
// the second replays inputs it once failed on (test/fixtures/h2-fuzz-regressions/).
// Longer runs: npm run fuzz -- --target h2-connection --seconds 300.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const path = require('node:path');
const { fuzz } = require('../fuzz/fuzzer');
const { shortRun } = require('../fuzz/short-run');
const { JS_TARGETS } = require('../fuzz/targets');
const { makeTempDir } = require('../helpers/server');
const { PREFACE, settings } = require('../helpers/h2-frames');

const SECONDS = 12;

test('the fuzzer finds a planted bug and saves the input that triggers it', { timeout: 180_000 }, async (t) => {
  const dir = await makeTempDir('negotiate-fuzz-self-');
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  // A preface and SETTINGS; the bug needs three more frames of given types, in order.
  const seeds = path.join(dir, 'seeds');
  await fs.mkdir(seeds);
  await fs.writeFile(path.join(seeds, 'preface'), Buffer.concat([PREFACE, settings()]));
  const targetModule = path.join(__dirname, '..', 'fuzz', 'selftest-target.js');
  const r = await fuzz({
    targetModule,
    covered: targetModule,
    // Bounded by executions, not time, so the outcome does not depend on the machine's load:
    // with this random seed the bug is reached after about 6000.
    seconds: 120,
    maxExecs: 30_000,
    seedDirs: [seeds],
    crashDir: path.join(dir, 'crashes'),
    randomSeed: 1,
  });
  assert.ok(r.failure, `no failure found in ${r.execs} executions`);
  assert.equal(r.failure.kind, 'failure');
  assert.match(r.failure.message, /^threw: Error: planted bug reached/);
  // The saved input replays the same failure.
  const { runInput } = require(targetModule);
  await assert.rejects(runInput(await fs.readFile(r.failure.file)), /planted bug reached/);
  t.diagnostic(`found after ${r.execs} executions`);
});

test('inputs fuzzing once failed on pass the native engine\'s checks', async () => {
  const target = JS_TARGETS['h2-connection'];
  const { runInput } = require(target.targetModule);
  const failures = [];
  for (const name of (await fs.readdir(target.regressionDir)).sort()) {
    const outcome = await runInput(await fs.readFile(path.join(target.regressionDir, name)));
    if (outcome !== null) failures.push(`${name}: ${outcome}`);
  }
  assert.deepEqual(failures, []);
});

test(`the native engine's connection: ${SECONDS} s of coverage-guided fuzzing without a failure`, { timeout: 120_000 }, (t) => shortRun(t, 'h2-connection', SECONDS));
