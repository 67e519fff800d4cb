'use strict';
// server/engines/release-after-surge.js: when a surge has gone, memory is given back once.

const test = require('node:test');
const assert = require('node:assert/strict');
const { releaseAfterSurge } = require('../../server/engines/release-after-surge');

// Runs `counts` (pending after each change) through a watcher with surge 3 and delay 10, firing
// the timers where a count is 'tick', and at the end; returns how many releases ran.
function run(counts) {
  const timers = [];
  let released = 0;
  const watcher = releaseAfterSurge({
    surge: 3, delayMs: 10, release: () => { released++; return true; },
    timers: { setTimeout: (fn, ms) => timers.push({ fn, ms }) },
  });
  for (const count of counts) {
    if (count === 'tick') {
      for (const timer of timers.splice(0)) timer.fn();
      continue;
    }
    watcher.note(count);
  }
  for (const timer of timers.splice(0)) {
    assert.equal(timer.ms, 10);
    timer.fn();
  }
  return released;
}

test('memory is given back once after each surge that reached the threshold, never for smaller ones', () => {
  for (const [name, counts, expected] of [
    ['a surge of 3 that ends', [1, 2, 3, 2, 1, 0], 1],
    ['a surge of 2 that ends', [1, 2, 1, 0], 0],
    ['a surge of 3 that has not ended', [1, 2, 3, 2, 1], 0],
    ['a new connection before the release runs: still once', [1, 2, 3, 0, 1, 0], 1],
    ['two surges, released between them', [1, 2, 3, 0, 'tick', 1, 2, 3, 0], 2],
    ['a small surge after a released big one', [1, 2, 3, 0, 'tick', 1, 2, 0], 1],
    ['the peak counts, not the last value', [3, 1, 2, 1, 0], 1],
  ]) {
    assert.equal(run(counts), expected, name);
  }
});
