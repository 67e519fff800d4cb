'use strict';
// The report of `negotiate-h2 codings`: a Markdown table (also readable in a terminal) and two
// SVG bar charts in the style of the benchmark pages.

const { markdownTable } = require('../report/markdown-table');
const { groupedBarChart } = require('../report/svg-chart');
const { formatBytes } = require('../report/format-bytes');

const ratio = (r) => r.outputBytes / r.inputBytes;

function table(rows, picks) {
  const columns = [
    { title: 'coding' }, { title: 'level', align: 'right' }, { title: 'size', align: 'right' }, { title: 'ratio', align: 'right' },
    { title: 'compress MB/s', align: 'right' }, { title: 'decompress MB/s', align: 'right' }, { title: 'peak memory', align: 'right' },
    { title: 'pick' },
  ];
  return markdownTable(columns, rows.map((r) => [
    r.coding, r.level, formatBytes(r.outputBytes), `${(100 * ratio(r)).toFixed(1)}%`,
    r.compressMBps.toFixed(1), r.decompressMBps.toFixed(1), formatBytes(r.memoryBytes),
    [picks[r.coding].precompress === r.level && 'precompress', picks[r.coding].dynamic === r.level && 'on the fly'].filter(Boolean).join(', '),
  ]));
}

// Per coding: its fastest measured level next to the two picks.
function chartSeries(rows, picks, value) {
  const codings = Object.keys(picks);
  const at = (coding, level) => {
    const row = rows.find((r) => r.coding === coding && r.level === level);
    return row === undefined ? undefined : { value: value(row) };
  };
  const fastest = (coding) => rows.filter((r) => r.coding === coding).reduce((a, b) => (b.compressMBps > a.compressMBps ? b : a)).level;
  return {
    categories: codings,
    series: [
      { name: 'fastest level measured', values: codings.map((c) => at(c, fastest(c))) },
      { name: 'on-the-fly pick', values: codings.map((c) => at(c, picks[c].dynamic)) },
      { name: 'precompress pick', values: codings.map((c) => (picks[c].precompress === null ? undefined : at(c, picks[c].precompress))) },
    ],
  };
}

function charts(rows, picks, subtitle) {
  return {
    'ratio.svg': groupedBarChart({
      title: `Compressed size, % of the original (${subtitle})`, yLabel: '% of original size',
      ...chartSeries(rows, picks, (r) => 100 * ratio(r)), format: (n) => `${Number(n.toPrecision(3))}%`,
    }),
    'speed.svg': groupedBarChart({
      title: `Compression speed, one core (${subtitle})`, yLabel: 'MB/s of input',
      ...chartSeries(rows, picks, (r) => r.compressMBps),
    }),
  };
}

module.exports = { table, charts };
