'use strict';
// What the server benchmark measures: the catalogue of servers, modes, files,
// codings, protocols and client loads, the named plans built from it, and the
// time a plan will take. A row is one (protocol, file, mode, coding, server,
// load) combination.
const { FILE_KEYS, FILES, filesOf } = require('./corpus');
const { SEED_ROWS, SEED_FILE, SEED_PROTOCOL } = require('./seed');

// engine: the project's --engine (HTTP/2 and, later, HTTP/1.1 protocol code).
const SERVERS = {
  ours: { impl: 'project', engine: 'node', workers: 1, label: 'ours, node engine' },
  'ours-native': { impl: 'project', engine: 'native', workers: 1, label: 'ours, native engine' },
  // The native engine on the C transport (--transport c, server/engines/transport/).
  'ours-native-c': { impl: 'project', engine: 'native', transport: 'c', workers: 1, label: 'ours, native engine, C transport' },
  'ours-w2': { impl: 'project', engine: 'node', workers: 2, label: 'ours, 2 workers' },
  'ours-iltorb': { impl: 'project', engine: 'node', workers: 1, brotliEngine: 'iltorb', label: 'ours, iltorb br' },
  nginx: { impl: 'nginx', workers: 1, label: 'nginx, 1 worker' },
  'nginx-ofc': { impl: 'nginx', workers: 1, openFileCache: true, label: 'nginx + open_file_cache' },
  'nginx-w2': { impl: 'nginx', workers: 2, label: 'nginx, 2 workers' },
  h2o: { impl: 'h2o', workers: 1, label: 'h2o, 1 thread' },
  // What node:tls alone costs (bench/server/floor-tls.js), and what the C transport alone costs
  // (bench/server/floor-native-tls.js): HTTPS/1.1 br rows only.
  'floor-tls': { impl: 'floor', script: 'floor-tls.js', workers: 1, label: 'node:tls floor (prebuilt responses)' },
  'floor-native-tls': { impl: 'floor', script: 'floor-native-tls.js', workers: 1, label: 'C transport floor (prebuilt responses)' },
};

// root: which corpus root is served; warmUp: whether load starts only after a
// warm-up period (cold rows measure from the first request after start).
const MODES = {
  static: { label: 'precompressed', root: 'variants', warmUp: true },
  warm: { label: 'on the fly, warm', root: 'plain', warmUp: true },
  cold: { label: 'on the fly, cold', root: 'plain', warmUp: false },
};

// Client settings per load: many connections for throughput and CPU per
// request, one connection with one request in flight for unloaded latency.
// h3: bench:h3's aioquic clients (bench/h3/load.py), processes x requests in flight on each one's
// connection; aioquic is the bottleneck on one load core, so more would not load the server more.
const LOADS = {
  many: { label: 'loaded', h1: ['-t1', '-c100'], h2: ['-c50', '-m10'], h3: { processes: 2, concurrency: 16 } },
  one: { label: 'one at a time', h1: ['-t1', '-c1'], h2: ['-c1', '-m1'], h3: { processes: 1, concurrency: 1 } },
};

const CODINGS = ['br', 'zstd', 'gzip', 'lzma', 'identity'];
const PROTOCOLS = { h1: 'HTTPS/1.1 (wrk)', h2: 'HTTP/2 (h2load)' };
const ALL = {
  modes: Object.keys(MODES), files: FILE_KEYS, codings: CODINGS, servers: Object.keys(SERVERS),
  protocols: Object.keys(PROTOCOLS), loads: Object.keys(LOADS),
};

// The servers every comparison row is measured on.
const OURS = ['ours', 'ours-native'];
const PEERS = ['nginx', 'nginx-ofc', 'h2o'];
const BOTH = ['h1', 'h2'];
// The seed article's table (bench/server/seed.js) is reproduced with one of
// our engines: the native one when the server has it. A block's servers may
// be a function of the server's capabilities for that reason.
const SEED_SERVER = (caps) => [caps.engines.includes('native') ? 'ours-native' : 'ours'];

