'use strict';
// The HPACK section of bench/results/README.md (bench/lib/results-readme.js
// calls renderSection for the newest "hpack" section), and the terminal
// summary run.js prints. Everything shown is computed from the section.
const { markdownTable } = require('../../tools/report/markdown-table');
const { groupedBarChart } = require('../../tools/report/svg-chart');
const { indexResults, jobId } = require('./summarize');
const { renderFigure1 } = require('./figure1');
const { DECODE, ENCODE, DEFAULT_ENCODER } = require('./targets');

const title = 'HPACK: the C core against libnghttp2, the Node binding against hpack.js';

const HUFFMAN_INPUTS = ['short-litespeed', 'medium-set-cookie', 'medium-backslash', 'long-prose', 'corpus-values'];
const HUFFMAN_DECODERS = ['big-table', '4bit', 'bitwise'];
const HUFFMAN_ENCODERS = ['big-table', 'bytewise'];
// The C implementation a Node row is compared with, to show what the binding costs.
const C_COUNTERPART = { 'huffman-decode': 'big-table', 'huffman-encode': 'big-table', decode: 'ours', encode: DEFAULT_ENCODER };

function sig(x, digits = 3) {
  if (x === null || x === undefined || !Number.isFinite(x)) return 'n/a';
  return Math.abs(x) >= 10 ** digits ? Math.round(x).toLocaleString('en-US') : String(Number(x.toPrecision(digits)));
}

function duration(ns) {
  if (ns >= 1e6) return `${sig(ns / 1e6)} ms`;
  if (ns >= 1e3) return `${sig(ns / 1e3)} µs`;
  return `${sig(ns)} ns`;
}

// Tables end in a newline of their own; the sections add the blank lines.
const table = (columns, rows) => markdownTable(columns, rows).trimEnd();

const timeCell = (r) => (r ? duration(r.nsPerCall.median) : 'n/a');
const rangeCell = (r) => (r ? `${duration(r.nsPerCall.min)} – ${duration(r.nsPerCall.max)}` : '');
const mbCell = (r) => (r ? sig(r.mbPerS.median) : 'n/a');
const instrCell = (r) => (r?.instrPerByte ? sig(r.instrPerByte) : '—');

function targetRows(targets) {
  const value = (t, v) => (v === null ? 'n/a' : `${sig(v, t.digits ?? 3)}${t.unit}`);
  return targets.map((t) => [
    t.what,
    `${t.op === '>=' ? '≥' : t.op === '<=' ? '≤' : '<'} ${value(t, t.limit)}`,
    value(t, t.measured) + (t.reference?.value ? ` (${t.reference.what}: ${sig(t.reference.value)})` : ''),
    t.pass === null ? 'not measured' : t.pass ? 'pass' : '**miss**',
  ]);
}

function huffmanTable(get) {
  const rows = [];
  for (const w of HUFFMAN_INPUTS) {
    for (const [group, coders] of [['huffman-decode', HUFFMAN_DECODERS], ['huffman-encode', HUFFMAN_ENCODERS]]) {
      for (const impl of coders) {
        const r = get('c', group, w, impl);
        if (r) rows.push([w, group.replace('huffman-', ''), impl, String(r.calls), String(r.bytes), timeCell(r), rangeCell(r), mbCell(r), instrCell(r)]);
      }
    }
  }
  return table([
    { title: 'input' }, { title: 'op' }, { title: 'coder' }, { title: 'calls per pass', align: 'right' }, { title: 'input bytes per pass', align: 'right' },
    { title: 'time per call', align: 'right' }, { title: 'range', align: 'right' }, { title: 'MB/s', align: 'right' },
    { title: 'instructions per byte', align: 'right' },
  ], rows);
}

function codecTable(get, results, ratios) {
  const ratioOf = (impl) => ratios.find((x) => x.source === 'c' && x.impl === impl);
  const rows = [];
  for (const [group, workload] of [['decode', DECODE], ['encode', ENCODE]]) {
    const impls = group === 'decode' ? ['ours', 'nghttp2'] : [DEFAULT_ENCODER, 'nghttp2'];
    for (const impl of impls) {
      const r = get('c', group, workload, impl);
      if (!r) continue;
      const ratio = group === 'encode' ? ratioOf(impl)?.ratio : null;
      rows.push([group, impl, timeCell(r), rangeCell(r), mbCell(r), instrCell(r), ratio ? ratio.toFixed(4) : '']);
    }
  }
  // The other strategies, for the paper's Figure 3 (encoding speed per strategy).
  for (const r of results.filter((x) => x.source === 'c' && x.group === 'encode' && x.impl.startsWith('ours-') && x.impl !== DEFAULT_ENCODER)) {
    rows.push(['encode', r.impl, timeCell(r), rangeCell(r), mbCell(r), instrCell(r), ratioOf(r.impl)?.ratio.toFixed(4) ?? '']);
  }
  return table([
    { title: 'op' }, { title: 'implementation' }, { title: 'time per header block', align: 'right' }, { title: 'range', align: 'right' },
    { title: 'MB/s (name+value)', align: 'right' }, { title: 'instructions per header byte', align: 'right' },
    { title: 'compression ratio', align: 'right' },
  ], rows);
}

