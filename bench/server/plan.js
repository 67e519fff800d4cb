'use strict';
// What the server benchmark measures: the catalogue of servers, modes, files,
// codings and protocols, the named plans built from it, and the time a plan
// will take. A row is one (protocol, file, mode, coding, server) combination.
const { FILE_KEYS, FILES } = require('./corpus');

const SERVERS = {
  ours: { impl: 'project', workers: 1, label: 'ours, 1 process' },
  'ours-w2': { impl: 'project', workers: 2, label: 'ours, 2 workers' },
  'ours-iltorb': { impl: 'project', workers: 1, brotliEngine: 'iltorb', label: 'ours, iltorb br' },
  nginx: { impl: 'nginx', workers: 1, label: 'nginx, 1 worker' },
  'nginx-w2': { impl: 'nginx', workers: 2, label: 'nginx, 2 workers' },
};

// root: which corpus root is served; warmUp: whether load starts only after a
// warm-up period (cold rows measure from the first request after start).
const MODES = {
  static: { label: 'precompressed', root: 'variants', warmUp: true },
  warm: { label: 'on the fly, warm', root: 'plain', warmUp: true },
  cold: { label: 'on the fly, cold', root: 'plain', warmUp: false },
};

const CODINGS = ['br', 'zstd', 'gzip', 'lzma', 'identity'];
const PROTOCOLS = { h1: 'HTTPS/1.1 (wrk)', h2: 'HTTP/2 (h2load)' };
const ALL = {
  modes: Object.keys(MODES), files: FILE_KEYS, codings: CODINGS, servers: Object.keys(SERVERS), protocols: Object.keys(PROTOCOLS),
};

// Each plan is a list of blocks; a block is the cross product of its lists.
const BOTH = ['h1', 'h2'];
const PLANS = {
  // About 30 minutes at the default 10 s x 3 repeats. The headline comparison
  // (the HTML page, every coding, both protocols, ours against nginx) in
  // full; other files, workers and on-the-fly codings on fewer axes.
  default: [
    { modes: ['static'], files: ['html'], codings: ['br', 'zstd', 'gzip', 'identity'], servers: ['ours', 'nginx'], protocols: BOTH },
    { modes: ['static'], files: ['html'], codings: ['br'], servers: ['ours-w2', 'nginx-w2'], protocols: BOTH },
    { modes: ['static'], files: ['js'], codings: ['br', 'identity'], servers: ['ours', 'nginx'], protocols: BOTH },
    { modes: ['static'], files: ['css'], codings: ['br'], servers: ['ours', 'nginx'], protocols: ['h2'] },
    { modes: ['static'], files: ['image'], codings: ['identity'], servers: ['ours', 'nginx'], protocols: ['h2'] },
    { modes: ['static'], files: ['html', 'js'], codings: ['lzma'], servers: ['ours'], protocols: ['h1'] },
    { modes: ['warm', 'cold'], files: ['html'], codings: ['br', 'gzip', 'lzma', 'zstd'], servers: ['ours'], protocols: ['h1'] },
    { modes: ['warm'], files: ['js'], codings: ['br', 'lzma'], servers: ['ours'], protocols: ['h1'] },
    { modes: ['cold'], files: ['js'], codings: ['lzma'], servers: ['ours'], protocols: ['h1'] },
    { modes: ['warm'], files: ['html'], codings: ['br'], servers: ['ours-iltorb'], protocols: ['h1'] },
  ],
  quick: [
    { modes: ['static'], files: ['html'], codings: ['br', 'identity'], servers: ['ours', 'nginx'], protocols: BOTH },
    { modes: ['static'], files: ['html'], codings: ['br'], servers: ['ours-w2'], protocols: ['h2'] },
    { modes: ['static'], files: ['html'], codings: ['lzma'], servers: ['ours'], protocols: ['h1'] },
    { modes: ['warm', 'cold'], files: ['html'], codings: ['br', 'lzma'], servers: ['ours'], protocols: ['h1'] },
  ],
  full: [ALL],
};

// Why a combination cannot run on a server, or '' when it can: shown as an
// n/a row. Combinations that make no sense (compressing a PNG, iltorb for
// gzip) or that compare nothing (nginx on the fly: our on-the-fly rows are
// compared with our own precompressed rows) are dropped from plans instead.
function unsupported(row) {
  const nginx = SERVERS[row.server].impl === 'nginx';
  return nginx && (row.coding === 'zstd' || row.coding === 'lzma') ? `nginx (Debian) cannot serve precompressed ${row.coding}` : '';
}

function meaningful(row) {
  if (!FILES[row.file].compressible && row.coding !== 'identity') return false;
  if (SERVERS[row.server].impl === 'nginx' && row.mode !== 'static') return false;
  if (row.mode !== 'static' && row.coding === 'identity') return false;
  if (SERVERS[row.server].brotliEngine && (row.mode === 'static' || row.coding !== 'br')) return false;
  return true;
}

const AXIS_FIELD = { modes: 'mode', files: 'file', codings: 'coding', servers: 'server', protocols: 'protocol' };
const rowId = (r) => `${r.protocol}/${r.file}/${r.mode}/${r.coding}/${r.server}`;

// filters: { files, codings, servers, protocols, modes } arrays, or undefined for all.
function buildPlan(planName, filters = {}) {
  const blocks = PLANS[planName];
  if (!blocks) throw Object.assign(new Error(`unknown plan "${planName}"`), { code: 'EBADPLAN' });
  const rows = new Map();
  for (const b of blocks) {
    for (const protocol of b.protocols) for (const file of b.files) for (const mode of b.modes) {
      for (const coding of b.codings) for (const server of b.servers) {
        const row = { protocol, file, mode, coding, server };
        const pass = Object.entries(filters).every(([axis, wanted]) => !wanted || wanted.includes(row[AXIS_FIELD[axis]]));
        if (!pass || !meaningful(row)) continue;
        row.id = rowId(row);
        row.skip = unsupported(row);
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

module.exports = { SERVERS, MODES, CODINGS, PROTOCOLS, ALL, PLANS, buildPlan, estimateSeconds, rowId };
