'use strict';
// The "server" section of bench/results/README.md (see bench/lib/results-readme.js):
// targets, one table per protocol and grouped bar charts of req/s and peak RSS.
const { markdownTable } = require('../lib/markdown-table');
const { groupedBarChart } = require('../lib/svg-chart');
const { SERVERS, MODES, CODINGS, PROTOCOLS } = require('./plan');

const title = 'Server: ours against nginx over HTTPS/1.1 and HTTP/2';
const MiB = 2 ** 20;

// Targets from the project brief.
const TARGET = { vsNginx: 0.8, headlineRssMiB: 150, warmVsStatic: 0.9, lzmaRssMiB: 300 };
// Which nginx row an ours row is compared with: the same number of processes.
const NGINX_PEER = { ours: 'nginx', 'ours-w2': 'nginx-w2', 'ours-iltorb': 'nginx' };

const int = (n) => Math.round(n).toLocaleString('en-US');
const fixed = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '-');
const ratio = (n) => `${n.toFixed(2)}x`;
const mark = (ok) => (ok ? '✓' : '✗');

function indexRows(rows) {
  const byKey = new Map(rows.map((r) => [`${r.protocol}/${r.file}/${r.mode}/${r.coding}/${r.server}`, r]));
  return (r, changes) => {
    const k = { ...r, ...changes };
    const found = byKey.get(`${k.protocol}/${k.file}/${k.mode}/${k.coding}/${k.server}`);
    return found && found.summary && found.summary.reqPerSec ? found : null;
  };
}

const median = (row, metric) => row.summary[metric]?.median;
const maxRssMiB = (row) => row.summary.peakRssBytes.max / MiB;

// ours req/s over the matching nginx row's, or null.
function vsNginx(row, find) {
  const peer = NGINX_PEER[row.server];
  const nginx = peer && find(row, { server: peer, mode: 'static' });
  return nginx ? median(row, 'reqPerSec') / median(nginx, 'reqPerSec') : null;
}

// The targets that apply to a row: [{ text, ok }].
function rowTargets(row, find) {
  if (!row.summary || !row.summary.reqPerSec) return [];
  const out = [];
  if (row.server === 'ours' && row.mode === 'static' && row.file === 'html' && row.coding === 'br') {
    const r = vsNginx(row, find);
    if (r !== null) out.push({ text: `≥${TARGET.vsNginx}x nginx: ${ratio(r)}`, ok: r >= TARGET.vsNginx });
    out.push({ text: `RSS <${TARGET.headlineRssMiB} MiB: ${int(maxRssMiB(row))}`, ok: maxRssMiB(row) < TARGET.headlineRssMiB });
  }
  if (row.mode === 'warm') {
    const stat = find(row, { mode: 'static', server: 'ours' });
    if (stat) {
      const r = median(row, 'reqPerSec') / median(stat, 'reqPerSec');
      out.push({ text: `≥${TARGET.warmVsStatic}x precompressed: ${ratio(r)}`, ok: r >= TARGET.warmVsStatic });
    } else out.push({ text: 'no precompressed row to compare', ok: null });
  }
  if (row.coding === 'lzma' && row.mode !== 'static') {
    out.push({ text: `RSS ≤${TARGET.lzmaRssMiB} MiB: ${int(maxRssMiB(row))}`, ok: maxRssMiB(row) <= TARGET.lzmaRssMiB });
  }
  return out;
}

function targetCell(targets) {
  return targets.map((t) => `${t.text}${t.ok === null ? '' : ` ${mark(t.ok)}`}`).join('; ');
}

// Table cells get the first line of a problem; the JSON keeps all of it.
const brief = (problem) => problem.split('\n')[0].slice(0, 160);

function checkCell(row) {
  const s = row.summary;
  if (!s.reqPerSec) return `failed: ${s.problems.map(brief).join('; ')}`;
  if (s.problems.length) return `✗ ${s.problems.map(brief).join('; ')}`;
  return `✓ ${s.contentEncoding}`;
}

const COLUMNS = [
  { title: 'file' }, { title: 'mode' }, { title: 'coding' }, { title: 'server' },
  { title: 'req/s', align: 'right' }, { title: 'range', align: 'right' }, { title: 'MiB/s', align: 'right' },
  { title: 'p50 / p90 / p99 ms', align: 'right' }, { title: 'errors', align: 'right' },
  { title: 'peak RSS MiB', align: 'right' }, { title: 'CPU µs/req', align: 'right' }, { title: 'body B', align: 'right' },
  { title: 'body check' }, { title: 'vs nginx', align: 'right' }, { title: 'target' },
];

function tableRow(row, find, fileNames) {
  const head = [fileNames[row.file], MODES[row.mode].label, row.coding, SERVERS[row.server].label];
  if (row.skip) return [...head, 'n/a', '', '', '', '', '', '', '', row.skip, '', ''];
  const s = row.summary;
  if (!s.reqPerSec) return [...head, 'failed', '', '', '', '', '', '', '', checkCell(row), '', ''];
  const r = vsNginx(row, find);
  return [
    ...head,
    int(s.reqPerSec.median),
    `${int(s.reqPerSec.min)}–${int(s.reqPerSec.max)}`,
    fixed(s.bytesPerSec.median / MiB),
    `${fixed(s.p50Ms.median)} / ${fixed(s.p90Ms.median)} / ${fixed(s.p99Ms.median)}`,
    int(s.errors),
    int(s.peakRssBytes.max / MiB),
    s.cpuUsPerRequest ? int(s.cpuUsPerRequest.median) : '-',
    int(s.responseBytes.median),
    checkCell(row),
    r === null ? '' : ratio(r),
    targetCell(rowTargets(row, find)),
  ];
}

