'use strict';
// npm run bench:dictionary [-- --repetitions 5] [--cache DIR] [--note TEXT] [--json] [--no-save]
// Bytes and CPU time of identity, gzip, br, zstd, dcb and dcz (RFC 9842) on real consecutive
// releases of widely used libraries (releases.js), the newer release compressed against the
// older one as the dictionary (measure.js). The releases come from the npm registry through
// `npm pack` into --cache (default bench/build/dictionary-releases, git-ignored), once; later
// runs need no network. Saves a "dictionary" section in bench/results/<date>-<host>.json and
// regenerates bench/results/README.md and its charts (--no-save: print only).
const { parseArgs } = require('node:util');
const { RELEASES } = require('./releases');
const { releaseFile, DEFAULT_CACHE } = require('./fetch');
const { benchEngines, measurePair } = require('./measure');
const { bytesTable, cpuTable } = require('./report');
const { machineInfo, toolVersion, commandLine } = require('../lib/machine-info');
const { saveSection } = require('../lib/results-store');
const { writeReadme } = require('../lib/results-readme');

const USAGE = 'usage: node bench/dictionary/run.js [--repetitions N] [--cache DIR] [--note TEXT] [--json] [--no-save]';

function options() {
  const { values } = parseArgs({
    options: {
      repetitions: { type: 'string', default: '7' },
      cache: { type: 'string', default: DEFAULT_CACHE },
      note: { type: 'string' },
      json: { type: 'boolean', default: false },
      'no-save': { type: 'boolean', default: false },
    },
  });
  const repetitions = Number(values.repetitions);
  if (!Number.isInteger(repetitions) || repetitions < 1 || repetitions > 100) throw new Error(`--repetitions must be an integer from 1 to 100, got "${values.repetitions}"\n${USAGE}`);
  return { ...values, repetitions };
}

async function main() {
  const opts = options();
  const startedAt = new Date().toISOString();
  const bench = benchEngines();
  const pairs = [];
  for (const r of RELEASES) {
    const [dictionary, input] = [await releaseFile(r.pkg, r.from, r.file, opts.cache), await releaseFile(r.pkg, r.to, r.file, opts.cache)];
    process.stderr.write(`${r.name} ${r.from} -> ${r.to}: ${input.length} bytes against ${dictionary.length}\n`);
    pairs.push({ ...r, dictionaryBytes: dictionary.length, codings: await measurePair(bench, { dictionary, input, repetitions: opts.repetitions }) });
  }
  const section = {
    command: commandLine(),
    note: opts.note,
    startedAt,
    finishedAt: new Date().toISOString(),
    tools: { npm: await toolVersion('npm', ['--version'], /(\d+\.\d+\.\d+)/) },
    repetitions: opts.repetitions,
    settings: bench.settings,
    pairs,
  };
  if (opts.json) process.stdout.write(`${JSON.stringify(section, null, 2)}\n`);
  else process.stdout.write(`${bytesTable(pairs)}\n${cpuTable(pairs)}`);
  if (!opts['no-save']) {
    const file = await saveSection('dictionary', section, { machine: machineInfo() });
    process.stderr.write(`saved ${file}\nwrote ${await writeReadme()}\n`);
  }
}

main().catch((err) => {
  console.error(err.message);
  process.exit(1);
});
