'use strict';
// Builds the libFuzzer targets (Makefile beside this file) and runs one for a
// bounded time, reporting executions and any crash. Shared by run.js (`npm run
// fuzz`) and test/integration/fuzz.test.js.

const { spawn } = require('node:child_process');
const fs = require('node:fs/promises');
const path = require('node:path');

const FUZZ_DIR = __dirname;
const TARGETS = ['decoder', 'huffman', 'roundtrip', 'qpack_decoder', 'qpack_roundtrip', 'qpack_encoder_stream'];
// Git-ignored (native/fuzz/build/), and outside any temporary corpus, so a
// crash found by `npm test` can still be replayed after the test cleans up.
const CRASH_DIR = path.join(FUZZ_DIR, 'build', 'crashes');
// One input running this long is a hang, reported like a crash.
const INPUT_TIMEOUT_S = 10;
// libFuzzer stops itself at -max_total_time; this is the backstop if it cannot.
const KILL_GRACE_MS = 60_000;

function run(cmd, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let output = '';
    const keep = (chunk) => { output = (output + chunk).slice(-64 * 1024); };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = options.killAfterMs ? setTimeout(() => child.kill('SIGKILL'), options.killAfterMs) : null;
    child.on('error', (err) => { clearTimeout(timer); resolve({ code: null, output: String(err) }); });
    child.on('close', (code, signal) => { clearTimeout(timer); resolve({ code, signal, output }); });
  });
}

// null when clang and its libFuzzer runtime are installed, else why they cannot be used.
async function skipReason() {
  const dir = await run('clang', ['--print-runtime-dir']);
  if (dir.code !== 0) return 'clang is not installed (bash scripts/system-deps.sh install)';
  const runtime = path.join(dir.output.trim(), 'libclang_rt.fuzzer-x86_64.a');
  try {
    await fs.access(runtime);
    return null;
  } catch {
    return `clang's libFuzzer runtime is missing (${runtime}; apt-get install libclang-rt-dev)`;
  }
}

// Builds every target (incrementally); rejects with the compiler output on failure.
async function build() {
  const result = await run('make', ['-C', FUZZ_DIR, '--no-print-directory', '-j2']);
  if (result.code !== 0) throw new Error(`building the fuzz targets failed:\n${result.output}`);
}

// Runs target for `seconds` over corpusDir (read for seeds, grown with new
// coverage). Resolves { target, seconds, execs, edges, corpus, crashed, crashFiles, output };
// edges (coverage counters hit) and corpus (inputs kept) are null if libFuzzer stopped early.
async function runTarget(target, { seconds, corpusDir }) {
  if (!TARGETS.includes(target)) throw new Error(`unknown fuzz target "${target}" (one of ${TARGETS.join(', ')})`);
  await fs.mkdir(CRASH_DIR, { recursive: true });
  const args = [
    `-max_total_time=${seconds}`,
    `-timeout=${INPUT_TIMEOUT_S}`,
    `-artifact_prefix=${path.join(CRASH_DIR, target)}-`,
    '-print_final_stats=1',
    corpusDir,
  ];
  const result = await run(path.join(FUZZ_DIR, 'build', `fuzz_${target}`), args, { killAfterMs: seconds * 1000 + KILL_GRACE_MS });
  const execs = Number(/stat::number_of_executed_units:\s*(\d+)/.exec(result.output)?.[1] ?? NaN);
  const crashFiles = [...result.output.matchAll(/Test unit written to (\S+)/g)].map((m) => m[1]);
  const done = /DONE\s+cov: (\d+) ft: \d+ corp: (\d+)/.exec(result.output);
  return {
    target,
    seconds,
    execs,
    edges: done ? Number(done[1]) : null,
    corpus: done ? Number(done[2]) : null,
    crashed: result.code !== 0 || crashFiles.length > 0,
    crashFiles,
    output: result.output,
  };
}

module.exports = { TARGETS, CRASH_DIR, skipReason, build, runTarget };
