'use strict';
// server/log/repeated-warnings.js: one line per cause, then a count, on an injected clock.

const test = require('node:test');
const assert = require('node:assert/strict');
const { RepeatedWarnings } = require('../../server/log/repeated-warnings');

// Each step: [ms since the start, 'warn' cause | 'flush'], and the lines logged so far.
const CASES = [
  {
    name: 'a cause repeated within the window is counted, said when it comes back after it',
    steps: [[0, 'EROFS'], [10, 'EROFS'], [20_000, 'EROFS'], [60_000, 'EROFS'], [60_001, 'EROFS']],
    lines: ['EROFS #1', 'EROFS #1 (2 more like this in the last 60 s)', 'EROFS #4'],
  },
  {
    name: 'each cause has its own line and count; flush says what is left',
    steps: [[0, 'EROFS'], [1, 'ENOSPC'], [2, 'EROFS'], [3, 'ENOSPC'], [4, 'ENOSPC'], [5_000, 'flush'], [5_001, 'EROFS']],
    lines: ['EROFS #1', 'ENOSPC #2', 'EROFS #1 (1 more like this in the last 5 s)', 'ENOSPC #2 (2 more like this in the last 5 s)', 'EROFS #7'],
  },
  {
    name: 'a single occurrence has no summary',
    steps: [[0, 'EROFS'], [70_000, 'EROFS'], [70_001, 'flush']],
    lines: ['EROFS #1', 'EROFS #2'],
  },
];

for (const { name, steps, lines } of CASES) {
  test(name, () => {
    let clock = 0;
    const logged = [];
    const warnings = new RepeatedWarnings({ warn: (m) => logged.push(m) }, { now: () => clock });
    steps.forEach(([at, what], i) => {
      clock = at;
      if (what === 'flush') warnings.flush();
      else warnings.warn(what, `${what} #${i + 1}`);
    });
    assert.deepEqual(logged, lines);
  });
}

test('600 failures of one cause in a minute make 2 lines', () => {
  let clock = 0;
  const logged = [];
  const warnings = new RepeatedWarnings({ warn: (m) => logged.push(m) }, { now: () => clock });
  for (let i = 0; i < 600; i++, clock += 50) warnings.warn('EROFS', 'dcb delta not kept: EROFS');
  warnings.flush();
  assert.deepEqual(logged, ['dcb delta not kept: EROFS', 'dcb delta not kept: EROFS (599 more like this in the last 30 s)']);
});
