'use strict';
// server/dictionaries/delta-budget.js: the per-connection and process token buckets of on-the-fly
// delta work, on an injected clock.

const test = require('node:test');
const assert = require('node:assert/strict');
const { DeltaBudget } = require('../../server/dictionaries/delta-budget');

const LIMITS = { global: { bytesPerSecond: 1000, burstBytes: 3000 }, connection: { bytesPerSecond: 100, burstBytes: 1000 } };

// Each step: [ms, connection ('a', 'b', null), bytes, allowed].
const CASES = [
  {
    name: 'a connection spends its burst, then waits for its rate; another still has its own',
    steps: [[0, 'a', 600, true], [0, 'a', 600, true], [0, 'a', 1, false], [0, 'b', 500, true],
      [1_000, 'a', 1, false], [2_000, 'a', 1, false], [3_000, 'a', 100, true], [3_000, 'a', 1, false]],
  },
  {
    name: 'the process bucket bounds every connection together',
    steps: [[0, 'a', 1000, true], [0, 'b', 1000, true], [0, 'c', 1000, true], [0, 'd', 1, false],
      [0, null, 1, false], [500, 'd', 400, true], [500, null, 200, true], [500, null, 1, false]],
  },
  {
    name: 'a request without a connection draws on the process bucket alone',
    steps: [[0, null, 2500, true], [0, null, 400, true], [0, null, 200, true], [0, 'a', 1, false]],
  },
  {
    name: 'a file larger than a burst goes through on what is left, then its debt is paid',
    steps: [[0, 'a', 5000, true], [0, 'a', 1, false], [3_000, 'a', 1, false], [6_000, 'a', 1, false], [40_000, 'a', 1, false], [41_000, 'a', 1, true]],
  },
];

for (const { name, steps } of CASES) {
  test(name, () => {
    let clock = 0;
    const budget = new DeltaBudget(LIMITS, { now: () => clock });
    const connections = { a: {}, b: {}, c: {}, d: {}, null: null };
    const got = steps.map(([at, who, bytes]) => {
      clock = at;
      return budget.tryTake(connections[who], bytes);
    });
    assert.deepEqual(got, steps.map((s) => s[3]));
    assert.equal(budget.stats.refused, steps.filter((s) => !s[3]).length);
  });
}
