'use strict';
// The paper's Figure 1 (Yamamoto, Tsujikawa, Oku, "Exploring HTTP/2 Header
// Compression", CFI'17): the compression ratio of the six encoding strategies
// over hpack-test-case, beside the ratios that the corpus's own encoder
// folders give. The haskell-http2-* folders come from the paper's Haskell
// library, so they are the figure's data for today's corpus.
const path = require('node:path');
const corpus = require('./corpus');
const { markdownTable } = require('../../tools/report/markdown-table');
const { groupedBarChart } = require('../../tools/report/svg-chart');

// Paper label, our strategy, the Haskell folder with the same strategy.
const STRATEGIES = [
  ['Naive', 'none', 'haskell-http2-naive'],
  ['NaiveH', 'none-huffman', 'haskell-http2-naive-huffman'],
  ['Static', 'static', 'haskell-http2-static'],
  ['StaticH', 'static-huffman', 'haskell-http2-static-huffman'],
  ['Linear', 'linear', 'haskell-http2-linear'],
  ['LinearH', 'linear-huffman', 'haskell-http2-linear-huffman'],
];
// Other encoders: label, the implementation measured in this run (if any), the corpus folder (if any).
const ENCODERS = [
  ['libnghttp2', { source: 'c', impl: 'nghttp2' }, 'nghttp2'],
  ['python-hpack', null, 'python-hpack'],
  ['go-hpack', null, 'go-hpack'],
  ['node-http2-hpack', null, 'node-http2-hpack'],
  ['hpack.js', { source: 'node', impl: 'hpack.js' }, null],
];
const FOLDERS = [...STRATEGIES.map((s) => s[2]), ...ENCODERS.map((e) => e[2]).filter(Boolean)];

// { folder: { wire, plain, ratio, stories } } from the corpus's wire data.
async function corpusFolderRatios(repoRoot) {
  const dir = corpus.corpusDir(repoRoot);
  const entries = await Promise.all(FOLDERS.map(async (folder) => {
    const stories = await corpus.loadStories(path.join(dir, folder));
    return [folder, { ...corpus.compressionRatio(stories), stories: stories.length }];
  }));
  return Object.fromEntries(entries);
}

// One row per bar group: { label, measured: ratio | null, folder: name | null, folderRatio }.
function figureRows(section) {
  const measured = (source, impl) => section.ratios.find((r) => r.source === source && r.impl === impl)?.ratio ?? null;
  const folderRatio = (folder) => (folder ? section.corpusRatios?.[folder]?.ratio ?? null : null);
  return [
    ...STRATEGIES.map(([label, strategy, folder]) => ({
      label, measuredBy: `ours, ${strategy}`, measured: measured('c', `ours-${strategy}`), folder, folderRatio: folderRatio(folder),
    })),
    ...ENCODERS.map(([label, m, folder]) => ({
      label, measuredBy: m ? `${m.impl} (${m.source === 'c' ? 'C API' : 'npm'})` : null,
      measured: m ? measured(m.source, m.impl) : null, folder, folderRatio: folderRatio(folder),
    })),
  ];
}

const fmt = (x) => (x === null ? 'n/a' : x.toFixed(4));

function renderFigure1(section) {
  const rows = figureRows(section);
  const table = markdownTable(
    [{ title: 'strategy / encoder' }, { title: 'measured here' }, { title: 'ratio', align: 'right' },
      { title: 'hpack-test-case folder' }, { title: 'folder ratio', align: 'right' }],
    rows.map((r) => [r.label, r.measuredBy ?? '', fmt(r.measured), r.folder ?? '', fmt(r.folderRatio)]),
  ).trimEnd();
  const point = (v) => (v === null ? null : { value: v });
  const svg = groupedBarChart({
    title: 'Figure 1 again: HPACK compression ratio over hpack-test-case (smaller is better)',
    yLabel: 'wire bytes / name+value bytes',
    xLabel: 'encoding strategy (this project vs the paper\'s Haskell library) and other encoders',
    categories: rows.map((r) => r.label),
    series: [
      { name: 'measured in this run', values: rows.map((r) => point(r.measured)) },
      { name: 'hpack-test-case wire data', values: rows.map((r) => point(r.folderRatio)) },
    ],
    format: (n) => n.toFixed(2),
    width: 1080,
  });
  return { table, svg, rows };
}

module.exports = { corpusFolderRatios, renderFigure1, figureRows, STRATEGIES };
