'use strict';
// One measurement of `negotiate-h2 codings`, alone in its own process so that the process's
// peak resident memory (maxRSS) is this coding and level's: reads the sample files, compresses
// each one at the level, decompresses it back (checking the bytes), and prints one JSON line.
// With coding "none" it only loads the files and engines: the baseline the others are
// measured against.
//
// The sample is compressed once untimed (lazy initialisation, JIT, zstd's worker start), then
// in timed rounds until MIN_MS of compression time or MAX_ROUNDS; times are per round.
//
// Usage: node measure-child.js CODING LEVEL MIN_MS FILE... → { inputBytes, outputBytes, compressMs, decompressMs, maxRssKiB }

const fs = require('node:fs');
const { createEngines } = require('../../server/compression/codings');

const MAX_ROUNDS = 100;

async function round(engines, coding, level, inputs) {
  const totals = { inputBytes: 0, outputBytes: 0, compressMs: 0, decompressMs: 0 };
  for (const input of inputs) {
    const t0 = process.hrtime.bigint();
    const compressed = await engines.compress(coding, input, { level });
    const t1 = process.hrtime.bigint();
    const plain = await engines.decompress(coding, compressed);
    const t2 = process.hrtime.bigint();
    if (!plain.equals(input)) throw new Error(`${coding} ${level} did not round-trip`);
    totals.inputBytes += input.length;
    totals.outputBytes += compressed.length;
    totals.compressMs += Number(t1 - t0) / 1e6;
    totals.decompressMs += Number(t2 - t1) / 1e6;
  }
  return totals;
}

async function measure(coding, level, minMs, files) {
  const engines = createEngines();
  const inputs = files.map((file) => fs.readFileSync(file));
  let result = { inputBytes: 0, outputBytes: 0, compressMs: 0, decompressMs: 0 };
  if (coding !== 'none') {
    result = await round(engines, coding, level, inputs);
    let compressMs = 0;
    let decompressMs = 0;
    let rounds = 0;
    while (rounds < MAX_ROUNDS && compressMs < minMs) {
      const timed = await round(engines, coding, level, inputs);
      compressMs += timed.compressMs;
      decompressMs += timed.decompressMs;
      rounds++;
    }
    Object.assign(result, { compressMs: compressMs / rounds, decompressMs: decompressMs / rounds });
  }
  return { ...result, maxRssKiB: process.resourceUsage().maxRSS };
}

const [coding, level, minMs, ...files] = process.argv.slice(2);
measure(coding, Number(level), Number(minMs), files).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
  },
  (err) => {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  },
);
