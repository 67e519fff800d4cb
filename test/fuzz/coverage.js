'use strict';
// Coverage feedback from V8's own block coverage (the inspector's precise coverage), so the
// fuzzer keeps an input only when it reaches code, or a code block a new number of times, that
// no earlier input did. Works in the thread that runs the target (a worker, in the fuzzer).

const inspector = require('node:inspector');

// Hit counts fall into buckets (as in AFL and libFuzzer): running a loop 5 or 6 times is the
// same feature, 1, 2, 3, 4-7, 8-15, ... are different ones.
function bucket(count) {
  return count < 4 ? count : 32 - Math.clz32(count) + 2;
}

class CoverageTracker {
  #session = new inspector.Session();
  #seen = new Set();
  #include;

  // include(url): whether a script's coverage counts (the code under test, not the harness).
  constructor(include) {
    this.#include = include;
    this.#session.connect();
    this.#post('Profiler.enable');
    this.#post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  }

  // The session of the current thread answers synchronously.
  #post(method, params) {
    let out;
    this.#session.post(method, params, (err, result) => {
      if (err) throw err;
      out = result;
    });
    return out;
  }

  get features() {
    return this.#seen.size;
  }

  // Takes (and resets) the counts since the last call; returns how many features were new.
  collect() {
    let added = 0;
    for (const script of this.#post('Profiler.takePreciseCoverage').result) {
      if (!this.#include(script.url)) continue;
      for (const fn of script.functions) {
        for (const range of fn.ranges) {
          if (range.count === 0) continue;
          const key = `${script.url}:${range.startOffset}:${bucket(range.count)}`;
          if (!this.#seen.has(key)) {
            this.#seen.add(key);
            added++;
          }
        }
      }
    }
    return added;
  }

  stop() {
    this.#post('Profiler.stopPreciseCoverage');
    this.#session.disconnect();
  }
}

module.exports = { CoverageTracker };
