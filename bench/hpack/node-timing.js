'use strict';
// The Node-side twin of c/measure.c: calibrate an iteration count to a target
// duration, then time several runs of it. Prints the same JSON shape as the C
// binary so run.js summarises both alike.

let sink = 0;

// Timed iterations fold their results into this module-level variable so V8
// cannot drop the work as dead code.
function consume(n) {
  sink = (sink + n) | 0;
}

function timeIterations(iteration, n) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) iteration();
  return Number(process.hrtime.bigint() - t0);
}

// Grows the count until a run lasts 20 ms (long enough to time and to let the
// JIT settle), then scales it to the target duration.
function calibrate(iteration, targetSeconds) {
  for (let n = 1; ; n *= 4) {
    const ns = timeIterations(iteration, n);
    if (ns >= 20e6) return Math.max(1, Math.round((targetSeconds * 1e9 * n) / ns));
  }
}

// job: { group, workload, impl, calls, bytes, iteration }
function measure(job, { seconds, runs }) {
  const iterations = calibrate(job.iteration, seconds);
  const runNs = [];
  for (let r = 0; r < runs; r++) runNs.push(timeIterations(job.iteration, iterations));
  const { group, workload, impl, calls, bytes } = job;
  return { group, workload, impl, calls, bytes, iterations, run_ns: runNs };
}

module.exports = { measure, consume };