// nginx rows are always precompressed; ours say which way they were served.
function seriesName(server, mode) {
  return SERVERS[server].impl === 'nginx' ? SERVERS[server].label : `${SERVERS[server].label}, ${MODES[mode].label}`;
}

// Per protocol and file: one req/s and one peak-RSS chart, codings on the x
// axis and one bar per server and mode. Files measured with a single coding
// get no chart; their table rows say it all.
function charts(rows, section, chartsHref) {
  const out = {};
  const links = {};
  for (const protocol of Object.keys(PROTOCOLS)) {
    for (const file of Object.keys(section.corpus)) {
      const measured = rows.filter((r) => r.protocol === protocol && r.file === file);
      const codings = CODINGS.filter((c) => measured.some((r) => r.coding === c));
      if (codings.length < 2) continue;
      const series = [];
      for (const mode of Object.keys(MODES)) {
        for (const server of Object.keys(SERVERS)) {
          const own = measured.filter((r) => r.mode === mode && r.server === server);
          if (own.length) series.push({ name: seriesName(server, mode), rows: own });
        }
      }
      const f = section.corpus[file];
      const values = (metric, scale) => series.map((s) => ({
        name: s.name,
        values: codings.map((c) => {
          const r = s.rows.find((x) => x.coding === c);
          if (!r) return undefined;
          const m = r.summary && r.summary[metric];
          return m ? { value: m.median / scale, min: m.min / scale, max: m.max / scale } : null;
        }),
      }));
      const what = `${f.name} (${(f.bytes / 1024).toFixed(1)} KiB), ${PROTOCOLS[protocol]}`;
      const base = `server-${protocol}-${file}`;
      out[`${base}-reqs.svg`] = groupedBarChart({
        title: `${what}: requests per second`, yLabel: 'requests/s (median; whisker: min–max)',
        xLabel: 'content-coding', categories: codings, series: values('reqPerSec', 1),
      });
      out[`${base}-rss.svg`] = groupedBarChart({
        title: `${what}: peak RSS of the server processes`, yLabel: 'peak RSS, MiB (median; whisker: min–max)',
        xLabel: 'content-coding', categories: codings, series: values('peakRssBytes', MiB),
      });
      (links[protocol] ||= []).push(`![${what}: req/s](${chartsHref}/${base}-reqs.svg)`, `![${what}: peak RSS](${chartsHref}/${base}-rss.svg)`);
    }
  }
  return { svgs: out, links };
}

function corpusTable(corpus) {
  const cols = [{ title: 'file' }, { title: 'bytes', align: 'right' }, ...['br', 'zstd', 'gzip', 'lzma'].map((c) => ({ title: `${c} bytes`, align: 'right' }))];
  return markdownTable(cols, Object.values(corpus).map((f) => [
    f.name, int(f.bytes), ...['br', 'zstd', 'gzip', 'lzma'].map((c) => (f.variants[c] === null ? '-' : int(f.variants[c]))),
  ]));
}

function renderSection(section, { chartsHref }) {
  const { rows, config } = section;
  const find = indexRows(rows);
  const fileNames = Object.fromEntries(Object.entries(section.corpus).map(([k, f]) => [k, f.name]));
  const targets = rows.flatMap((r) => rowTargets(r, find).filter((t) => t.ok !== null)
    .map((t) => `- ${mark(t.ok)} ${PROTOCOLS[r.protocol]}, ${fileNames[r.file]}, ${MODES[r.mode].label} ${r.coding}, ${SERVERS[r.server].label}: ${t.text}`));
  const { svgs, links } = charts(rows, section, chartsHref);
  const pin = config.pinning.off ? `no CPU pinning (${config.pinning.off})`
    : `servers pinned to CPU ${config.pinning.serverCpu}, load generator to CPU ${config.pinning.clientCpu}`;
  const md = [
    `Each row: a freshly started server, ${config.warmUpS} s warm-up (none for cold rows), ${config.durationS} s measured;`
    + ` ${config.repeat} run${config.repeat === 1 ? '' : 's'}, median shown with the min–max range. wrk \`${config.clients.wrk}\`, h2load \`${config.clients.h2load}\`;`
    + ` ${pin}. Load average at the end: ${config.loadAverageAtEnd.map((l) => l.toFixed(2)).join(', ')}.`,
    'Peak RSS sums VmHWM over every server process (workers included); CPU is utime+stime of the server processes during the measured period.',
    '"vs nginx" divides our req/s by nginx\'s with the same number of processes, file, coding and protocol, in the same run.',
    '',
    '**Corpus** (precompressed variants as written by `server/precompress.js`):',
    '',
    corpusTable(section.corpus),
    '**Targets**',
    '',
    targets.length ? targets.join('\n') : '- none of the target rows were in this run',
  ];
  for (const [protocol, label] of Object.entries(PROTOCOLS)) {
    const own = rows.filter((r) => r.protocol === protocol);
    if (!own.length) continue;
    md.push('', `### ${label}`, '');
    if (links[protocol]) md.push(links[protocol].join('\n'), '');
    md.push(markdownTable(COLUMNS, own.map((r) => tableRow(r, find, fileNames))));
  }
  return { markdown: `${md.join('\n')}\n`, charts: svgs };
}

module.exports = { title, renderSection, rowTargets, TARGET };