function nodeTable(get, nodeResults) {
  const rows = nodeResults.map((r) => {
    const c = get('c', r.group, r.workload, C_COUNTERPART[r.group]);
    const native = get('node', r.group, r.workload, 'native');
    const vs = r.impl === 'native'
      ? (c ? `${sig(r.nsPerCall.median / c.nsPerCall.median)}x the C core` : '')
      : (native ? `${sig(r.nsPerCall.median / native.nsPerCall.median)}x the addon` : '');
    return [r.group, r.workload, r.impl, timeCell(r), rangeCell(r), mbCell(r), vs];
  });
  return table([
    { title: 'op' }, { title: 'workload' }, { title: 'implementation' }, { title: 'time per call', align: 'right' },
    { title: 'range', align: 'right' }, { title: 'MB/s', align: 'right' }, { title: 'time relative to', align: 'right' },
  ], rows);
}

// The jobs the instruction targets are about.
const HOT_JOBS = new Set([
  `decode/${DECODE}/ours`, `decode/${DECODE}/nghttp2`, `encode/${ENCODE}/${DEFAULT_ENCODER}`, `encode/${ENCODE}/nghttp2`,
  'huffman-decode/long-prose/big-table', 'huffman-encode/long-prose/big-table',
]);

function hotTable(results) {
  const rows = [];
  for (const r of results) {
    if (!r.hot || r.source !== 'c' || !HOT_JOBS.has(jobId(r))) continue;
    for (const h of r.hot) rows.push([`${r.group}/${r.workload}/${r.impl}`, h.fn, h.object ?? '', `${(h.share * 100).toFixed(1)}%`]);
  }
  return rows.length
    ? table([{ title: 'job' }, { title: 'function (self cost)' }, { title: 'object' }, { title: 'share', align: 'right' }], rows)
    : null;
}

function speedChart(get) {
  const series = HUFFMAN_DECODERS.map((impl) => ({
    name: `decode, ${impl}`,
    values: HUFFMAN_INPUTS.map((w) => {
      const r = get('c', 'huffman-decode', w, impl);
      return r ? { value: r.mbPerS.median, min: r.mbPerS.min, max: r.mbPerS.max } : null;
    }),
  }));
  return groupedBarChart({
    title: 'Huffman decode throughput, C (MB of Huffman-coded input per second; whiskers: range over runs)',
    yLabel: 'MB/s', xLabel: 'input', categories: HUFFMAN_INPUTS, series, width: 960,
  });
}

function codecChart(get) {
  const bar = (r) => (r ? { value: r.mbPerS.median, min: r.mbPerS.min, max: r.mbPerS.max } : null);
  return groupedBarChart({
    title: 'Full hpack-test-case decode and encode (MB of name+value per second)',
    yLabel: 'MB/s', xLabel: 'operation',
    categories: ['decode', 'encode'],
    series: [
      { name: 'ours (C)', values: [bar(get('c', 'decode', DECODE, 'ours')), bar(get('c', 'encode', ENCODE, DEFAULT_ENCODER))] },
      { name: 'libnghttp2', values: [bar(get('c', 'decode', DECODE, 'nghttp2')), bar(get('c', 'encode', ENCODE, 'nghttp2'))] },
      { name: 'ours via Node', values: [bar(get('node', 'decode', DECODE, 'native')), bar(get('node', 'encode', ENCODE, 'native'))] },
      { name: 'hpack.js', values: [bar(get('node', 'decode', DECODE, 'hpack.js')), bar(get('node', 'encode', ENCODE, 'hpack.js'))] },
    ],
  });
}

// Sentences comparing this run with the paper's text (its figures are images;
// the text states the qualitative results and a few numbers).
function paperComparison(section, get) {
  const ratio = (impl) => section.ratios.find((r) => r.source === 'c' && r.impl === impl) ?? null;
  const lines = [];
  const naive = ratio('ours-none');
  if (naive) lines.push(`- The paper notes that Naive is over 1.0 because of HPACK's framing overhead: ours is ${naive.ratio.toFixed(4)}.`);
  const [lin, linH] = [ratio('ours-linear'), ratio('ours-linear-huffman')];
  if (lin && linH) {
    lines.push(`- The paper measures Huffman coding saving 31.36 bytes per header block on average (HPACK draft 08, 31 stories); here Linear to LinearH saves ${sig((lin.wire - linH.wire) / linH.blocks)} bytes per block over ${linH.blocks} blocks in ${section.corpusStories ?? 'all'} stories.`);
  }
  lines.push('- Each element helps as the paper says: static table (Naive → Static), dynamic table (Static → Linear) and Huffman coding (X → XH) all lower the ratio; the reference set is gone from RFC 7541, so Diff/DiffH have no counterpart.');
  const corpus = (impl) => get('c', 'huffman-decode', 'corpus-values', impl);
  const [bit, four, big] = ['bitwise', '4bit', 'big-table'].map(corpus);
  if (bit && four && big) {
    lines.push(`- Huffman decoding of every corpus header value: the 4-bit decoder is ${sig(bit.nsPerCall.median / four.nsPerCall.median)}x and the big-table decoder ${sig(bit.nsPerCall.median / big.nsPerCall.median)}x as fast as the bit-by-bit one (the paper, in Haskell: 2^4-way 2.69x, 2^8-way 3.92x).`);
  }
  return lines.join('\n');
}