// Each plan is a list of blocks; a block is the cross product of its lists
// (load defaults to many).
const PLANS = {
  // The target rows on every server, a page's files in turn, then the seed's
  // table and the on-the-fly cache: about 27 minutes at the default 10 s x 3
  // repeats.
  default: [
    { modes: ['static'], files: ['html', 'js'], codings: ['br'], servers: [...OURS, ...PEERS], protocols: BOTH },
    { modes: ['static'], files: ['html'], codings: ['br'], servers: [...OURS, 'nginx-ofc', 'h2o'], protocols: ['h2'], loads: ['one'] },
    { modes: ['static'], files: ['html', 'js'], codings: ['br'], servers: ['floor-tls'], protocols: ['h1'] },
    // The C floor on the small row only: the check of issue #21 before the engines move onto the
    // transport (its js row would take the plan past 30 minutes).
    { modes: ['static'], files: ['html'], codings: ['br'], servers: ['floor-native-tls'], protocols: ['h1'] },
    { modes: ['static'], files: ['js'], codings: ['identity'], servers: [...OURS, 'nginx-ofc'], protocols: BOTH },
    { modes: ['static'], files: ['page'], codings: ['br'], servers: [...OURS, 'nginx-ofc', 'h2o'], protocols: ['h2'] },
    ...SEED_ROWS.map((r) => ({ modes: [r.mode], files: [SEED_FILE], codings: [r.coding], servers: SEED_SERVER, protocols: [SEED_PROTOCOL] })),
    { modes: ['warm'], files: ['html'], codings: ['br', 'lzma'], servers: ['ours'], protocols: ['h1'] },
  ],
  // The headline rows only, for checking the machinery (well under a minute
  // with --smoke's durations).
  smoke: [
    { modes: ['static'], files: ['html'], codings: ['br'], servers: ['ours', 'nginx-ofc'], protocols: BOTH },
  ],
  full: [{ ...ALL, loads: ['many'] }, { ...ALL, files: ['html'], loads: ['one'] }],
};

// Why a combination cannot run, or '' when it can: shown as an n/a row.
// Combinations that make no sense (compressing a PNG, iltorb for gzip) or
// that compare nothing (other servers on the fly: our on-the-fly rows are
// compared with our own precompressed rows) are dropped from plans instead.
function unsupported(row, caps) {
  const spec = SERVERS[row.server];
  if (spec.impl !== 'project' && (row.coding === 'zstd' || row.coding === 'lzma')) {
    return `${spec.impl} (Debian) cannot serve precompressed ${row.coding}`;
  }
  if (spec.engine && !caps.engines.includes(spec.engine)) return `this server has no --engine ${spec.engine}`;
  return '';
}

function meaningful(row) {
  if (SERVERS[row.server].impl === 'floor' && (row.protocol !== 'h1' || row.coding !== 'br' || row.mode !== 'static' || row.file === 'page')) return false;
  if (!filesOf(row.file).some((f) => FILES[f].compressible) && row.coding !== 'identity') return false;
  if (SERVERS[row.server].impl !== 'project' && row.mode !== 'static') return false;
  if (row.mode !== 'static' && row.coding === 'identity') return false;
  if (SERVERS[row.server].brotliEngine && (row.mode === 'static' || row.coding !== 'br')) return false;
  return true;
}

const AXIS_FIELD = { modes: 'mode', files: 'file', codings: 'coding', servers: 'server', protocols: 'protocol', loads: 'load' };
// Rows saved before loads existed were all "many".
const rowId = (r) => `${r.protocol}/${r.file}/${r.mode}/${r.coding}/${r.server}/${r.load || 'many'}`;

// "h2/html/*/br/*/many" style patterns over row ids, * matching within a part.
function rowPatternMatcher(patterns) {
  if (!patterns) return () => true;
  const res = patterns.map((p) => new RegExp(`^${p.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}(/.*)?$`));
  return (id) => res.some((re) => re.test(id));
}

// filters: { files, codings, servers, protocols, modes, loads } arrays or
// undefined for all, and rows: id patterns. caps: what the measured server
// supports ({ engines: [...] }), from serverCapabilities().
function buildPlan(planName, filters = {}, caps = { engines: ['node'] }) {
  const blocks = PLANS[planName];
  if (!blocks) throw Object.assign(new Error(`unknown plan "${planName}"`), { code: 'EBADPLAN' });
  const { rows: patterns, ...axes } = filters;
  const idMatches = rowPatternMatcher(patterns);
  const rows = new Map();
  for (const b of blocks) {
    const servers = typeof b.servers === 'function' ? b.servers(caps) : b.servers;
    for (const protocol of b.protocols) for (const file of b.files) for (const mode of b.modes) {
      for (const coding of b.codings) for (const server of servers) for (const load of b.loads || ['many']) {
        const row = { protocol, file, mode, coding, server, load };
        const pass = Object.entries(axes).every(([axis, wanted]) => !wanted || wanted.includes(row[AXIS_FIELD[axis]]));
        row.id = rowId(row);
        if (!pass || !idMatches(row.id) || !meaningful(row)) continue;
        row.skip = unsupported(row, caps);
        rows.set(row.id, row);
      }
    }
  }
  return [...rows.values()];
}

// Seconds a plan should take; startupS covers starting and stopping a server
// and fetching the sample body.
function estimateSeconds(rows, { durationS, warmUpS, repeat, startupS = 1.5 }) {
  return rows.filter((r) => !r.skip)
    .reduce((sum, r) => sum + repeat * (startupS + durationS + (MODES[r.mode].warmUp ? warmUpS : 0)), 0);
}

module.exports = {
  SERVERS, MODES, LOADS, CODINGS, PROTOCOLS, ALL, PLANS, buildPlan, estimateSeconds, rowId,
};
