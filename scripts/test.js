#!/usr/bin/env node
'use strict';
// `npm test`: every test file of test/unit and test/integration under `node --test` with
// Node's built-in coverage, then the line coverage of the shipped code checked against a
// floor, so that a change that leaves code untested fails the run like a failing test does.
//   node scripts/test.js                 the whole suite; exit 1 if shipped lines < LINE_FLOOR
//   node scripts/test.js FILE...         those files only (coverage printed, floor not applied)
// Node 20's report has no include or exclude option and lists the tests' own helpers too, so
// the floor applies to the rows of SHIPPED folders, weighted by each file's line count (the
// report's line % is covered lines over all lines of the file). Test processes and the Node
// processes they spawn (servers, precompress) inherit NODE_V8_COVERAGE, so code that runs in
// a spawned server counts; native code (native/src) does not.

const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');

// Shipped lines covered by the whole suite (measured figures in bench/results/recorded-runs.md, "The test suite"), less a margin
// for runs that skip tests whose tools are missing.
const LINE_FLOOR = 90;
const ROOT = path.resolve(__dirname, '..');
const SUITES = ['test/unit', 'test/integration'];
const SHIPPED = ['server/', 'tools/', 'native/'];

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

function main(argv) {
  const files = argv.length > 0 ? argv : suiteFiles();
  const reporter = process.stdout.isTTY ? 'spec' : 'tap';
  const child = spawn(process.execPath, ['--test', '--experimental-test-coverage', `--test-reporter=${reporter}`, ...files],
    { cwd: ROOT, stdio: ['inherit', 'pipe', 'inherit'] });
  // The report comes last; keep a tail long enough to hold all of it.
  let tail = '';
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    tail = (tail + chunk.toString('utf8')).slice(-1024 * 1024);
  });
  child.on('close', (code, signal) => {
    const summary = parseSummary(tail);
    const shipped = weightedLines(parseFileRows(tail), SHIPPED, fileLines);
    if (summary === null || shipped === null) {
      process.stderr.write('scripts/test.js: no coverage report in the test output\n');
      process.exitCode = code || 1;
      return;
    }
    const whole = argv.length === 0;
    process.stdout.write(`coverage of ${SHIPPED.join(', ')}: lines ${shipped}%` +
      (whole ? ` (floor ${LINE_FLOOR}%)` : ' (some test files only: floor not applied)') +
      `; all files, tests' helpers included: lines ${summary.lines}%, branches ${summary.branches}%, functions ${summary.functions}%\n`);
    if (code !== 0 || signal !== null) {
      process.exitCode = code || 1;
      return;
    }
    if (whole && shipped < LINE_FLOOR) {
      process.stderr.write(`scripts/test.js: line coverage of ${SHIPPED.join(', ')} is ${shipped}%, below the floor of ${LINE_FLOOR}%\n`);
      process.exitCode = 1;
    }
  });
}

if (require.main === module) main(process.argv.slice(2));

module.exports = { parseSummary, parseFileRows, weightedLines };
