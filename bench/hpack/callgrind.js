'use strict';
// Instruction counts from valgrind's callgrind: a figure that does not move
// with machine noise. The binary runs one job a fixed number of times with
// collection toggled on only around those iterations (--collect-atstart=no and
// CALLGRIND_TOGGLE_COLLECT in c/measure.c), so loading and checking the
// workload are not counted.
const fs = require('node:fs/promises');
const { promisify } = require('node:util');
const execFile = promisify(require('node:child_process').execFile);

const HOT_FUNCTIONS = 5;
const MAX_BUFFER = 64 * 1024 * 1024;

// "   39,949,012 (32.03%)  file:function [object]"
const ANNOTATE_LINE = /^\s*([\d,]+)\s+\(\s*([\d.]+)%\)\s+(.+?)(?:\s+\[(.+)\])?$/;

// Self cost per function, hottest first. Code inlined from a header is listed
// under the header's file name but the enclosing function's name, so rows are
// summed by function.
async function annotate(outFile) {
  const { stdout } = await execFile('callgrind_annotate', ['--inclusive=no', '--auto=no', outFile], { maxBuffer: MAX_BUFFER });
  const byFn = new Map();
  for (const line of stdout.slice(stdout.indexOf('file:function')).split('\n')) {
    const m = ANNOTATE_LINE.exec(line);
    if (!m) continue;
    const fn = m[3].replace(/^.*:(?=[^:]+$)/, '');
    const entry = byFn.get(fn) ?? { fn, object: null, ir: 0, share: 0 };
    entry.object ??= m[4] ? m[4].split('/').pop() : null;
    entry.ir += Number(m[1].replace(/,/g, ''));
    entry.share += Number(m[2]) / 100;
    byFn.set(fn, entry);
  }
  return [...byFn.values()].sort((a, b) => b.ir - a.ir).slice(0, HOT_FUNCTIONS);
}

// { instructions, hot: [{ fn, object, ir, share }] } for `iterations` runs of jobId.
async function countInstructions({ binary, workloadArgs, jobId, iterations, outFile }) {
  const args = ['--tool=callgrind', '--collect-atstart=no', `--callgrind-out-file=${outFile}`,
    binary, '--count', String(iterations), '--only', jobId, ...workloadArgs];
  const { stdout } = await execFile('valgrind', args, { maxBuffer: MAX_BUFFER });
  if (!stdout.includes('"iterations"')) throw Object.assign(new Error(`callgrind run of ${jobId} selected no job`), { code: 'ERR_HPACK_BENCH_CALLGRIND' });
  const totals = /^totals:\s*(\d+)/m.exec(await fs.readFile(outFile, 'utf8'));
  if (!totals) throw Object.assign(new Error(`no totals line in ${outFile}`), { code: 'ERR_HPACK_BENCH_CALLGRIND' });
  return { instructions: Number(totals[1]), hot: await annotate(outFile) };
}

module.exports = { countInstructions };
