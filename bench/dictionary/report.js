'use strict';
// The dictionary benchmark's section of bench/results/README.md (bench/lib/results-readme.js
// calls renderSection for the newest "dictionary" section): a table of bytes, a table of CPU
// time and their charts, all from the section.
const { markdownTable } = require('../../tools/report/markdown-table');
const { groupedBarChart } = require('../../tools/report/svg-chart');
const { CODINGS } = require('./measure');

const title = 'Compression dictionaries (RFC 9842): library releases as deltas';
const CHART_TITLES = Object.freeze({
  'dictionary-bytes.svg': 'Bytes of the newer release, % of the uncompressed file',
  'dictionary-compress-cpu.svg': 'CPU time to compress the newer release (median, min-max)',
  'dictionary-decompress-cpu.svg': 'CPU time to decompress it (median, min-max)',
});
const COMPRESSED = CODINGS.filter((c) => c !== 'identity');

const int = (n) => n.toLocaleString('en-US');
const ms = (n) => (n < 10 ? n.toFixed(2) : n.toFixed(1));
const pct = (part, whole) => `${((100 * part) / whole).toPrecision(2)}%`;
const right = (t) => ({ title: t, align: 'right' });
const release = (p) => `${p.from} → ${p.to}`;

function bytesTable(pairs) {
  const columns = [{ title: 'library' }, { title: 'releases' }, { title: 'file' }, ...CODINGS.map(right), right('dcb / br'), right('dcz / zstd')];
  return markdownTable(columns, pairs.map((p) => {
    const b = (coding) => p.codings[coding]?.bytes ?? null;
    const ratio = (delta, base) => (b(delta) === null || b(base) === null ? '-' : pct(b(delta), b(base)));
    return [p.name, release(p), `\`${p.file}\``, ...CODINGS.map((c) => (b(c) === null ? '-' : int(b(c)))), ratio('dcb', 'br'), ratio('dcz', 'zstd')];
  }));
}

function cpuTable(pairs) {
  const columns = [{ title: 'library' }, ...COMPRESSED.map(right)];
  return markdownTable(columns, pairs.map((p) => [p.name, ...COMPRESSED.map((c) => {
    const m = p.codings[c];
    return m === null ? '-' : `${ms(m.compressMs.median)} / ${ms(m.decompressMs.median)}`;
  })]));
}

function charts(pairs) {
  const categories = pairs.map((p) => p.name);
  const timeSeries = (key) => COMPRESSED.map((c) => ({
    name: c,
    values: pairs.map((p) => (p.codings[c] === null ? null : { value: p.codings[c][key].median, min: p.codings[c][key].min, max: p.codings[c][key].max })),
  }));
  return {
    'dictionary-bytes.svg': groupedBarChart({
      title: CHART_TITLES['dictionary-bytes.svg'],
      yLabel: '% of the file',
      xLabel: 'library (dcb and dcz against the previous release)',
      categories,
      series: COMPRESSED.map((c) => ({ name: c, values: pairs.map((p) => (p.codings[c] === null ? null : { value: (100 * p.codings[c].bytes) / p.codings.identity.bytes })) })),
      format: (n) => `${Number(n.toPrecision(2))}%`,
    }),
    'dictionary-compress-cpu.svg': groupedBarChart({
      title: CHART_TITLES['dictionary-compress-cpu.svg'],
      yLabel: 'ms of CPU',
      xLabel: 'library',
      categories,
      series: timeSeries('compressMs'),
      format: (n) => Number(n.toPrecision(3)).toString(),
    }),
    'dictionary-decompress-cpu.svg': groupedBarChart({
      title: CHART_TITLES['dictionary-decompress-cpu.svg'],
      yLabel: 'ms of CPU',
      xLabel: 'library',
      categories,
      series: timeSeries('decompressMs'),
      format: (n) => Number(n.toPrecision(3)).toString(),
    }),
  };
}

function settingsText(s) {
  const level = (o) => Object.entries(o).map(([k, v]) => `${k} ${v}`).join(', ');
  return `gzip (${level(s.gzip)}), br (${level(s.br)}), zstd (${level(s.zstd)}), dcb (quality and lgwin ${s.dcb ?? 'not available'}), dcz (level ${s.dcz ?? 'not available'})`;
}

function renderSection(section, { chartsHref }) {
  const svgs = charts(section.pairs);
  const markdown = [
    section.note ? `**Note:** ${section.note}\n` : null,
    `Each library: the file a page loads, from two consecutive releases fetched from the npm registry (\`npm pack\`); the newer release compressed by the server's own engines at their on-the-fly settings: ${settingsText(section.settings)}. dcb and dcz use the older release as the dictionary, as a browser holding it would announce. Every body was decoded and compared with the file.`,
    '',
    'Bytes of the newer release in each coding:',
    '',
    bytesTable(section.pairs).trimEnd(),
    '',
    `CPU milliseconds to compress / to decompress (process.cpuUsage, user + system, pool threads included; median of ${section.repetitions} runs, one operation at a time):`,
    '',
    cpuTable(section.pairs).trimEnd(),
    '',
    ...Object.entries(CHART_TITLES).map(([name, alt]) => `![${alt}](${chartsHref}/${name})`),
  ].filter((line) => line !== null);
  return { markdown: `${markdown.join('\n')}\n`, charts: svgs };
}

module.exports = { title, renderSection, bytesTable, cpuTable };
