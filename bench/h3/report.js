'use strict';
// The "h3" section of bench/results/README.md (see bench/lib/results-readme.js): HTTP/3 beside
// HTTP/2 on one server process, a table of both, the HTTP/3 / HTTP/2 ratios per file, and
// grouped bar charts of CPU per request, req/s and header bytes per response.
const { markdownTable } = require('../../tools/report/markdown-table');
const { groupedBarChart } = require('../../tools/report/svg-chart');
const { LOADS } = require('../server/plan');
const { MIXES } = require('../server/corpus');

const title = 'HTTP/3 beside HTTP/2: one server process, the same files';
const PROTOCOL_LABELS = { h2: 'HTTP/2', h3: 'HTTP/3', h2paced: 'HTTP/2 at HTTP/3\'s pace' };

const int = (n) => Math.round(n).toLocaleString('en-US');
const fixed = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '-');
const median = (s, key, d = 1) => (s[key] ? fixed(s[key].median, d) : '-');

const COLUMNS = [
  { title: 'file' }, { title: 'load' }, { title: 'protocol' },
  { title: 'req/s', align: 'right' }, { title: 'range', align: 'right' }, { title: 'CPU µs/req', align: 'right' },
  { title: 'server core busy', align: 'right' }, { title: 'p50 / p99 ms', align: 'right' }, { title: 'errors', align: 'right' },
  { title: 'header B/resp', align: 'right' }, { title: 'body check' },
];

function check(s) {
  if (s.problems.length) return `✗ ${s.problems.map((p) => p.split('\n')[0].slice(0, 160)).join('; ')}`;
  return `✓ ${s.contentEncoding}`;
}

function headerCell(row) {
  const s = row.summary;
  if (!s.headerBytesPerResponse) return '-';
  if (row.protocol !== 'h3') return `${fixed(s.headerBytesPerResponse.median)} (HPACK)`;
  return `${fixed(s.headerBytesPerResponse.median)} (${median(s, 'sectionBytesPerResponse')} + ${median(s, 'encoderBytesPerResponse', 2)} encoder stream)`;
}

function tableRow(row, fileName) {
  const s = row.summary;
  const head = [fileName, LOADS[row.load].label, PROTOCOL_LABELS[row.protocol]];
  if (!s.reqPerSec) return [...head, 'failed', '', '', '', '', '', '', check(s)];
  return [
    ...head,
    int(s.reqPerSec.median), `${int(s.reqPerSec.min)}–${int(s.reqPerSec.max)}`, median(s, 'cpuUsPerRequest'),
    s.serverCpuShare ? `${Math.round(s.serverCpuShare.median * 100)}%` : '-',
    `${median(s, 'p50Ms', 2)} / ${median(s, 'p99Ms', 2)}`, int(s.errors), headerCell(row), check(s),
  ];
}

const CHART_METRICS = {
  cpu: { metric: 'cpuUsPerRequest', what: 'server CPU per request', y: 'µs' },
  rps: { metric: 'reqPerSec', what: 'requests per second', y: 'req/s' },
  headers: { metric: 'headerBytesPerResponse', what: 'header bytes per response (HPACK / QPACK)', y: 'bytes' },
};

function charts(rows, fileNames, chartsHref) {
  const categories = [...new Set(rows.map((r) => `${r.file}/${r.load}`))];
  const label = (c) => {
    const [file, load] = c.split('/');
    return `${fileNames[file]}${load === 'many' ? '' : `, ${LOADS[load].label}`}`;
  };
  const svgs = {};
  const links = [];
  for (const [name, m] of Object.entries(CHART_METRICS)) {
    const series = Object.entries(PROTOCOL_LABELS).map(([protocol, seriesName]) => ({
      name: seriesName,
      values: categories.map((c) => {
        const v = rows.find((r) => r.protocol === protocol && `${r.file}/${r.load}` === c)?.summary[m.metric];
        return v ? { value: v.median, min: v.min, max: v.max } : null;
      }),
    }));
    const file = `h3-${name}.svg`;
    svgs[file] = groupedBarChart({
      title: `HTTP/2 and HTTP/3: ${m.what}`, yLabel: `${m.y} (median; whisker: min–max)`, xLabel: 'file, load',
      categories: categories.map(label), series,
    });
    links.push(`![HTTP/2 and HTTP/3: ${m.what}](${chartsHref}/${file})`);
  }
  return { svgs, links };
}

