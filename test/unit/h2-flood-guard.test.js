'use strict';
// The native engine's flood limiter, a token bucket refilled for the time since each call and
// capped at its burst, on a fake clock: exactly `burst` at once, never more after any quiet
// spell, and exactly the tokens the time earned in between.

const test = require('node:test');
const assert = require('node:assert/strict');
const { FloodGuard } = require('../../server/engines/h2/flood-guard');

// steps: [ms to advance the clock, calls to take() at that instant, how many must be granted].
function run(burst, perSecond, steps) {
  let clock = 1_000_000;
  const guard = new FloodGuard(burst, perSecond, { now: () => clock });
  return steps.map(([advance, calls]) => {
    clock += advance;
    let granted = 0;
    for (let i = 0; i < calls; i++) if (guard.take()) granted++;
    return granted;
  });
}

const CASES = [
  ['fresh: exactly the burst, then refused', 10, 5, [[0, 11, 10], [0, 5, 0]]],
  ['fresh, no time passing: the burst once', 1000, 100, [[0, 1500, 1000]]],
  ['an hour idle when fresh: still the burst, not two', 10, 5, [[3_600_000, 25, 10]]],
  ['an hour idle after emptying: the burst, not two', 10, 5, [[0, 10, 10], [3_600_000, 25, 10]]],
  ['fresh, then 11 s idle, at the engine\'s control-frame figures: 1,000, not 2,000', 1000, 100, [[11_000, 2500, 1000]]],
  ['emptied, then 11 s idle, at the same figures: 1,000', 1000, 100, [[0, 1000, 1000], [11_000, 2500, 1000]]],
  ['partly used, then 10 s quiet: the burst, not what was left plus a burst', 10, 5, [[0, 4, 4], [10_000, 30, 10]]],
  ['partial refill: 600 ms at 5/s is exactly 3', 10, 5, [[0, 10, 10], [600, 10, 3]]],
  ['a token needs its whole 200 ms', 10, 5, [[0, 10, 10], [199, 1, 0], [1, 2, 1]]],
  ['refused calls cost nothing', 10, 5, [[0, 50, 10], [100, 50, 0], [100, 50, 1]]],
  ['partly used, then quiet: refilled up to the burst only', 10, 5, [[0, 4, 4], [400, 20, 8], [10_000, 20, 10]]],
  ['time earned while tokens remain is kept', 10, 5, [[0, 5, 5], [400, 0, 0], [0, 20, 7]]],
  ['one call every 200 ms at 5/s: never refused', 1, 5, Array.from({ length: 100 }, () => [200, 1, 1])],
  ['faster than the rate after the burst: one in two', 2, 5, [[0, 2, 2], ...Array.from({ length: 10 }, (_, i) => [100, 1, i % 2])]],
  ['33/s (the reset guard): fractions of a token carry over', 2, 33, [[0, 2, 2], [30, 1, 0], [1, 1, 1], [29, 1, 0], [1, 1, 1]]],
];

for (const [name, burst, perSecond, steps] of CASES) {
  test(`flood guard: ${name}`, () => {
    assert.deepEqual(run(burst, perSecond, steps), steps.map((s) => s[2]));
  });
}

test('flood guard: after any use and any quiet spell, a flood at one instant gets at most the burst', () => {
  // Quiet spells from 0 to 30 s, in steps that are no multiple of the refill period.
  for (const used of [0, 1, 500, 999, 1000]) {
    for (let quiet = 0; quiet <= 30_000; quiet += 737) {
      const [first, second] = run(1000, 100, [[0, used], [quiet, 3000]]);
      assert.equal(first, used);
      assert.equal(second, Math.min(1000, 1000 - used + Math.floor(quiet / 10)), `${used} used, then ${quiet} ms quiet`);
    }
  }
});

test('flood guard: the default clock is monotonic milliseconds (performance.now)', (t) => {
  let clock = 5000;
  t.mock.method(performance, 'now', () => clock);
  const guard = new FloodGuard(1, 1);
  assert.equal(guard.take(), true);
  assert.equal(guard.take(), false);
  clock += 1000;
  assert.equal(guard.take(), true);
});
