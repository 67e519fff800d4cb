'use strict';
// Unit-suffixed numbers as printed by wrk and h2load.

const DURATION_MS = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60000, h: 3600000 };
// wrk and h2load print binary multiples (KB = 1024) for byte counts.
const BYTES = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 };
const COUNT = { '': 1, k: 1e3, K: 1e3, M: 1e6, G: 1e9 };

function parseWithUnit(text, table, what) {
  const m = /^\s*([0-9]+(?:\.[0-9]+)?)\s*([a-zA-Zµ]*)\s*$/.exec(String(text));
  if (!m || !(m[2] in table)) throw new Error(`cannot parse ${what} "${text}"`);
  // toPrecision drops float noise such as 2.01 * 1000 = 2009.9999999999998.
  return Number((Number(m[1]) * table[m[2]]).toPrecision(12));
}

const parseDurationMs = (text) => parseWithUnit(text, DURATION_MS, 'duration');
const parseBytes = (text) => parseWithUnit(text, BYTES, 'byte count');
const parseCount = (text) => parseWithUnit(text, COUNT, 'count');

module.exports = { parseDurationMs, parseBytes, parseCount };
