'use strict';
// The "server" section of bench/results/README.md (see bench/lib/results-readme.js):
// the targets, the seed article's table beside ours, one table per protocol,
// and grouped bar charts of req/s, CPU per request and peak RSS.
const { markdownTable } = require('../../tools/report/markdown-table');
const { groupedBarChart } = require('../../tools/report/svg-chart');
const { SERVERS, MODES, LOADS, PROTOCOLS } = require('./plan');
const { rowTargets, rowFinder, loadOf } = require('./targets');
const { SEED_ROWS, SEED_FILE, SEED_PROTOCOL } = require('./seed');
const { acceptEncodings } = require('./accept-encodings');
const { MIXES } = require('./corpus');

const title = 'Server: ours against nginx and h2o over HTTPS/1.1 and HTTP/2';
const MiB = 2 ** 20;

const int = (n) => Math.round(n).toLocaleString('en-US');
const fixed = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '-');
const mark = (ok) => (ok ? '✓' : '✗');
const serverLabel = (server) => SERVERS[server]?.label ?? server;
const loadLabel = (row) => LOADS[loadOf(row)].label;

function targetCell(targets) {
  return targets.map((t) => `${t.text}${t.ok === null ? '' : ` ${mark(t.ok)}`}`).join('; ');
}

// Table cells get the first line of a problem; the JSON keeps all of it.
const brief = (problem) => problem.split('\n')[0].slice(0, 160);

function checkCell(row) {
  const s = row.summary;
  if (!s.reqPerSec) return `failed: ${s.problems.map(brief).join('; ')}`;
  if (s.problems.length) return `✗ ${s.problems.map(brief).join('; ')}`;
  return `✓ ${s.contentEncoding}${s.h2loadHangs ? ` (${s.h2loadHangs} hung h2load run${s.h2loadHangs > 1 ? 's' : ''} repeated)` : ''}`;
}

const COLUMNS = [
  { title: 'file' }, { title: 'mode' }, { title: 'coding' }, { title: 'load' }, { title: 'server' },
  { title: 'req/s', align: 'right' }, { title: 'range', align: 'right' }, { title: 'MiB/s', align: 'right' },
  { title: 'p50 / p90 / p99 ms', align: 'right' }, { title: 'errors', align: 'right' },
  { title: 'peak RSS MiB', align: 'right' }, { title: 'CPU µs/req', align: 'right' }, { title: 'body B', align: 'right' },
  { title: 'header B/resp', align: 'right' }, { title: 'body check' }, { title: 'targets' },
];

function tableRow(row, find, fileNames) {
  const head = [fileNames[row.file], MODES[row.mode].label, row.coding, loadLabel(row), serverLabel(row.server)];
  const blank = (first, check) => [...head, first, '', '', '', '', '', '', '', '', check, ''];
  if (row.skip) return blank('n/a', row.skip);
  const s = row.summary;
  if (!s.reqPerSec) return blank('failed', checkCell(row));
  return [
    ...head,
    int(s.reqPerSec.median),
    `${int(s.reqPerSec.min)}–${int(s.reqPerSec.max)}`,
    fixed(s.bytesPerSec.median / MiB),
    `${fixed(s.p50Ms.median, 2)} / ${fixed(s.p90Ms.median, 2)} / ${fixed(s.p99Ms.median, 2)}`,
    int(s.errors),
    int(s.peakRssBytes.max / MiB),
    s.cpuUsPerRequest ? fixed(s.cpuUsPerRequest.median) : '-',
    int(s.responseBytes.median),
    s.headerBytesPerResponse ? fixed(s.headerBytesPerResponse.median) : '-',
    checkCell(row),
    targetCell(rowTargets(row, find)),
  ];
}

// One chart per protocol and metric: an x category per (file, mode, coding,
// load) that more than one server served, a bar per server.
const CHART_METRICS = {
  reqs: { metric: 'reqPerSec', scale: 1, what: 'requests per second', y: 'requests/s' },
  cpu: { metric: 'cpuUsPerRequest', scale: 1, what: 'server CPU time per request', y: 'CPU µs per request' },
  rss: { metric: 'peakRssBytes', scale: MiB, what: 'peak RSS of the server processes', y: 'peak RSS, MiB' },
  p50: { metric: 'p50Ms', scale: 1, what: 'median latency', y: 'p50 latency, ms' },
  // h2load counts the HEADERS payloads: what HPACK made of each response's fields.
  headers: { metric: 'headerBytesPerResponse', scale: 1, what: 'header bytes per response', y: 'HPACK octets per response', protocols: ['h2'] },
};

