'use strict';
// Order statistics for repeated benchmark runs. Medians and ranges rather than
// means: on a shared 2-core machine a single disturbed run skews a mean but
// not a median, and the range shows how disturbed the runs were.

function sorted(values) {
  return Float64Array.from(values).sort();
}

// Nearest-rank percentile (p in 0..100) of an ascending array.
function percentileOfSorted(ascending, p) {
  if (ascending.length === 0) return null;
  const rank = Math.ceil((p / 100) * ascending.length);
  return ascending[Math.min(ascending.length - 1, Math.max(0, rank - 1))];
}

function median(values) {
  const s = sorted(values);
  if (s.length === 0) return null;
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

// { median, min, max, n } of the finite numbers in values; null when none.
function summarize(values) {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return null;
  const s = sorted(finite);
  return { median: median(s), min: s[0], max: s[s.length - 1], n: s.length };
}

module.exports = { median, summarize, percentileOfSorted };
