'use strict';
// Run by scripts/test.js as the only file of a `node --test --experimental-test-coverage`
// run: moves the coverage files the suite's processes wrote (NEGOTIATE_COVERAGE_FROM) into
// the folder this run's reporter reads (NODE_V8_COVERAGE, set by the runner for its test
// processes), so that Node's own reporter covers the whole suite.

const fs = require('node:fs');
const path = require('node:path');

const from = process.env.NEGOTIATE_COVERAGE_FROM;
const into = process.env.NODE_V8_COVERAGE;
if (!from || !into) throw new Error('coverage-import.js: run by scripts/test.js, which sets NEGOTIATE_COVERAGE_FROM; the runner sets NODE_V8_COVERAGE');
for (const name of fs.readdirSync(from)) {
  if (name.endsWith('.json')) fs.renameSync(path.join(from, name), path.join(into, name));
}
