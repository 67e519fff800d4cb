'use strict';
// The fuzz loop, run in a worker thread by fuzzer.js: replays the seeds, then mutates corpus
// inputs until the deadline, keeping each mutant that covers something new. Before each run
// the input is copied into shared memory, so the main thread can still name it if this thread
// hangs, crashes or runs out of memory.

const path = require('node:path');
const { workerData, parentPort } = require('node:worker_threads');
const { CoverageTracker } = require('./coverage');
const { createRandom } = require('./random');
const { MAX_INPUT_BYTES } = require('./frame-mutator');

const { targetModule, mutatorModule, covered, seeds, deadline, maxExecs, randomSeed, shared } = workerData;
const { mutate } = require(mutatorModule);
// shared: Int32 [0] input length, [1] executions so far; bytes from offset 8.
const header = new Int32Array(shared, 0, 2);
const current = new Uint8Array(shared, 8, MAX_INPUT_BYTES);

function expose(input) {
  current.set(input);
  Atomics.store(header, 0, input.length);
}

async function main() {
  const target = require(targetModule);
  // covered: the file or directory whose code guides the search.
  const coverage = new CoverageTracker((url) => {
    if (!url.startsWith('file://')) return false;
    const file = url.slice('file://'.length);
    return file === covered || file.startsWith(covered + path.sep);
  });
  const random = createRandom(randomSeed);
  const corpus = [];
  let slowestMs = 0;

  // Runs one input; resolves how many features it added, or posts the failure and resolves -1.
  async function execute(input) {
    expose(input);
    const started = performance.now();
    let failure;
    try {
      failure = await target.runInput(input);
    } catch (err) {
      failure = `threw: ${err.stack || err}`;
    }
    slowestMs = Math.max(slowestMs, performance.now() - started);
    Atomics.add(header, 1, 1);
    const added = coverage.collect();
    if (failure) {
      parentPort.postMessage({ type: 'failure', message: failure, input });
      return -1;
    }
    return added;
  }

  for (const seed of seeds) {
    const input = Buffer.from(seed).subarray(0, MAX_INPUT_BYTES);
    const added = await execute(input);
    if (added < 0) return;
    corpus.push(input);
  }
  if (corpus.length === 0) corpus.push(Buffer.alloc(0));
  parentPort.postMessage({ type: 'seeded', corpus: corpus.length, features: coverage.features });

  for (let n = seeds.length; n < maxExecs && Date.now() < deadline; n++) {
    const input = mutate(random, random.pick(corpus), random.pick(corpus));
    const added = await execute(input);
    if (added < 0) return;
    if (added > 0) {
      corpus.push(input);
      parentPort.postMessage({ type: 'new', input, features: coverage.features });
    }
  }
  coverage.stop();
  await target.close?.();
  parentPort.postMessage({ type: 'done', corpus: corpus.length, features: coverage.features, slowestMs: Math.round(slowestMs) });
}

main().catch((err) => parentPort.postMessage({ type: 'failure', message: `harness: ${err.stack || err}`, input: Buffer.alloc(0) }));
