'use strict';
// Raw benchmark lines (from the C binary and node-bench.js) into the result
// entries the results file keeps: per-call time and throughput as median and
// range over the timed runs.
const { summarize } = require('../lib/stats');

const jobId = (r) => `${r.group}/${r.workload}/${r.impl}`;

// lines: parsed JSON objects; returns { results, ratios } tagged with source.
function summarizeLines(lines, source) {
  const results = [];
  const ratios = [];
  for (const line of lines) {
    if (line.ratio) {
      ratios.push({ source, ...line.ratio, ratio: line.ratio.wire / line.ratio.plain });
      continue;
    }
    const { group, workload, impl, calls, bytes, iterations } = line;
    const runs = line.run_ns;
    results.push({
      source,
      group,
      workload,
      impl,
      calls,
      bytes,
      iterations,
      nsPerCall: summarize(runs.map((ns) => ns / (iterations * calls))),
      // MB = 10^6 bytes: bytes per ns times 1000.
      mbPerS: summarize(runs.map((ns) => ((bytes * iterations) / ns) * 1000)),
    });
  }
  return { results, ratios };
}

// Parses a child's stdout: one JSON object per non-empty line.
function parseLines(stdout, what) {
  return stdout.split('\n').filter((l) => l.trim()).map((l) => {
    try {
      return JSON.parse(l);
    } catch {
      throw Object.assign(new Error(`${what} printed a line that is not JSON: ${l.slice(0, 200)}`), { code: 'ERR_HPACK_BENCH_OUTPUT' });
    }
  });
}

// Lookup of results by source/group/workload/impl.
function indexResults(results) {
  const map = new Map(results.map((r) => [`${r.source}:${jobId(r)}`, r]));
  return (source, group, workload, impl) => map.get(`${source}:${group}/${workload}/${impl}`) ?? null;
}

module.exports = { summarizeLines, parseLines, indexResults, jobId };
