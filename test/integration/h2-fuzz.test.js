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
const { fuzz, readInputs } = require('../fuzz/fuzzer');
const { JS_TARGETS } = require('../fuzz/targets');
const { CRASH_DIR } = require('../../native/fuzz/fuzzer');
const { makeTempDir, REPO_ROOT } = require('../helpers/server');
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

test(`the native engine's connection: ${SECONDS} s of coverage-guided fuzzing without a failure`, { timeout: 120_000 }, async (t) => {
  const target = JS_TARGETS['h2-connection'];
  const seeds = (await readInputs(target.seedDirs)).length;
  assert.ok(seeds > 0, `no seeds in ${target.seedDirs.join(', ')}`);
  // A fixed seed, so this run explores the same inputs each time (as far as the machine's speed
  // lets it in SECONDS); npm run fuzz draws a new seed per run to explore further.
  const randomSeed = 1;
  const r = await fuzz({ ...target, seconds: SECONDS, crashDir: CRASH_DIR, randomSeed });
  t.diagnostic(`${r.execs} executions (random seed ${randomSeed}), ${r.features} coverage features, corpus ${seeds} -> ${r.corpus}`
    + (r.slowestMs === null ? '' : `, slowest input ${r.slowestMs} ms`));
  if (r.failure) {
    const file = path.relative(REPO_ROOT, r.failure.file);
    assert.fail(`${r.failure.kind}: ${r.failure.message}\ninput saved: ${file}; replay: node test/fuzz/replay.js ${file}`);
  }
  assert.ok(r.execs > seeds, `only ${r.execs} executions for ${seeds} seeds`);
  assert.ok(r.features > 0, 'no coverage recorded: the coverage filter matches no engine file');
});
