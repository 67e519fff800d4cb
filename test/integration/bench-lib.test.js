'use strict';
// Unit tests of the benchmark utilities (bench/lib) and of the server
// benchmark's plan, options and report. Parsers run on recorded wrk and
// h2load output (bench/lib/fixtures).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { spawn } = require('node:child_process');

const { median, summarize, percentileOfSorted } = require('../../bench/lib/stats');
const { parseDurationMs, parseBytes } = require('../../bench/lib/units');
const { parseWrkOutput } = require('../../bench/lib/wrk-output');
const { parseH2loadOutput, parseH2loadLog } = require('../../bench/lib/h2load-output');
const { markdownTable } = require('../../tools/report/markdown-table');
const { groupedBarChart, niceTicks, compactNumber } = require('../../tools/report/svg-chart');
const { ProcessGroupSampler, parseStat } = require('../../bench/lib/proc-sampler');
const { createPinning } = require('../../bench/lib/pinning');
const { decodeBody } = require('../../bench/lib/decode-body');
const { saveSection, loadResults, latestSections } = require('../../bench/lib/results-store');
const { buildReadme, writeReadme } = require('../../bench/lib/results-readme');

const FIXTURES = path.join(__dirname, '..', '..', 'bench', 'lib', 'fixtures');
const fixture = (name) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');

function tempDir(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-lib-test-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('stats: median, nearest-rank percentile and summary skip non-numbers', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.equal(median([]), null);
  assert.equal(percentileOfSorted([10, 20, 30, 40], 50), 20);
  assert.equal(percentileOfSorted([10, 20, 30, 40], 99), 40);
  assert.deepEqual(summarize([5, null, 1, NaN, 3]), { median: 3, min: 1, max: 5, n: 3 });
  assert.equal(summarize([null]), null);
});

test('units: wrk/h2load durations and binary byte multiples', () => {
  assert.equal(parseDurationMs('138us'), 0.138);
  assert.equal(parseDurationMs('2.01s'), 2010);
  assert.equal(parseBytes('1.50KB'), 1536);
  assert.equal(parseBytes('163B'), 163);
  assert.throws(() => parseBytes('12 furlongs'), /cannot parse byte count/);
});

test('wrk: recorded --latency output', () => {
  const r = parseWrkOutput(fixture('wrk-latency.txt'));
  assert.equal(r.requests, 16710);
  assert.equal(r.reqPerSec, 8324.16);
  assert.equal(r.bytesPerSec, 9.83 * 2 ** 20);
  assert.deepEqual(r.latencyMs, { mean: 11.52, max: 60.17, p50: 9.06, p75: 11.17, p90: 19.21, p99: 34.81 });
  assert.equal(r.errors.total, 0);
});

test('wrk: socket errors and non-2xx responses are counted', () => {
  const r = parseWrkOutput(fixture('wrk-errors.txt'));
  assert.deepEqual(r.errors, { connect: 0, read: 36, write: 0, timeout: 0, non2xx: 39, total: 75 });
  assert.throws(() => parseWrkOutput('unable to connect to 127.0.0.1:1 Connection refused'), { code: 'EWRKPARSE' });
});

test('h2load: recorded HTTP/2 summary', () => {
  const r = parseH2loadOutput(fixture('h2load-h2.txt'));
  assert.equal(r.protocol, 'h2');
  assert.equal(r.requests, 16963);
  assert.equal(r.reqPerSec, 8481.5);
  assert.equal(r.durationS, 2.01);
  assert.deepEqual(r.latencyMs, { min: 27.4, max: 113.37, mean: 51.91 });
  assert.equal(r.headerBytes, 191600);
  assert.equal(r.headerSavings, 0.9053);
  assert.equal(r.errors.total, 0);
});

test('h2load: failed requests and 4xx answers are errors', () => {
  const r = parseH2loadOutput(fixture('h2load-errors.txt'));
  assert.equal(r.protocol, 'http/1.1');
  assert.equal(r.errors.failed, 7);
  assert.equal(r.errors.non2xx, 7);
  assert.equal(r.errors.total, 7);
  assert.throws(() => parseH2loadOutput('starting benchmark...\n'), { code: 'EH2LOADPARSE' });
});

