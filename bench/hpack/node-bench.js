'use strict';
// The Node-side benchmark, run by run.js as a pinned child process: the same
// workloads as the C binary through the project's addon and through hpack.js.
// Prints one JSON object per line, in the C binary's shape.
//
//   node bench/hpack/node-bench.js [--seconds S] [--runs N] [--filter SUBSTR]
const path = require('node:path');
const assert = require('node:assert/strict');
const { parseArgs } = require('node:util');
const { loadWorkloads } = require('./workloads');
const { plainBytes } = require('./corpus');
const { nativeAdapter, hpackjsAdapter } = require('./node-codecs');
const { measure, consume } = require('./node-timing');

const REPO_ROOT = path.resolve(__dirname, '..', '..');

function huffmanJobs(adapters, workload, reference) {
  const plain = workload.strings.map((b) => b.toString('latin1'));
  // The reference code comes from the addon; hpack.js must agree byte for byte.
  const coded = plain.map((s) => reference.huffmanEncode(s));
  const codedBytes = coded.reduce((n, b) => n + b.length, 0);
  const plainBytes = plain.reduce((n, s) => n + s.length, 0);
  const jobs = [];
  for (const a of adapters) {
    const inputs = coded.map((c) => a.huffmanInput(c));
    plain.forEach((s, i) => {
      assert.equal(a.huffmanDecode(inputs[i]), s, `${a.impl} Huffman decode of ${workload.name} string ${i}`);
      assert.deepEqual(a.huffmanEncode(s), inputs[i], `${a.impl} Huffman encode of ${workload.name} string ${i}`);
    });
    const base = { workload: workload.name, impl: a.impl, calls: plain.length };
    jobs.push({
      ...base,
      group: 'huffman-decode',
      bytes: codedBytes,
      iteration() {
        for (const input of inputs) consume(a.huffmanDecode(input).length);
      },
    });
    jobs.push({
      ...base,
      group: 'huffman-encode',
      bytes: plainBytes,
      iteration() {
        for (const s of plain) consume(a.huffmanEncode(s).length);
      },
    });
  }
  return jobs;
}

const countCases = (stories) => stories.reduce((n, s) => n + s.cases.length, 0);
const countPlain = (stories) => stories.reduce((n, s) => n + s.cases.reduce((m, c) => m + plainBytes(c.headers), 0), 0);

function decodeJob(a, workload) {
  const { stories } = workload;
  for (const story of stories) {
    const dec = a.newDecoder();
    story.cases.forEach((c, i) => assert.deepEqual(dec.decode(c.wire), c.headers, `${a.impl} decode of ${story.name} case ${i}`));
  }
  return {
    group: 'decode',
    workload: workload.name,
    impl: a.impl,
    calls: countCases(stories),
    bytes: countPlain(stories),
    iteration() {
      for (const story of stories) {
        const dec = a.newDecoder();
        for (const c of story.cases) consume(dec.decode(c.wire).length);
      }
    },
  };
}

// Encodes everything once, checks each block with the other implementation's
// decoder, and returns the job with the encoder's compression ratio.
function encodeJob(a, checker, workload) {
  const inputs = workload.stories.map((story) => story.cases.map((c) => a.headerInput(c.headers)));
  let wire = 0;
  workload.stories.forEach((story, s) => {
    const enc = a.newEncoder();
    const dec = checker.newDecoder();
    story.cases.forEach((c, i) => {
      const out = enc.encode(inputs[s][i]);
      wire += out.length;
      assert.deepEqual(dec.decode(out), c.headers, `${checker.impl} decode of ${a.impl}'s encoding of ${story.name} case ${i}`);
    });
  });
  const plain = countPlain(workload.stories);
  return {
    ratio: { workload: workload.name, impl: a.impl, blocks: countCases(workload.stories), wire, plain },
    job: {
      group: 'encode',
      workload: workload.name,
      impl: a.impl,
      calls: countCases(workload.stories),
      bytes: plain,
      iteration() {
        workload.stories.forEach((story, s) => {
          const enc = a.newEncoder();
          for (const input of inputs[s]) consume(enc.encode(input).length);
        });
      },
    },
  };
}

async function main() {
  const { values } = parseArgs({
    options: { seconds: { type: 'string', default: '0.3' }, runs: { type: 'string', default: '5' }, filter: { type: 'string' } },
  });
  const opts = { seconds: Number(values.seconds), runs: Number(values.runs) };
  if (!(opts.seconds > 0) || !(opts.runs >= 1)) throw new Error('--seconds and --runs need positive numbers');
  const selected = (job) => !values.filter || `${job.group}/${job.workload}/${job.impl}`.includes(values.filter);
  const print = (obj) => process.stdout.write(`${JSON.stringify(obj)}\n`);

  const workloads = await loadWorkloads(REPO_ROOT);
  const native = nativeAdapter();
  const adapters = [native, hpackjsAdapter()];
  const run = (job) => selected(job) && print(measure(job, opts));

  for (const w of workloads.huffman) huffmanJobs(adapters, w, native).forEach(run);
  for (const w of workloads.decode) adapters.forEach((a) => run(decodeJob(a, w)));
  for (const w of workloads.encode) {
    adapters.forEach((a, i) => {
      const { ratio, job } = encodeJob(a, adapters[1 - i], w);
      print({ ratio });
      run(job);
    });
  }
}

main().catch((err) => {
  console.error(`node-bench: ${err.message}`);
  process.exit(1);
});