// HTTP/3 over HTTP/2 for each file and load, from the medians; on loaded rows also over HTTP/2
// at HTTP/3's pace. Latency only one request at a time: loaded, the aioquic clients' own queue
// (requests in flight over their rate) is most of it.
function ratios(rows, fileNames) {
  const lines = [];
  for (const h3 of rows.filter((r) => r.protocol === 'h3')) {
    const other = (protocol) => rows.find((r) => r.protocol === protocol && r.file === h3.file && r.load === h3.load);
    const ratio = (h2, key) => (h2?.summary[key] && h3.summary[key] ? `${fixed(h3.summary[key].median / h2.summary[key].median, 2)}×` : '-');
    const h2 = other('h2');
    const paced = other('h2paced');
    lines.push(`- ${fileNames[h3.file]}, ${LOADS[h3.load].label}: CPU per request ${ratio(h2, 'cpuUsPerRequest')}`
      + `${paced ? ` (${ratio(paced, 'cpuUsPerRequest')} against HTTP/2 at the same pace)` : ''}, `
      + `${h3.load === 'one' ? `p50 latency ${ratio(h2, 'p50Ms')}, ` : ''}header bytes ${ratio(h2, 'headerBytesPerResponse')}`);
  }
  return lines;
}

function renderSection(section, { chartsHref }) {
  const { rows, config } = section;
  const fileNames = {
    ...Object.fromEntries(Object.entries(MIXES).map(([k, m]) => [k, m.name])),
    ...Object.fromEntries(Object.entries(section.corpus).map(([k, f]) => [k, f.name])),
  };
  const pin = config.pinning.off ? `no CPU pinning (${config.pinning.off})`
    : `the server pinned to CPU ${config.pinning.serverCpu}, load generators to CPU ${config.pinning.clientCpu}`;
  const loads = Object.entries(config.loads).map(([name, l]) => `${LOADS[name].label}: h2load \`${l.h2load}\`, ${l.h3}`
    + `${l.h2paced ? `, HTTP/2 at HTTP/3's pace \`${l.h2paced}\`` : ''}`).join('; ');
  const { svgs, links } = charts(rows, fileNames, chartsHref);
  const md = [
    section.note ? `**Note:** ${section.note}\n` : null,
    `One server process for every row (precompressed br files, \`--metrics\` on), ${config.warmUpS} s warm-up and`
    + ` ${config.durationS} s measured per run; ${config.repeat} run${config.repeat === 1 ? '' : 's'} of each row and protocol,`
    + ` the protocols alternating which goes first; median shown with the min–max range. Loads: ${loads}; ${pin}.`,
    'CPU µs/req is the server\'s utime+stime over the measured period divided by the responses the client completed;'
    + ' "server core busy" is that CPU time over the period\'s wall time: well under 100% means the client, not the server, set the pace.'
    + ' HTTP/2 header bytes are h2load\'s (HEADERS payloads received); HTTP/3 header bytes are what the server\'s QPACK encoder'
    + ' wrote (`negotiate_qpack_encoded_bytes_total`: HEADERS payloads plus encoder-stream instructions) over its HTTP/3 responses.'
    + ' Latency is what each client measures, its own processing included (h2load is C, aioquic Python).',
    `Server peak RSS over the whole run: ${int(section.server.peakRssBytes / 2 ** 20)} MiB.`,
    '',
    '**HTTP/3 / HTTP/2** (medians):',
    '',
    ...ratios(rows, fileNames),
    '',
    links.join('\n'),
    '',
    markdownTable(COLUMNS, rows.map((r) => tableRow(r, fileNames[r.file]))),
  ].filter((l) => l !== null);
  return { markdown: `${md.join('\n')}\n`, charts: svgs };
}

module.exports = { title, renderSection };
