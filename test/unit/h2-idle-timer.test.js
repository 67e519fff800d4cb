'use strict';
// The native engine's inactivity timer: ticks at a quarter of the shortest limit, expires once
// the limit in force has passed without activity, again a limit later, never while bytes move.

const test = require('node:test');
const assert = require('node:assert/strict');
const { IdleTimer } = require('../../server/engines/h2/idle-timer');

// Runs events ('t' a tick, 'a' activity, 'S'/'s' streams open/none) and returns the ticks
// (1-based) at which the timer expired, with the quiet ms it reported.
function run(events, { shortest = 100, idle = 400, busy = 1000 } = {}) {
  let fire = null;
  let tickMs = 0;
  const expired = [];
  let streams = false;
  const timer = new IdleTimer(shortest, () => (streams ? busy : idle), (quiet) => expired.push(`${ticks}:${quiet}`),
    (fn, ms) => { fire = fn; tickMs = ms; return { refresh() {} }; });
  let ticks = 0;
  for (const e of events) {
    if (e === 't') { ticks++; fire(); }
    if (e === 'a') timer.touch();
    if (e === 'S') streams = true;
    if (e === 's') streams = false;
  }
  return { tickMs, expired };
}

const CASES = [
  ['idle: expires after the idle limit (4 ticks of 25 ms make 100)', 'tttt', { idle: 100 }, ['4:100']],
  ['a limit not a multiple of the tick expires at the next tick', 'ttttt', { idle: 110 }, ['5:125']],
  ['activity restarts the count', 'ttattttt', { idle: 100 }, ['7:100']],
  ['activity in every tick: never', 'tatatatatata', { idle: 50 }, []],
  ['streams open: the longer limit', 'Stttttttt', { idle: 100, busy: 200 }, ['8:200']],
  ['the limit in force is the one at the tick', 'Sttttttst', { idle: 100, busy: 1000 }, ['7:175']],
  ['expires again a limit later', 'tttttttt', { idle: 100 }, ['4:100', '8:100']],
];

for (const [name, events, limits, expected] of CASES) {
  test(`idle timer: ${name}`, () => {
    const { tickMs, expired } = run(events, { shortest: 100, ...limits });
    assert.equal(tickMs, 25);
    assert.deepEqual(expired, expected);
  });
}

test('idle timer: quiet is 0 after activity, then grows a tick at a time', () => {
  let fire = null;
  const timer = new IdleTimer(100, () => 1000, () => {}, (fn) => { fire = fn; return { refresh() {} }; });
  const seen = [timer.quiet];
  fire();
  seen.push(timer.quiet);
  fire();
  seen.push(timer.quiet);
  timer.touch();
  seen.push(timer.quiet);
  fire();
  seen.push(timer.quiet);
  assert.deepEqual(seen, [0, 25, 50, 0, 0]);
});