function categoryLabel(row, fileNames) {
  const mode = row.mode === 'static' ? '' : ` ${MODES[row.mode].label}`;
  const load = loadOf(row) === 'many' ? '' : `, ${LOADS[loadOf(row)].label}`;
  return `${fileNames[row.file]}${mode} ${row.coding}${load}`;
}

function charts(rows, fileNames, chartsHref) {
  const svgs = {};
  const links = {};
  for (const protocol of Object.keys(PROTOCOLS)) {
    const own = rows.filter((r) => r.protocol === protocol && !r.skip);
    const byCategory = new Map();
    for (const r of own) {
      const c = categoryLabel(r, fileNames);
      byCategory.set(c, [...(byCategory.get(c) || []), r]);
    }
    const categories = [...byCategory.keys()].filter((c) => byCategory.get(c).length > 1);
    if (!categories.length) continue;
    const servers = Object.keys(SERVERS).filter((s) => categories.some((c) => byCategory.get(c).some((r) => r.server === s)));
    for (const [name, m] of Object.entries(CHART_METRICS)) {
      if (m.protocols && !m.protocols.includes(protocol)) continue;
      const series = servers.map((server) => ({
        name: serverLabel(server),
        values: categories.map((c) => {
          const r = byCategory.get(c).find((x) => x.server === server);
          if (!r) return undefined;
          const v = r.summary && r.summary[m.metric];
          return v ? { value: v.median / m.scale, min: v.min / m.scale, max: v.max / m.scale } : null;
        }),
      }));
      const file = `server-${protocol}-${name}.svg`;
      svgs[file] = groupedBarChart({
        title: `${PROTOCOLS[protocol]}: ${m.what}`, yLabel: `${m.y} (median; whisker: min–max)`,
        xLabel: 'file, coding, load', categories, series, width: Math.max(880, 140 * categories.length),
      });
      (links[protocol] ||= []).push(`![${PROTOCOLS[protocol]}: ${m.what}](${chartsHref}/${file})`);
    }
  }
  return { svgs, links };
}

// The seed's rows beside ours: the same method measured with our server
// (the native engine's row when there is one).
function seedTable(rows, find) {
  const ours = ['ours-native', 'ours'];
  const lines = SEED_ROWS.map((seed) => {
    const base = { protocol: SEED_PROTOCOL, file: SEED_FILE, mode: seed.mode, coding: seed.coding, load: 'many' };
    const row = ours.map((server) => find(base, { server })).find(Boolean);
    const s = row && row.summary;
    return [
      seed.method, `${MODES[seed.mode].label} ${seed.coding}`,
      int(seed.reqPerSec), s ? int(s.reqPerSec.median) : '-',
      fixed(seed.mbPerSec, 2), s ? fixed(s.bytesPerSec.median / MiB, 2) : '-',
      fixed(seed.maxRssMb), s ? fixed(s.peakRssBytes.max / MiB) : '-',
      fixed(seed.latencyMs, 2), s && s.meanMs ? fixed(s.meanMs.median, 2) : '-',
      s ? serverLabel(row.server) : 'not measured',
    ];
  });
  if (!lines.some((l) => l[3] !== '-')) return null;
  const cols = [
    { title: 'seed method' }, { title: 'our row' },
    { title: 'seed req/s', align: 'right' }, { title: 'our req/s', align: 'right' },
    { title: 'seed MB/s', align: 'right' }, { title: 'our MiB/s', align: 'right' },
    { title: 'seed max RSS MB', align: 'right' }, { title: 'our peak RSS MiB', align: 'right' },
    { title: 'seed avg latency ms', align: 'right' }, { title: 'our mean latency ms', align: 'right' },
    { title: 'server' },
  ];
  return markdownTable(cols, lines);
}

function corpusTable(corpus) {
  const cols = [{ title: 'file' }, { title: 'bytes', align: 'right' }, ...['br', 'zstd', 'gzip', 'lzma'].map((c) => ({ title: `${c} bytes`, align: 'right' }))];
  return markdownTable(cols, Object.values(corpus).map((f) => [
    f.name, int(f.bytes), ...['br', 'zstd', 'gzip', 'lzma'].map((c) => (f.variants[c] === null ? '-' : int(f.variants[c]))),
  ]));
}

// Sections saved before loads existed hold one client setting for all rows.
function clientsText(clients) {
  if (clients.wrk) return `wrk \`${clients.wrk}\`, h2load \`${clients.h2load}\``;
  return Object.entries(clients).map(([load, c]) => `${LOADS[load]?.label ?? load}: wrk \`${c.wrk}\`, h2load \`${c.h2load}\``).join('; ');
}

