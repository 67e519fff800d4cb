'use strict';
// node bench/qpack/run.js [--seconds N] [--no-callgrind]: the project's QPACK
// codec against nghttp3's (Debian libnghttp3-dev) in C, on the 32
// hpack-test-case raw-data stories as one connection, table capacities 4096
// and 256, 100 blocked streams, every section acknowledged at once. Prints ns
// per header byte (best round), instructions per header byte (callgrind) and
// the bytes each encoder sent.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { findOnPath } = require('../lib/find-on-path');
const { parseArgs } = require('node:util');
const { missing, storiesQif } = require('../../test/helpers/qpack-stories');

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bench', 'build', 'qpack', 'qpack-bench');
const TABLES = [4096, 256];
const BLOCKED = 100;
const JOBS = ['ours/encode', 'ours/decode', 'nghttp3/encode', 'nghttp3/decode'];
const HELP = 'usage: npm run bench:qpack -- [--seconds N] [--no-callgrind]';

function instructions(input, table, job) {
  const out = path.join(os.tmpdir(), `qpack-callgrind-${process.pid}.out`);
  try {
    execFileSync('valgrind', ['--tool=callgrind', '--collect-atstart=no', `--callgrind-out-file=${out}`, BIN, input, String(table), String(BLOCKED), '0', job], { stdio: 'ignore' });
    return Number(/^(?:summary|totals): (\d+)/m.exec(fs.readFileSync(out, 'utf8'))[1]);
  } finally {
    fs.rmSync(out, { force: true });
  }
}

function main() {
  const { values } = parseArgs({ options: {
    seconds: { type: 'string', default: '2' },
    'no-callgrind': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  } });
  if (values.help) return console.log(HELP);
  if (missing) throw new Error(missing);
  if (!fs.existsSync('/usr/include/nghttp3/nghttp3.h')) throw new Error('libnghttp3-dev is not installed (bash scripts/system-deps.sh install)');
  execFileSync('make', ['-C', __dirname, '--no-print-directory'], { stdio: 'inherit' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qpack-bench-'));
  const input = path.join(dir, 'stories.qif');
  fs.writeFileSync(input, storiesQif());
  const callgrind = !values['no-callgrind'] && findOnPath('valgrind') !== null;
  try {
    console.log('table  job             ns/header byte  instructions/header byte  bytes sent  ratio');
    for (const table of TABLES) {
      const lines = execFileSync(BIN, [input, String(table), String(BLOCKED), values.seconds], { encoding: 'utf8' }).trim().split('\n').map(JSON.parse);
      for (const job of JOBS) {
        const r = lines.find((l) => l.job === job);
        const ir = callgrind ? (instructions(input, table, job) / r.header_bytes).toFixed(1) : '-';
        console.log(`${String(table).padStart(5)}  ${job.padEnd(14)}  ${r.ns_per_header_byte.toFixed(2).padStart(14)}  ${ir.padStart(24)}  ${String(r.sent_bytes).padStart(10)}  ${r.ratio.toFixed(3)}`);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

try {
  main();
} catch (err) {
  console.error(`bench:qpack: ${err.message}`);
  process.exit(1);
}
