'use strict';
// scripts/test.js reads the coverage summary row that node --test prints, in either reporter.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { parseSummary } = require('../../scripts/test');

const CASES = [
  ['tap', '# file | line % | branch % | funcs % | uncovered lines\n# all files                             |  95.66 |    95.08 |   87.94 |\n# end of coverage report\n', { lines: 95.66, branches: 95.08, functions: 87.94 }],
  ['spec', 'ℹ all files | 100.00 |    73.33 |  100.00 |\nℹ end of coverage report\n', { lines: 100, branches: 73.33, functions: 100 }],
  ['no report', '# pass 3\n# fail 0\n', null],
];

for (const [what, output, expected] of CASES) {
  test(`summary row: ${what}`, () => assert.deepEqual(parseSummary(output), expected));
}