function renderSection(section, { chartsHref }) {
  const all = section.results;
  const get = indexResults(all);
  const m = section.method;
  const fig = renderFigure1(section);
  const parts = [];
  parts.push(
    `Each job runs for about ${m.seconds} s per timed run, ${m.runs} runs; figures are the median with the range over runs. ` +
    `${m.pinning}. C: \`${m.cflags}\` for the project's core, Debian's -O2 build of libnghttp2 ${section.tools?.libnghttp2 ?? ''}. ` +
    'MB = 10^6 bytes; Huffman decode counts Huffman-coded input bytes, Huffman encode plain bytes, the codecs name+value bytes. ' +
    'Every decode was checked against the expected headers, and every encoder\'s output decoded by both C libraries, before timing. ' +
    (m.callgrind
      ? `Instructions per byte: \`valgrind --tool=callgrind\`, ${m.callgrindBytes.toLocaleString('en-US')}+ input bytes per job, counting only the timed loop (callgrind files: \`bench/build/hpack/callgrind/\`).`
      : 'Instruction counts need `--callgrind`.'),
  );
  parts.push('', '### Targets', '', table(
    [{ title: 'target' }, { title: 'goal', align: 'right' }, { title: 'measured', align: 'right' }, { title: 'result' }],
    targetRows(section.targets),
  ));
  parts.push('', '### Huffman coding (C)', '', huffmanTable(get));
  parts.push('', `![Huffman decode throughput](${chartsHref}/hpack-huffman-decode.svg)`);
  parts.push('', '### Full header blocks over hpack-test-case (C)', '',
    `Decode: every story of \`hpack-test-case/${DECODE.replace(/-wire$/, '')}\`, a fresh decoder per story. Encode: every \`${ENCODE}\` story, a fresh encoder per story.`, '',
    codecTable(get, all, section.ratios));
  parts.push('', `![Codec throughput](${chartsHref}/hpack-codec.svg)`);
  const nodeResults = all.filter((r) => r.source === 'node');
  if (nodeResults.length) {
    parts.push('', '### Through Node (the addon beside hpack.js)', '',
      'The same workloads through `require(\'./native\')`, including building the JS strings and arrays, and through hpack.js, the pure-JS implementation on npm.', '',
      nodeTable(get, nodeResults));
  }
  parts.push('', '### Figure 1 of the paper, measured again', '', fig.table, '', `![Figure 1](${chartsHref}/hpack-figure1.svg)`, '', paperComparison(section, get));
  const hot = hotTable(all);
  if (hot) parts.push('', '### Where the instructions go (callgrind, self cost)', '', hot);
  if (section.notes?.length) parts.push('', '### Notes', '', ...section.notes.map((n) => `- ${n}`));
  return {
    markdown: `${parts.join('\n')}\n`,
    charts: {
      'hpack-huffman-decode.svg': speedChart(get),
      'hpack-codec.svg': codecChart(get),
      'hpack-figure1.svg': fig.svg,
    },
  };
}

// A plain-text summary for the terminal.
function renderTerminal(section) {
  const lines = [];
  const pad = (s, n) => String(s).padEnd(n);
  lines.push(`${pad('job', 48)} ${pad('time/call', 12)} ${pad('MB/s', 8)} instr/B`);
  for (const r of section.results) {
    lines.push(`${pad(`${r.source} ${r.group}/${r.workload}/${r.impl}`, 48)} ${pad(timeCell(r), 12)} ${pad(mbCell(r), 8)} ${instrCell(r)}`);
  }
  lines.push('', 'compression ratios (wire / name+value):');
  for (const r of section.ratios) lines.push(`  ${pad(`${r.source} ${r.impl}`, 30)} ${r.ratio.toFixed(4)}`);
  lines.push('', 'targets:');
  for (const row of targetRows(section.targets)) lines.push(`  ${pad(row[3].replace(/\*/g, ''), 12)} ${row[0]}: ${row[2]} (goal ${row[1]})`);
  return lines.join('\n');
}

module.exports = { title, renderSection, renderTerminal };
