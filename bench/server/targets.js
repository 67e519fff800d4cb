'use strict';
// The project's targets for the server benchmark and how a row is judged
// against them. Every ratio is computed from rows of the same run; nothing
// here holds a measured figure.
const { SERVERS } = require('./plan');

const MiB = 2 ** 20;

// where: the row fields a target applies to (any project server with one
// process and the default brotli engine, precompressed, unless said).
// Peer targets divide our median by the peer row's median (same protocol,
// file, mode, coding and load); lower: whether smaller is better.
const METRICS = {
  cpuUsPerRequest: { label: 'CPU/req', unit: 'µs', lower: true, format: (v) => v.toFixed(1) },
  reqPerSec: { label: 'req/s', unit: '', lower: false, format: (v) => Math.round(v).toLocaleString('en-US') },
  p50Ms: { label: 'p50 latency', unit: 'ms', lower: true, format: (v) => v.toFixed(2) },
  headerBytesPerResponse: { label: 'header B/resp', unit: 'B', lower: true, format: (v) => v.toFixed(1) },
};
const TARGETS = [
  { where: { protocol: 'h2', file: 'html', coding: 'br', load: 'many' }, metric: 'cpuUsPerRequest', peer: 'nginx-ofc', limit: 1.0 },
  { where: { protocol: 'h2', file: 'html', coding: 'br', load: 'many' }, metric: 'cpuUsPerRequest', peer: 'h2o', limit: 1.0, stretch: true },
  { where: { protocol: 'h2', file: 'js', coding: ['br', 'identity'], load: 'many' }, metric: 'reqPerSec', peer: 'nginx-ofc', limit: 1.0 },
  { where: { protocol: 'h2', file: 'html', coding: 'br', load: 'one' }, metric: 'p50Ms', peer: 'nginx-ofc', limit: 1.0 },
  { where: { protocol: 'h2', file: 'html', coding: 'br', load: 'many' }, rssBelowMiB: 100 },
  // HPACK (issue #24): with our encoder (the node engine's is Node's), a repeated file and a
  // page's files in turn cost no more header bytes per response than h2o's, never over 1.1×.
  { where: { protocol: 'h2', file: ['html', 'page'], coding: 'br', server: 'ours-native' }, metric: 'headerBytesPerResponse', peer: 'h2o', limit: 1.1 },
  { where: { protocol: 'h2', file: ['html', 'page'], coding: 'br', server: 'ours-native' }, metric: 'headerBytesPerResponse', peer: 'h2o', limit: 1.0, stretch: true },
  { where: { protocol: 'h1', file: 'html', coding: 'br', load: 'many' }, metric: 'cpuUsPerRequest', peer: 'nginx-ofc', limit: 1.0 },
  { where: { protocol: 'h1', file: 'js', coding: ['br', 'identity'], load: 'many' }, metric: 'reqPerSec', peer: 'nginx-ofc', limit: 1.0 },
  // On-the-fly compression (earlier targets): a warm cache serves nearly as
  // fast as precompressed files, and lzma's memory stays bounded.
  { where: { mode: 'warm' }, vsPrecompressed: 0.9 },
  { where: { coding: 'lzma', mode: ['warm', 'cold'] }, rssAtMostMiB: 300 },
];

const loadOf = (row) => row.load || 'many';
const measured = (row) => Boolean(row && row.summary && row.summary.reqPerSec);
const median = (row, metric) => row.summary[metric]?.median;
const ratio = (n) => `${n.toFixed(2)}×`;

function applies(target, row) {
  const spec = SERVERS[row.server];
  if (!spec || spec.impl !== 'project' || spec.workers !== 1 || spec.brotliEngine) return false;
  const where = { mode: 'static', ...target.where };
  return Object.entries(where).every(([k, v]) => {
    const actual = k === 'load' ? loadOf(row) : row[k];
    return Array.isArray(v) ? v.includes(actual) : actual === v;
  });
}

// find(row, changes) -> the measured row with those fields changed, or null.
function judge(target, row, find) {
  const rssMiB = row.summary.peakRssBytes.max / MiB;
  if (target.rssBelowMiB) {
    return { text: `peak RSS <${target.rssBelowMiB} MiB: ${Math.round(rssMiB)}`, ok: rssMiB < target.rssBelowMiB };
  }
  if (target.rssAtMostMiB) {
    return { text: `peak RSS ≤${target.rssAtMostMiB} MiB: ${Math.round(rssMiB)}`, ok: rssMiB <= target.rssAtMostMiB };
  }
  if (target.vsPrecompressed) {
    const stat = find(row, { mode: 'static' });
    if (!stat) return { text: 'no precompressed row to compare', ok: null };
    const r = median(row, 'reqPerSec') / median(stat, 'reqPerSec');
    return { text: `req/s ≥${target.vsPrecompressed}× precompressed: ${ratio(r)}`, ok: r >= target.vsPrecompressed };
  }
  const m = METRICS[target.metric];
  const peerLabel = SERVERS[target.peer].label;
  const goal = `${m.label} ${m.lower ? '≤' : '≥'}${target.limit.toFixed(1)}× ${peerLabel}${target.stretch ? ' (stretch)' : ''}`;
  const peer = find(row, { server: target.peer });
  const ours = median(row, target.metric);
  const theirs = peer && median(peer, target.metric);
  if (!Number.isFinite(ours) || !Number.isFinite(theirs) || theirs === 0) {
    return { text: `${goal}: no ${peerLabel} row to compare`, ok: null };
  }
  const r = ours / theirs;
  const unit = m.unit ? ` ${m.unit}` : '';
  return {
    text: `${goal}: ${ratio(r)} (${m.format(ours)} vs ${m.format(theirs)}${unit})`,
    ok: m.lower ? r <= target.limit : r >= target.limit,
    stretch: Boolean(target.stretch),
  };
}

// The targets that apply to a row: [{ text, ok (null: cannot tell), stretch }].
function rowTargets(row, find) {
  if (!measured(row)) return [];
  return TARGETS.filter((t) => applies(t, row)).map((t) => judge(t, row, find));
}

// A find() over a section's rows: the row with some fields changed.
function rowFinder(rows) {
  const key = (r) => `${r.protocol}/${r.file}/${r.mode}/${r.coding}/${r.server}/${loadOf(r)}`;
  const byKey = new Map(rows.map((r) => [key(r), r]));
  return (row, changes) => {
    const found = byKey.get(key({ ...row, ...changes }));
    return measured(found) ? found : null;
  };
}

module.exports = { TARGETS, rowTargets, rowFinder, loadOf };
