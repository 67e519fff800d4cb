'use strict';
// Reduces the runs of one row to medians and ranges.
const { summarize } = require('../lib/stats');

const METRICS = {
  reqPerSec: (r) => r.reqPerSec,
  bytesPerSec: (r) => r.bytesPerSec,
  meanMs: (r) => r.latencyMs.mean,
  p50Ms: (r) => r.latencyMs.p50,
  p90Ms: (r) => r.latencyMs.p90,
  p99Ms: (r) => r.latencyMs.p99,
  maxMs: (r) => r.latencyMs.max,
  peakRssBytes: (r) => r.peakRssBytes,
  cpuSeconds: (r) => r.cpuSeconds,
  cpuUsPerRequest: (r) => r.cpuUsPerRequest,
  responseBytes: (r) => r.sample.bytes,
  // HTTP/2 rows only (wrk reports no header bytes).
  headerBytesPerResponse: (r) => r.headerBytesPerResponse ?? null,
};

// runs: measureRun results, or { error } for runs that failed.
function summarizeRuns(runs) {
  const ok = runs.filter((r) => !r.error);
  const summary = Object.fromEntries(Object.entries(METRICS).map(([name, get]) => [name, summarize(ok.map(get))]));
  summary.errors = ok.reduce((sum, r) => sum + r.errors.total, 0);
  summary.failedRuns = runs.length - ok.length;
  summary.h2loadHangs = ok.reduce((sum, r) => sum + (r.h2loadHangs || 0), 0);
  summary.problems = [...new Set([
    ...runs.filter((r) => r.error).map((r) => r.error),
    ...ok.filter((r) => !r.sample.ok).map((r) => r.sample.problem),
  ])];
  summary.contentEncoding = ok.length ? ok[0].sample.contentEncoding : null;
  return { runs, summary };
}

module.exports = { summarizeRuns };
