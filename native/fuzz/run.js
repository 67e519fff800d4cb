'use strict';
// npm run fuzz -- [--seconds N] [--target NAME]...
// Builds the libFuzzer targets, seeds native/fuzz/corpus-<target>/ (kept between
// runs, git-ignored) from RFC 7541 and ../shared/hpack-test-case, runs each target
// for N seconds, and exits non-zero if any crashed (inputs kept in build/crashes/).
// The JavaScript targets (test/fuzz/targets.js: the native HTTP/2 engine) run the same
// way through the project's coverage-guided JS fuzzer, seeded from test/fixtures/.

const path = require('node:path');
const { parseArgs } = require('node:util');
const { TARGETS, CRASH_DIR, skipReason, build, runTarget } = require('./fuzzer');
const { buildCorpus } = require('./corpus');
const { fuzz: fuzzJs } = require('../../test/fuzz/fuzzer');
const { JS_TARGETS } = require('../../test/fuzz/targets');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const SHARED_DIR = path.resolve(REPO_ROOT, '..', 'shared');

const ALL_TARGETS = [...TARGETS, ...Object.keys(JS_TARGETS)];

function usage(message) {
  console.error(`${message}\nusage: npm run fuzz -- [--seconds N] [--target ${ALL_TARGETS.join('|')}]...`);
  process.exit(2);
}

// Resolves whether it failed.
async function runJsTarget(target, seconds) {
  const corpusDir = path.join(__dirname, `corpus-${target}`);
  const randomSeed = Date.now() >>> 0;
  const r = await fuzzJs({ ...JS_TARGETS[target], seconds, corpusDir, crashDir: CRASH_DIR, randomSeed });
  console.log(`fuzz ${target}: ${r.execs} executions in ${seconds} s (random seed ${randomSeed}), ${r.features} coverage features, `
    + `${r.corpus} corpus inputs (${r.newInputs} new, in ${path.relative(REPO_ROOT, corpusDir)}), ${r.failure ? r.failure.kind.toUpperCase() : 'no failure'}`);
  if (r.failure) {
    console.log(r.failure.message);
    const file = path.relative(REPO_ROOT, r.failure.file);
    console.log(`fuzz ${target}: input saved: ${file} (replay: node test/fuzz/replay.js --target ${target} ${file})`);
  }
  return r.failure !== null;
}

async function main() {
  let values;
  try {
    ({ values } = parseArgs({ options: { seconds: { type: 'string', default: '60' }, target: { type: 'string', multiple: true } } }));
  } catch (err) {
    usage(err.message);
  }
  const seconds = Number(values.seconds);
  if (!Number.isInteger(seconds) || seconds < 1) usage(`--seconds: expected a positive integer, got "${values.seconds}"`);
  const targets = values.target ?? ALL_TARGETS;
  for (const t of targets) if (!ALL_TARGETS.includes(t)) usage(`--target: unknown target "${t}"`);

  let crashed = false;
  for (const target of targets.filter((t) => JS_TARGETS[t])) crashed = (await runJsTarget(target, seconds)) || crashed;
  const nativeTargets = targets.filter((t) => TARGETS.includes(t));
  if (nativeTargets.length === 0) process.exit(crashed ? 1 : 0);

  const reason = await skipReason();
  if (reason) {
    console.error(`fuzz: cannot run: ${reason}`);
    process.exit(2);
  }
  await build();
  for (const target of nativeTargets) {
    const corpusDir = path.join(__dirname, `corpus-${target}`);
    try {
      const seeds = await buildCorpus(target, corpusDir, { sharedDir: SHARED_DIR });
      console.log(`fuzz ${target}: ${seeds} seeds in ${path.relative(REPO_ROOT, corpusDir)}`);
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
      console.log(`fuzz ${target}: no seeds (${SHARED_DIR} is absent), starting from libFuzzer's own inputs`);
    }
    const r = await runTarget(target, { seconds, corpusDir });
    crashed ||= r.crashed;
    console.log(`fuzz ${target}: ${r.execs} executions in ${seconds} s, ${r.edges} coverage edges, ${r.corpus} corpus inputs, ${r.crashed ? 'CRASH' : 'no crash'}`);
    if (r.crashed) {
      console.log(r.output.split('\n').slice(-40).join('\n'));
      for (const file of r.crashFiles) console.log(`fuzz ${target}: crash input saved: ${path.relative(REPO_ROOT, file)}`);
    }
  }
  process.exit(crashed ? 1 : 0);
}

main().catch((err) => {
  console.error(`fuzz: ${err.stack || err}`);
  process.exit(1);
});
