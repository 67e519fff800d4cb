'use strict';
// The HTTP/3 engine (server/engines/h3) under coverage-guided fuzzing for a bounded time, over
// the in-memory QUIC of test/helpers/fake-quic.js and the real core: inputs are a client's
// streams (format: test/fuzz/h3-input.js), seeded with the valid exchanges of
// test/fixtures/h3-streams (aioquic captured by test/fuzz/h3-capture-seeds.js, and
// test/fuzz/h3-seeds.js), mutated by test/fuzz/h3-mutator.js.
// The fuzzer itself is checked by h2-fuzz.test.js (a planted bug it must find).
// Longer runs: npm run fuzz -- --target h3-connection --seconds 300.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const path = require('node:path');
const { JS_TARGETS } = require('../fuzz/targets');
const { shortRun } = require('../fuzz/short-run');

const SECONDS = 20;
const target = JS_TARGETS['h3-connection'];

test('the seeds and the inputs fuzzing once failed on pass the HTTP/3 engine\'s checks', async () => {
  const { runInput, close } = require(target.targetModule);
  const failures = [];
  for (const dir of target.seedDirs) {
    let names = [];
    try {
      names = (await fs.readdir(dir)).sort();
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
    }
    for (const name of names) {
      const outcome = await runInput(await fs.readFile(path.join(dir, name)));
      if (outcome !== null) failures.push(`${path.basename(dir)}/${name}: ${outcome}`);
    }
  }
  await close();
  assert.deepEqual(failures, []);
});

test(`the HTTP/3 engine: ${SECONDS} s of coverage-guided fuzzing without a failure`, { timeout: 120_000 }, (t) => shortRun(t, 'h3-connection', SECONDS));
