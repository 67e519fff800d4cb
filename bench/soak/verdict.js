'use strict';
// The soak verdict: memory must plateau (the last window's peak RSS within 10% of the
// first window's) and nothing may fail. A window is a minute, or a third of runs shorter
// than two minutes (--quick), so the two windows never overlap.

const RSS_TOLERANCE = 0.10;

function windowSeconds(durationS) {
  return durationS >= 120 ? 60 : durationS / 3;
}

function peak(samples, from, to) {
  return samples.filter((s) => s.t >= from && s.t <= to).reduce((max, s) => Math.max(max, s.rssBytes), 0);
}

// failures: { name: count } of everything that must be zero.
function soakVerdict({ samples, durationS, failures }) {
  const w = windowSeconds(durationS);
  const end = samples.length ? samples[samples.length - 1].t : 0;
  const firstPeak = peak(samples, 0, w);
  const lastPeak = peak(samples, end - w, end);
  const growth = firstPeak > 0 ? lastPeak / firstPeak - 1 : null;
  const failed = Object.entries(failures).filter(([, n]) => n > 0);
  const reasons = [];
  if (growth === null) reasons.push('no RSS samples');
  else if (growth > RSS_TOLERANCE) reasons.push(`last-window peak RSS is ${(growth * 100).toFixed(1)}% above the first window's`);
  for (const [name, n] of failed) reasons.push(`${n} ${name}`);
  return { pass: reasons.length === 0, reasons, windowS: w, firstWindowPeakRssBytes: firstPeak, lastWindowPeakRssBytes: lastPeak, rssGrowth: growth, tolerance: RSS_TOLERANCE };
}

module.exports = { soakVerdict };