test('h2load: latency percentiles from the per-request log', async () => {
  const r = await parseH2loadLog(path.join(FIXTURES, 'h2load-log.tsv'));
  const elapsed = fixture('h2load-log.tsv').trim().split('\n').map((l) => Number(l.split('\t')[2])).sort((a, b) => a - b);
  assert.equal(r.count, elapsed.length);
  assert.equal(r.non2xx, 0);
  assert.equal(r.latencyMs.p50, elapsed[Math.ceil(elapsed.length / 2) - 1] / 1000);
  assert.equal(r.latencyMs.max, elapsed[elapsed.length - 1] / 1000);
});

test('markdown table: alignment rules, escaped pipes, width check', () => {
  const md = markdownTable([{ title: 'coding' }, { title: 'req/s', align: 'right' }], [['br|gzip', '1,234'], ['x\ny', null]]);
  assert.equal(md, '| coding | req/s |\n| :--- | ---: |\n| br\\|gzip | 1,234 |\n| x y |  |\n');
  assert.throws(() => markdownTable([{ title: 'a' }], [['1', '2']]), { code: 'ETABLEWIDTH' });
});

test('svg chart: ticks, legend, bars, whiskers, n/a, empty slots and escaping', () => {
  assert.deepEqual(niceTicks(23000), { step: 5000, top: 25000, ticks: [0, 5000, 10000, 15000, 20000, 25000] });
  assert.equal(compactNumber(21300), '21.3k');
  const svg = groupedBarChart({
    title: 'a <b> & c', yLabel: 'req/s', xLabel: 'coding', categories: ['br', 'zstd'],
    series: [
      { name: 'ours', values: [{ value: 8000, min: 7000, max: 9000 }, { value: 7000 }] },
      { name: 'nginx', values: [{ value: 20000 }, null] },
      { name: 'ours, on the fly', values: [{ value: 5000 }, undefined] },
    ],
  });
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(svg, /a &lt;b&gt; &amp; c/);
  assert.equal((svg.match(/<rect [^>]*><title>/g) || []).length, 4, 'one bar per value');
  assert.equal((svg.match(/>n\/a</g) || []).length, 1, 'n/a for null only, nothing for undefined');
  assert.equal((svg.match(/<path d="M/g) || []).length, 1, 'one whisker for the bar with a range');
  assert.match(svg, />ours</);
  assert.match(svg, />nginx</);
  assert.match(svg, />req\/s</);
});

test('proc sampler: /proc stat parsing survives odd command names', () => {
  const stat = '1234 (we ird) name)) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 1 0 100 0 0';
  assert.deepEqual(parseStat(stat), { pgrp: 1234, cpuTicks: 300 });
});

test('proc sampler: measures a live process group', async (t) => {
  const child = spawn(process.execPath, ['-e', 'const b = Buffer.alloc(32 << 20, 1); setTimeout(() => b, 5000)'], { detached: true, stdio: 'ignore' });
  t.after(() => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ } });
  const sampler = new ProcessGroupSampler(child.pid, { intervalMs: 50 }).start();
  await new Promise((r) => setTimeout(r, 600));
  const totals = await sampler.stop();
  assert.equal(totals.processes, 1);
  assert.ok(totals.peakRssBytes > 32 * 2 ** 20, `peak RSS ${totals.peakRssBytes} covers the 32 MiB buffer`);
  assert.ok(totals.cpuSeconds >= 0);
});

test('pinning: wraps with taskset only when it can', () => {
  assert.deepEqual(createPinning({ cpus: 2, hasTaskset: true }).wrap(1, 'wrk', ['-t1']), ['taskset', ['-c', '1', 'wrk', '-t1']]);
  const off = createPinning({ cpus: 1, hasTaskset: true });
  assert.equal(off.enabled, false);
  assert.match(off.reason, /only 1 CPU/);
  assert.deepEqual(off.wrap(1, 'wrk', ['-t1']), ['wrk', ['-t1']]);
});

test('decode body: every coding round-trips, unknown codings are refused', async () => {
  const src = Buffer.from('negotiate '.repeat(100));
  const lzma = await require('lzma-native').LZMA().compress(src, 6);
  assert.deepEqual(await decodeBody('br', zlib.brotliCompressSync(src)), src);
  assert.deepEqual(await decodeBody('gzip', zlib.gzipSync(src)), src);
  assert.deepEqual(await decodeBody('deflate', zlib.deflateSync(src)), src);
  assert.deepEqual(await decodeBody('zstd', require('zstd-napi').compress(src)), src);
  assert.deepEqual(await decodeBody('lzma', lzma), src);
  assert.deepEqual(await decodeBody(undefined, src), src);
  await assert.rejects(decodeBody('compress', src), { code: 'EUNKNOWNCODING' });
});

// A synthetic server-benchmark row with median == min == max.
function row(fields, reqPerSec, rssMiB) {
  const one = (v) => ({ median: v, min: v, max: v, n: 1 });
  return {
    ...fields,
    id: `${fields.protocol}/${fields.file}/${fields.mode}/${fields.coding}/${fields.server}/many`,
    load: 'many',
    skip: '',
    summary: {
      reqPerSec: one(reqPerSec), bytesPerSec: one(1e6), p50Ms: one(1), p90Ms: one(2), p99Ms: one(3), maxMs: one(4),
      peakRssBytes: one(rssMiB * 2 ** 20), cpuSeconds: one(1), cpuUsPerRequest: one(50), responseBytes: one(779),
      errors: 0, failedRuns: 0, problems: [], contentEncoding: fields.coding,
    },
  };
}

function sampleSection() {
  const base = { protocol: 'h1', file: 'html' };
  return {
    command: 'npm run bench:server -- --quick',
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:05:00.000Z',
    tools: { wrk: '4.1.0', h2load: '1.52.0', nginx: '1.22.1' },
    config: { plan: 'quick', durationS: 3, warmUpS: 1, repeat: 3, clients: { wrk: '-t1 -c100', h2load: '-c50 -m10' }, pinning: { serverCpu: 0, clientCpu: 1 }, loadAverageAtEnd: [1, 1, 1] },
    corpus: { html: { name: 'index.html', bytes: 3500, variants: { br: 779, zstd: 985, gzip: 983, lzma: 1004 } } },
    rows: [
      row({ ...base, mode: 'static', coding: 'br', server: 'ours' }, 9000, 80),
      row({ ...base, mode: 'static', coding: 'br', server: 'nginx' }, 10000, 20),
      row({ ...base, mode: 'static', coding: 'identity', server: 'ours' }, 8000, 80),
      row({ ...base, mode: 'warm', coding: 'lzma', server: 'ours' }, 100, 400),
      row({ ...base, mode: 'static', coding: 'lzma', server: 'ours' }, 9000, 80),
      row({ ...base, mode: 'static', coding: 'br', server: 'nginx-ofc' }, 12000, 20),
      { ...base, mode: 'static', coding: 'zstd', server: 'nginx', load: 'many', id: 'h1/html/static/zstd/nginx/many', skip: 'nginx (Debian) cannot serve precompressed zstd' },
    ],
  };
}

test('results: sections of different kinds share a file; README renders each kind', async (t) => {
  const dir = tempDir(t);
  const machine = { host: 'box', cpuModel: 'CPU', cores: 2, memoryGiB: 24, kernel: 'Linux 6', node: 'v20.20.0' };
  const file = await saveSection('server', sampleSection(), { machine, dir, date: '2026-01-01' });
  assert.equal(path.basename(file), '2026-01-01-box.json');
  await saveSection('made-up-kind', { command: 'node made-up.js', finishedAt: '2026-01-01T01:00:00Z' }, { machine, dir, date: '2026-01-01' });
  const results = await loadResults(dir);
  assert.deepEqual(Object.keys(results[0].doc.sections).sort(), ['made-up-kind', 'server']);
  assert.deepEqual([...latestSections(results).keys()].sort(), ['made-up-kind', 'server']);

  const { markdown, charts } = await buildReadme(dir);
  assert.match(markdown, /## Server: ours against nginx and h2o/);
  assert.match(markdown, /Command: `npm run bench:server -- --quick`/);
  assert.match(markdown, /\| index\.html \| precompressed \| br \| loaded \| ours, node engine \| 9,000 \|/);
  assert.match(markdown, /\| n\/a \|/);
  assert.match(markdown, /✓ HTTPS\/1\.1 \(wrk\), index\.html, precompressed br, ours, node engine: CPU\/req ≤1\.0× nginx \+ open_file_cache: 1\.00× \(50\.0 vs 50\.0 µs\)/);
  assert.match(markdown, /!\[[^\]]*\]\(charts\/server-h1-cpu\.svg\)/);
  for (const name of ['reqs', 'cpu', 'rss', 'p50']) assert.ok(charts[`server-h1-${name}.svg`].startsWith('<svg'), name);
  assert.match(markdown, /## made-up-kind\n[^]*No renderer for this kind/, 'a kind without a renderer still gets a section');

  await writeReadme(dir);
  assert.ok(fs.existsSync(path.join(dir, 'README.md')));
  assert.ok(fs.existsSync(path.join(dir, 'charts', 'server-h1-cpu.svg')));
});
