'use strict';
// npm run bench:hpack: the project's HPACK core against libnghttp2 (C, one
// binary) and its Node binding against hpack.js, over the hpack-test-case
// corpus and the Huffman bench inputs; writes the "hpack" section of
// bench/results/<date>-<host>.json and regenerates bench/results/README.md.
const fs = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { loadWorkloads, writeForC } = require('./workloads');
const { checkTools, toolVersions } = require('./tools');
const { countInstructions } = require('./callgrind');
const { summarizeLines, parseLines, jobId } = require('./summarize');
const { evaluateTargets } = require('./targets');
const { corpusFolderRatios } = require('./figure1');
const { renderTerminal } = require('./report');
const { createPinning } = require('../lib/pinning');
const { machineInfo, commandLine } = require('../lib/machine-info');
const { saveSection } = require('../lib/results-store');
const { writeReadme } = require('../lib/results-readme');
const { installCleanupHandlers, runToCompletion } = require('../lib/process-group');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const BUILD_DIR = path.join(REPO_ROOT, 'bench', 'build', 'hpack');
const BINARY = path.join(BUILD_DIR, 'hpack-bench');

const HELP = `usage: npm run bench:hpack -- [--quick] [--callgrind] [--filter SUBSTR]

  --quick      short runs (about 0.02 s x 3 per job) and small callgrind counts
  --callgrind  also count instructions per input byte with valgrind --tool=callgrind
  --filter S   only jobs whose id (group/workload/impl, e.g. decode/nghttp2-wire/ours) contains S

Needs gcc, make and libnghttp2-dev (valgrind for --callgrind): bash scripts/system-deps.sh install`;

const MINUTE_MS = 60000;

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      callgrind: { type: 'boolean', default: false },
      filter: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  return {
    ...values,
    seconds: values.quick ? 0.02 : 0.3,
    runs: values.quick ? 3 : 5,
    // Each callgrind job processes at least this many input bytes.
    callgrindBytes: values.quick ? 2e5 : 2e6,
  };
}

// Builds the binary and returns the compiler flags it used.
async function build() {
  await runToCompletion('make', ['-s', '-C', __dirname], { timeoutMs: 5 * MINUTE_MS });
  const { stdout } = await runToCompletion('make', ['-s', '-C', __dirname, 'print-cflags'], { timeoutMs: MINUTE_MS });
  return stdout.trim();
}

function timingArgs(opts) {
  return ['--seconds', String(opts.seconds), '--runs', String(opts.runs), ...(opts.filter ? ['--filter', opts.filter] : [])];
}

async function runC(opts, workloadArgs, pin) {
  const [cmd, args] = pin(BINARY, [...timingArgs(opts), ...workloadArgs]);
  const { stdout } = await runToCompletion(cmd, args, { timeoutMs: 9 * MINUTE_MS });
  return summarizeLines(parseLines(stdout, 'hpack-bench'), 'c');
}

async function runNode(opts, pin) {
  const [cmd, args] = pin(process.execPath, [path.join(__dirname, 'node-bench.js'), ...timingArgs(opts)]);
  const { stdout } = await runToCompletion(cmd, args, { timeoutMs: 9 * MINUTE_MS });
  return summarizeLines(parseLines(stdout, 'node-bench.js'), 'node');
}

// Adds instructions per input byte (and the hottest functions) to each C result.
async function addInstructionCounts(results, opts, workloadArgs) {
  const outDir = path.join(BUILD_DIR, 'callgrind');
  await fs.rm(outDir, { recursive: true, force: true });
  await fs.mkdir(outDir, { recursive: true });
  for (const r of results.filter((x) => x.source === 'c')) {
    const id = jobId(r);
    const iterations = Math.max(1, Math.ceil(opts.callgrindBytes / r.bytes));
    const outFile = path.join(outDir, `${id.replace(/\//g, '_')}.out`);
    const { instructions, hot } = await countInstructions({ binary: BINARY, workloadArgs, jobId: id, iterations, outFile });
    Object.assign(r, { instructions, callgrindIterations: iterations, instrPerByte: instructions / (iterations * r.bytes), hot });
    console.log(`  ${id}: ${(instructions / (iterations * r.bytes)).toFixed(2)} instructions per byte`);
  }
}

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  if (opts.help) return console.log(HELP);
  const problems = await checkTools(opts);
  if (problems.length) throw Object.assign(new Error(`cannot run:\n  ${problems.join('\n  ')}`), { code: 'ERR_HPACK_BENCH_TOOLS' });
  installCleanupHandlers();
  const startedAt = new Date();
  const notes = [];

  console.log('loading hpack-test-case and bench-inputs, building hpack-bench');
  const workloads = await loadWorkloads(REPO_ROOT);
  const [workloadArgs, cflags] = await Promise.all([writeForC(workloads, path.join(BUILD_DIR, 'workloads')), build()]);

  const pinning = createPinning();
  const core = os.availableParallelism() - 1;
  const pin = (cmd, args) => pinning.wrap(core, cmd, args);
  const pinNote = pinning.enabled ? `Pinned to CPU ${core} with taskset` : `Not pinned (${pinning.reason})`;
  console.log(`${pinNote}; timing the C core and libnghttp2`);
  const c = await runC(opts, workloadArgs, pin);

  console.log('timing the Node binding and hpack.js');
  let node = { results: [], ratios: [] };
  try {
    node = await runNode(opts, pin);
  } catch (err) {
    // The C figures stand on their own; say why the Node ones are missing.
    notes.push(`The Node side did not run: ${err.message.split('\n')[0]} (is the addon built? npm run build:addon)`);
    console.error(`node-bench failed: ${err.message}`);
  }

  const results = [...c.results, ...node.results];
  if (opts.callgrind) {
    console.log('counting instructions with callgrind');
    await addInstructionCounts(results, opts, workloadArgs);
  }

  const section = {
    command: commandLine(),
    startedAt: startedAt.toISOString(),
    tools: await toolVersions(opts),
    method: {
      seconds: opts.seconds, runs: opts.runs, pinning: pinNote, cflags,
      callgrind: opts.callgrind, callgrindBytes: opts.callgrindBytes, filter: opts.filter ?? null,
    },
    corpusStories: workloads.encode[0].stories.length,
    results,
    ratios: [...c.ratios, ...node.ratios],
    corpusRatios: await corpusFolderRatios(REPO_ROOT),
    notes,
  };
  section.targets = evaluateTargets(section);
  section.finishedAt = new Date().toISOString();

  console.log(`\n${renderTerminal(section)}\n`);
  const file = await saveSection('hpack', section, { machine: machineInfo() });
  const readme = await writeReadme();
  console.log(`wrote ${path.relative(process.cwd(), file)} and ${path.relative(process.cwd(), readme)}`);
}

main().catch((err) => {
  console.error(`bench:hpack: ${err.message}`);
  process.exit(1);
});
