'use strict';
// The short fuzz run `npm test` makes of a JS target (h2-fuzz.test.js, h3-fuzz.test.js): a fixed
// random seed, so the run explores the same inputs each time (as far as the machine's speed lets
// it in `seconds`); npm run fuzz draws a new seed per run to explore further. Fails the test with
// the saved input's replay command when the target fails.

const assert = require('node:assert/strict');
const path = require('node:path');
const { fuzz, readInputs } = require('./fuzzer');
const { JS_TARGETS } = require('./targets');
const { CRASH_DIR } = require('../../native/fuzz/fuzzer');

const REPO_ROOT = path.resolve(__dirname, '..', '..');

async function shortRun(t, name, seconds) {
  const target = JS_TARGETS[name];
  const seeds = (await readInputs(target.seedDirs)).length;
  assert.ok(seeds > 0, `no seeds in ${target.seedDirs.join(', ')}`);
  const randomSeed = 1;
  const r = await fuzz({ ...target, seconds, crashDir: CRASH_DIR, randomSeed });
  t.diagnostic(`${r.execs} executions (random seed ${randomSeed}), ${r.features} coverage features, corpus ${seeds} -> ${r.corpus}`
    + (r.slowestMs === null ? '' : `, slowest input ${r.slowestMs} ms`));
  if (r.failure) {
    const file = path.relative(REPO_ROOT, r.failure.file);
    assert.fail(`${r.failure.kind}: ${r.failure.message}\ninput saved: ${file}; replay: node test/fuzz/replay.js --target ${name} ${file}`);
  }
  assert.ok(r.execs > seeds, `only ${r.execs} executions for ${seeds} seeds`);
  assert.ok(r.features > 0, 'no coverage recorded: the coverage filter matches no engine file');
}

module.exports = { shortRun };
