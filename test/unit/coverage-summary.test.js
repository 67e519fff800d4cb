'use strict';
// scripts/test.js reads the coverage summary row that node --test prints, in either reporter.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { parseSummary, parseFileRows, weightedLines } = require('../../scripts/test');

const CASES = [
  ['tap', '# file | line % | branch % | funcs % | uncovered lines\n# all files                             |  95.66 |    95.08 |   87.94 |\n# end of coverage report\n', { lines: 95.66, branches: 95.08, functions: 87.94 }],
  ['spec', 'ℹ all files | 100.00 |    73.33 |  100.00 |\nℹ end of coverage report\n', { lines: 100, branches: 73.33, functions: 100 }],
  ['no report', '# pass 3\n# fail 0\n', null],
];

for (const [what, output, expected] of CASES) {
  test(`summary row: ${what}`, () => assert.deepEqual(parseSummary(output), expected));
}

test('file rows, and the floor\'s figure: shipped rows weighted by line count', () => {
  const output = [
    '# server/a.js       | 50.00 | 100.00 | 100.00 | 3-4',
    'ℹ tools/b.js        | 100.00 | 100.00 | 100.00 | ',
    '# test/helpers/c.js | 0.00 | 0.00 | 0.00 | 1-9',
    '# all files         | 60.00 | 50.00 | 50.00 |',
  ].join('\n');
  const rows = parseFileRows(output);
  assert.deepEqual(rows, [['server/a.js', 50], ['tools/b.js', 100], ['test/helpers/c.js', 0]]);
  const lines = { 'server/a.js': 4, 'tools/b.js': 2, 'test/helpers/c.js': 9 };
  assert.equal(weightedLines(rows, ['server/', 'tools/'], (f) => lines[f]), 66.67);
  assert.equal(weightedLines(rows, ['native/'], (f) => lines[f]), null);
});

test('file rows of Node 22 and 24\'s tree: each path rebuilt from the folder rows above it', () => {
  const output = [
    '# file                         | line % | branch % | funcs % | uncovered lines',
    '# server                       |        |          |         | ',
    '#  compression                 |        |          |         | ',
    '#   codings.js                 |  95.00 |    80.00 |  100.00 | 3-4',
    '#   zstd.js                    | 100.00 |   100.00 |  100.00 | ',
    '#  errors.js                   |  50.00 |   100.00 |  100.00 | 2',
    '# tools                        |        |          |         | ',
    '#  precompress                 |        |          |         | ',
    '#   index.js                   |  97.69 |    76.99 |   81.82 | 287-288',
    '# all files                    |  95.68 |    91.62 |   92.48 | ',
  ].join('\n');
  assert.deepEqual(parseFileRows(output), [
    ['server/compression/codings.js', 95], ['server/compression/zstd.js', 100], ['server/errors.js', 50], ['tools/precompress/index.js', 97.69],
  ]);
});

// A coverage file is dropped only when it does not parse and its writer has ended, or when
// the wait for its writer ran out; a whole one always stays.
test('incomplete coverage files: waited for while their writer lives, then dropped', async (t) => {
  const fs = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  const { dropIncompleteCoverage } = require('../../scripts/test');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coverage-test-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'coverage-101-1-0.json'), '{"result":[]}');
  fs.writeFileSync(path.join(dir, 'coverage-102-1-0.json'), '{"result":[{"url":"file:///x.js"');
  fs.writeFileSync(path.join(dir, 'coverage-103-1-0.json'), '{"res');
  let clock = 0;
  const sleeps = [];
  // 103 is still writing; it finishes its file during the first wait and then ends.
  let writing = true;
  const alive = (pid) => pid === 103 && writing;
  const sleep = async (ms) => {
    sleeps.push(ms);
    clock += ms;
    fs.writeFileSync(path.join(dir, 'coverage-103-1-0.json'), '{"result":[]}');
    writing = false;
  };
  const dropped = await dropIncompleteCoverage(dir, { settleMs: 1000, alive, now: () => clock, sleep });
  assert.deepEqual(dropped, ['coverage-102-1-0.json']);
  assert.deepEqual(sleeps, [200]);
  assert.deepEqual(fs.readdirSync(dir).sort(), ['coverage-101-1-0.json', 'coverage-103-1-0.json']);

  // A writer that never ends: the file goes once the wait runs out.
  fs.writeFileSync(path.join(dir, 'coverage-104-1-0.json'), '[');
  const stuck = await dropIncompleteCoverage(dir, { settleMs: 1000, alive: (pid) => pid === 104, now: () => clock, sleep: async (ms) => { clock += ms; } });
  assert.deepEqual(stuck, ['coverage-104-1-0.json']);
  assert.equal(clock, 1200);
});
