'use strict';
// npm run fuzz -- [--seconds N] [--target NAME]...
// Builds the libFuzzer targets, seeds native/fuzz/corpus-<target>/ (kept between
// runs, git-ignored) from RFC 7541 and ../shared/hpack-test-case, runs each target
// for N seconds, and exits non-zero if any crashed (inputs kept in build/crashes/).

const path = require('node:path');
const { parseArgs } = require('node:util');
const { TARGETS, skipReason, build, runTarget } = require('./fuzzer');
const { buildCorpus } = require('./corpus');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const SHARED_DIR = path.resolve(REPO_ROOT, '..', 'shared');

function usage(message) {
  console.error(`${message}\nusage: npm run fuzz -- [--seconds N] [--target ${TARGETS.join('|')}]...`);
  process.exit(2);
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
  const targets = values.target ?? TARGETS;
  for (const t of targets) if (!TARGETS.includes(t)) usage(`--target: unknown target "${t}"`);

  const reason = await skipReason();
  if (reason) {
    console.error(`fuzz: cannot run: ${reason}`);
    process.exit(2);
  }
  await build();
  let crashed = false;
  for (const target of targets) {
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
