'use strict';
// A coverage-guided fuzzer for JavaScript targets (jazzer.js's prebuilt addon needs glibc 2.38
// and cannot be built here, so this is the project's own). The loop runs in a worker thread
// (fuzz-worker.js) with a bounded heap; this side saves new corpus inputs, and turns a thrown
// error, a failed property, a hang (no execution finishing for HANG_MS) or running out of heap
// into a crash report with the input that caused it, saved for replay.
//
// A target module exports runInput(buffer) -> Promise<null | string (what went wrong)>, and
// optionally close() (the worker's end: what the target set up for all its inputs goes).

const crypto = require('node:crypto');
const fs = require('node:fs/promises');
const path = require('node:path');
const { Worker } = require('node:worker_threads');
const { MAX_INPUT_BYTES } = require('./frame-mutator');

const HANG_MS = 10_000;
const DEFAULT_MUTATOR = path.join(__dirname, 'frame-mutator.js');
const HEAP_LIMIT_MB = 512;

const sha1 = (buf) => crypto.createHash('sha1').update(buf).digest('hex');

// Every file in each of `dirs` (missing directories are skipped), in a stable order.
async function readInputs(dirs) {
  const inputs = [];
  for (const dir of dirs) {
    let names;
    try {
      names = (await fs.readdir(dir)).sort();
    } catch (err) {
      if (err.code === 'ENOENT') continue;
      throw err;
    }
    for (const name of names) inputs.push(await fs.readFile(path.join(dir, name)));
  }
  return inputs;
}

// Runs `targetModule` for `seconds`, guided by the coverage of `covered` (a file or a
// directory), its inputs made by `mutatorModule` (exports mutate(random, input, other)),
// seeded with the files of seedDirs and corpusDir, stopping after maxExecs runs if
// that comes first; new
// inputs are written to corpusDir (named by their SHA-1) if given, a failing one to crashDir.
// Resolves { execs, features, corpus, newInputs, slowestMs (the slowest input's run time),
// failure: null | { kind, message, file } }.
async function fuzz({ targetModule, mutatorModule = DEFAULT_MUTATOR, covered, seconds, maxExecs = Infinity, seedDirs = [], corpusDir = null, crashDir, randomSeed = Date.now() }) {
  const seeds = await readInputs(corpusDir ? [...seedDirs, corpusDir] : seedDirs);
  if (corpusDir) await fs.mkdir(corpusDir, { recursive: true });
  const shared = new SharedArrayBuffer(8 + MAX_INPUT_BYTES);
  const header = new Int32Array(shared, 0, 2);
  const currentInput = () => Buffer.from(new Uint8Array(shared, 8, Atomics.load(header, 0)));
  const worker = new Worker(path.join(__dirname, 'fuzz-worker.js'), {
    workerData: { targetModule, mutatorModule, covered, seeds, deadline: Date.now() + seconds * 1000, maxExecs, randomSeed, shared },
    resourceLimits: { maxOldGenerationSizeMb: HEAP_LIMIT_MB },
    stdout: true,
    stderr: true,
  });
  // The target's own console output is noise while fuzzing; drain it.
  worker.stdout.resume();
  worker.stderr.resume();

  const result = { execs: 0, features: 0, corpus: 0, newInputs: 0, slowestMs: null, failure: null };
  const writes = [];
  const settled = new Promise((resolve) => {
    const fail = (kind, message, input) => {
      if (result.failure === null) result.failure = { kind, message, input };
      worker.terminate();
    };
    let lastExecs = -1;
    let lastProgress = Date.now();
    const watchdog = setInterval(() => {
      const execs = Atomics.load(header, 1);
      if (execs !== lastExecs) {
        lastExecs = execs;
        lastProgress = Date.now();
      } else if (Date.now() - lastProgress > HANG_MS) {
        fail('hang', `no input finished within ${HANG_MS} ms`, currentInput());
      }
    }, 250);
    worker.on('message', (m) => {
      if (m.type === 'new') {
        result.newInputs++;
        result.features = m.features;
        if (corpusDir) writes.push(fs.writeFile(path.join(corpusDir, sha1(m.input)), m.input));
      } else if (m.type === 'seeded' || m.type === 'done') {
        result.features = m.features;
        result.corpus = m.corpus;
        if (m.type === 'done') result.slowestMs = m.slowestMs;
        // Timers or sockets the target left behind must not keep the worker alive.
        if (m.type === 'done') worker.terminate();
      } else if (m.type === 'failure') {
        fail('failure', m.message, Buffer.from(m.input));
      }
    });
    worker.on('error', (err) => {
      const kind = err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'out of memory' : 'crash';
      fail(kind, err.stack || String(err), currentInput());
    });
    worker.on('exit', () => {
      clearInterval(watchdog);
      result.execs = Atomics.load(header, 1);
      resolve();
    });
  });
  await settled;
  await Promise.all(writes);
  if (result.failure) {
    await fs.mkdir(crashDir, { recursive: true });
    const file = path.join(crashDir, `${path.basename(targetModule, '.js')}-${sha1(result.failure.input)}`);
    await fs.writeFile(file, result.failure.input);
    result.failure = { kind: result.failure.kind, message: result.failure.message, file };
  }
  if (result.corpus === 0) result.corpus = seeds.length + result.newInputs;
  return result;
}

module.exports = { fuzz, readInputs };