function headersText() {
  const list = (coding) => acceptEncodings(coding).map((h) => `${h.client} (\`${h.header ?? 'no header'}\`)`).join(', ');
  return `wrk runs \`bench/wrk/rotate.lua\`, which rotates real clients' Accept-Encoding headers: for br ${list('br')};`
    + ` for identity ${list('identity')}; for gzip ${list('gzip')}; other codings by name. h2load sends the first of them.`
    + ` Page rows request ${Object.values(MIXES).map((m) => m.files.join(', ')).join('; ')} in turn (PNG as identity).`;
}

function renderSection(section, { chartsHref }) {
  const { rows, config } = section;
  const find = rowFinder(rows);
  const fileNames = {
    ...Object.fromEntries(Object.entries(MIXES).map(([k, m]) => [k, m.name])),
    ...Object.fromEntries(Object.entries(section.corpus).map(([k, f]) => [k, f.name])),
  };
  const targets = rows.flatMap((r) => rowTargets(r, find)
    .map((t) => `- ${t.ok === null ? '?' : mark(t.ok)} ${PROTOCOLS[r.protocol]}, ${fileNames[r.file]}, ${MODES[r.mode].label} ${r.coding}`
      + `${loadOf(r) === 'many' ? '' : `, ${loadLabel(r)}`}, ${serverLabel(r.server)}: ${t.text}`));
  const { svgs, links } = charts(rows, fileNames, chartsHref);
  const pin = config.pinning.off ? `no CPU pinning (${config.pinning.off})`
    : `servers pinned to CPU ${config.pinning.serverCpu}, load generators to CPU ${config.pinning.clientCpu}`;
  const seed = seedTable(rows, find);
  const loads = (l) => l.map((x) => x.toFixed(2)).join(', ');
  const md = [
    section.note ? `**Note:** ${section.note}\n` : null,
    `Each row: a freshly started server, ${config.warmUpS} s warm-up (none for cold rows), ${config.durationS} s measured;`
    + ` ${config.repeat} run${config.repeat === 1 ? '' : 's'}, median shown with the min–max range. ${clientsText(config.clients)};`
    + ` ${pin}. Load average${config.loadAverageAtStart ? ` at the start: ${loads(config.loadAverageAtStart)};` : ''} at the end: ${loads(config.loadAverageAtEnd)}.`,
    config.engines ? `Engines the measured server offers: ${config.engines.join(', ')}.` : null,
    headersText(),
    'Peak RSS sums VmHWM over every server process (nginx master and worker, h2o\'s processes); CPU µs/req is the utime+stime'
    + ' of all the server\'s processes during the measured period divided by the requests completed in it.',
    'nginx + open_file_cache adds `open_file_cache max=1000 inactive=60s; open_file_cache_valid 60s;` and TLS 1.3 only;'
    + ' both nginx rows use `brotli_static`, `gzip_static`, sendfile, one worker, no access log. h2o 2.2 runs one thread'
    + ' with `file.send-compressed: ON`. Every server serves the same precompressed files with the same certificate.',
    '',
    '**Corpus** (precompressed variants as written by `tools/precompress`):',
    '',
    corpusTable(section.corpus),
    '**Targets** (ratios of medians from this run; ✗ is a miss, ? a missing comparison row)',
    '',
    targets.length ? targets.join('\n') : '- none of the target rows were in this run',
  ].filter((l) => l !== null);
  if (seed) {
    md.push('', '### The seed article\'s table, reproduced', '',
      'The seed (Mozilla Hacks, 2015) measured a Node 0.12 server with `wrk -c 100 -t 6 -d 30s` on a 4-core laptop,'
      + ' compressing every response anew; ours serves a lorem ipsum file of about the same size with `wrk -t1 -c100`'
      + ' on the machine above, and compresses on the fly once, then serves from its cache ("cold": no warm-up, so the'
      + ' first compression is inside the measured period).', '', seed);
  }
  for (const [protocol, label] of Object.entries(PROTOCOLS)) {
    const own = rows.filter((r) => r.protocol === protocol);
    if (!own.length) continue;
    md.push('', `### ${label}`, '');
    if (links[protocol]) md.push(links[protocol].join('\n'), '');
    md.push(markdownTable(COLUMNS, own.map((r) => tableRow(r, find, fileNames))));
  }
  return { markdown: `${md.join('\n')}\n`, charts: svgs };
}

module.exports = { title, renderSection };
