#!/usr/bin/env node
'use strict';
// `npm test`: every test file of test/unit and test/integration under `node --test`, then
// the line coverage of the shipped code checked against a floor, so that a change that
// leaves code untested fails the run like a failing test does.
//   node scripts/test.js                 the whole suite; exit 1 if shipped lines < LINE_FLOOR
//   node scripts/test.js FILE...         those files only (coverage printed, floor not applied)
// Node 20's report has no include or exclude option and lists the tests' own helpers too, so
// the floor applies to the rows of SHIPPED folders, weighted by each file's line count (the
// report's line % is covered lines over all lines of the file). Test processes and the Node
// processes they spawn (servers, precompress) inherit NODE_V8_COVERAGE, so code that runs in
// a spawned server counts; native code (native/src) does not.
// Coverage is collected in a folder of our own and reported by a second, short run of Node's
// own reporter (scripts/coverage-import.js), not by `--experimental-test-coverage` on the
// suite: that one reads the folder the moment the last test file ends, and one file still
// being written by a process that outlived its test, or cut short by a SIGKILL, made it
// report nothing at all. Here every file's writer has ended before it is read, and a file
// left incomplete costs only that process's share, named in one line.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');

// Shipped lines covered by the whole suite (measured figures in bench/results/recorded-runs.md, "The test suite"), less a margin
// for runs that skip tests whose tools are missing.
const LINE_FLOOR = 90;
const ROOT = path.resolve(__dirname, '..');
const SUITES = ['test/unit', 'test/integration'];
const SHIPPED = ['server/', 'tools/', 'native/'];
// How long the processes that wrote coverage files may take to end after the suite did.
const SETTLE_MS = 30_000;

function suiteFiles() {
  return SUITES.flatMap((dir) => fs.readdirSync(path.join(ROOT, dir))
    .filter((name) => name.endsWith('.test.js'))
    .sort()
    .map((name) => path.join(dir, name)));
}

/** { lines, branches, functions } (percent) from the report's "all files" row, or null. */
function parseSummary(output) {
  const m = /all files\s*\|\s*([\d.]+)\s*\|\s*([\d.]+)\s*\|\s*([\d.]+)/.exec(output);
  return m === null ? null : { lines: Number(m[1]), branches: Number(m[2]), functions: Number(m[3]) };
}

/**
 * [file, line %] of each file row of the report (TAP "# " or spec "ℹ " prefix). Node 20 writes
 * each file's path; Node 22 and 24 write a tree, a folder's row (no figures) above its entries
 * indented one space deeper, so the path is rebuilt from the folders above.
 */
function parseFileRows(output) {
  const rows = [];
  const folders = [];
  for (const [, indent, name, percent] of output.matchAll(/^(?:# |ℹ )?( *)([^\s|]+)\s*\|\s*([\d.]*)\s*\|/gm)) {
    const depth = indent.length;
    folders.length = depth;
    if (percent === '') folders[depth] = name;
    else if (/\.[cm]?js$/.test(name)) rows.push([[...folders, name].join('/'), Number(percent)]);
  }
  return rows;
}

/**
 * Line coverage (percent, two decimals) of the rows under `prefixes`, each weighted by its
 * file's line count; `lineCount(file)` reads it.
 */
function weightedLines(rows, prefixes, lineCount) {
  let covered = 0;
  let total = 0;
  for (const [file, percent] of rows) {
    if (!prefixes.some((prefix) => file.startsWith(prefix))) continue;
    const lines = lineCount(file);
    covered += (lines * percent) / 100;
    total += lines;
  }
  return total === 0 ? null : Math.round((10_000 * covered) / total) / 100;
}

const fileLines = (file) => fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n').length - 1;

// Node names a process's file coverage-PID-TIME-N.json and writes it as the process exits.
const writerPid = (name) => Number((/^coverage-(\d+)-/.exec(name) ?? [])[1]);

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

function parses(file) {
  try {
    JSON.parse(fs.readFileSync(file, 'utf8'));
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits until the coverage files in `dir` are whole or their writers have ended (at most
 * `settleMs`), then removes those that are not whole; resolves to the removed files' names.
 * alive(pid), now() and sleep(ms) are injectable for tests.
 */
async function dropIncompleteCoverage(dir, { settleMs = SETTLE_MS, alive = pidAlive, now = Date.now, sleep = (ms) => new Promise((r) => setTimeout(r, ms)) } = {}) {
  const deadline = now() + settleMs;
  for (;;) {
    const broken = fs.readdirSync(dir).filter((name) => name.endsWith('.json') && !parses(path.join(dir, name)));
    const writing = broken.filter((name) => alive(writerPid(name)));
    if (writing.length === 0 || now() >= deadline) {
      for (const name of broken) fs.rmSync(path.join(dir, name), { force: true });
      return broken;
    }
    await sleep(200);
  }
}

function run(args, env, onOutput) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['inherit', 'pipe', 'inherit'] });
    child.stdout.on('data', onOutput);
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
}

async function main(argv) {
  const files = argv.length > 0 ? argv : suiteFiles();
  const reporter = `--test-reporter=${process.stdout.isTTY ? 'spec' : 'tap'}`;
  const coverageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'negotiate-coverage-'));
  try {
    const { code, signal } = await run(['--test', reporter, ...files], { ...process.env, NODE_V8_COVERAGE: coverageDir },
      (chunk) => process.stdout.write(chunk));
    const dropped = await dropIncompleteCoverage(coverageDir);
    if (dropped.length > 0) {
      process.stdout.write(`# coverage: ${dropped.length} process file(s) left incomplete by a process killed while writing, not counted: ${dropped.join(', ')}\n`);
    }
    // Of the report run, only the report: its one test would read as the suite's summary.
    let output = '';
    const { NODE_V8_COVERAGE, ...env } = process.env;
    await run(['--test', '--experimental-test-coverage', reporter, path.join(__dirname, 'coverage-import.js')],
      { ...env, NEGOTIATE_COVERAGE_FROM: coverageDir }, (chunk) => { output += chunk; });
    const start = output.search(/^.*start of coverage report/m);
    const tail = start === -1 ? output : output.slice(start);
    process.stdout.write(tail);
    report(tail, argv.length === 0, code !== 0 || signal !== null ? code || 1 : 0);
  } finally {
    fs.rmSync(coverageDir, { recursive: true, force: true });
  }
}

/** Prints the shipped code's line coverage from the report in `tail`; sets the exit code. */
function report(tail, whole, testsExit) {
  const summary = parseSummary(tail);
  const shipped = weightedLines(parseFileRows(tail), SHIPPED, fileLines);
  if (summary === null || shipped === null) {
    process.stderr.write('scripts/test.js: no coverage report in the test output\n');
    process.exitCode = testsExit || 1;
    return;
  }
  process.stdout.write(`coverage of ${SHIPPED.join(', ')}: lines ${shipped}%` +
    (whole ? ` (floor ${LINE_FLOOR}%)` : ' (some test files only: floor not applied)') +
    `; all files, tests' helpers included: lines ${summary.lines}%, branches ${summary.branches}%, functions ${summary.functions}%\n`);
  if (testsExit !== 0) {
    process.exitCode = testsExit;
    return;
  }
  if (whole && shipped < LINE_FLOOR) {
    process.stderr.write(`scripts/test.js: line coverage of ${SHIPPED.join(', ')} is ${shipped}%, below the floor of ${LINE_FLOOR}%\n`);
    process.exitCode = 1;
  }
}

if (require.main === module) main(process.argv.slice(2));

module.exports = { parseSummary, parseFileRows, weightedLines, dropIncompleteCoverage };
