'use strict';
// Unit tests of the server benchmark's pure parts: plan, options, server
// configurations, engine detection, the wrk script's JSON, Accept-Encoding
// rotation, the corpus's lorem file, targets and the results page.
const test = require('node:test');
const assert = require('node:assert/strict');

const { buildPlan, estimateSeconds } = require('../../bench/server/plan');
const { parseOptions } = require('../../bench/server/options');
const { nginxConf } = require('../../bench/server/nginx');
const { h2oConf } = require('../../bench/server/h2o');
const { enginesFromHelp } = require('../../bench/server/capabilities');
const { serverArgs, serverEnv } = require('../../bench/server/project-server');
const { acceptEncodings } = require('../../bench/server/accept-encodings');
const { parseWrkReport } = require('../../bench/lib/wrk-report');
const { rowTargets, rowFinder } = require('../../bench/server/targets');
const { renderSection } = require('../../bench/server/report');
const { FILES, filesOf } = require('../../bench/server/corpus');

const NODE_ONLY = { engineOption: false, engines: ['node'] };
const BOTH_ENGINES = { engineOption: true, engines: ['node', 'native'] };

test('plan: time budgets of the presets', () => {
  for (const [plan, caps, timing, maxS] of [
    ['default', BOTH_ENGINES, { durationS: 10, warmUpS: 2, repeat: 3 }, 30 * 60],
    ['default', BOTH_ENGINES, { durationS: 2, warmUpS: 1, repeat: 1 }, 4 * 60],
    ['smoke', BOTH_ENGINES, { durationS: 1, warmUpS: 1, repeat: 1 }, 45],
  ]) {
    const s = estimateSeconds(buildPlan(plan, {}, caps), timing);
    assert.ok(s <= maxS, `${plan} ${JSON.stringify(timing)}: ETA ${s} s > ${maxS} s`);
  }
});

test('plan: every comparison row has both engines, nginx, nginx + open_file_cache and h2o; HTTPS/1.1 the node:tls floor too, and the C floor on the small row', () => {
  const rows = buildPlan('default', {}, BOTH_ENGINES);
  for (const [protocol, file] of [['h1', 'html'], ['h1', 'js'], ['h2', 'html'], ['h2', 'js']]) {
    const servers = rows.filter((r) => r.protocol === protocol && r.file === file && r.mode === 'static' && r.coding === 'br' && r.load === 'many').map((r) => r.server);
    const floor = { h1: { html: ['floor-native-tls', 'floor-tls'], js: ['floor-tls'] } }[protocol]?.[file] ?? [];
    assert.deepEqual(servers.sort(), [...floor, 'h2o', 'nginx', 'nginx-ofc', 'ours', 'ours-native'], `${protocol} ${file}`);
  }
  assert.deepEqual(rows.filter((r) => r.server.startsWith('floor')).map((r) => r.id).sort(),
    ['h1/html/static/br/floor-native-tls/many', 'h1/html/static/br/floor-tls/many', 'h1/js/static/br/floor-tls/many']);
  const single = rows.filter((r) => r.load === 'one').map((r) => `${r.protocol}/${r.file}/${r.coding}/${r.server}`);
  assert.deepEqual(single.sort(), ['h2/html/br/h2o', 'h2/html/br/nginx-ofc', 'h2/html/br/ours', 'h2/html/br/ours-native']);
  assert.ok(rows.every((r) => r.skip === ''), 'nothing is n/a when the server has both engines');
});

test('plan: without --engine native the native rows are n/a and the seed rows use the node engine', () => {
  const rows = buildPlan('default', {}, NODE_ONLY);
  const native = rows.filter((r) => r.server === 'ours-native');
  assert.ok(native.length > 0 && native.every((r) => r.skip === 'this server has no --engine native'));
  const seed = (caps) => buildPlan('default', { files: ['lorem'] }, caps).map((r) => r.server);
  assert.deepEqual([...new Set(seed(NODE_ONLY))], ['ours']);
  assert.deepEqual([...new Set(seed(BOTH_ENGINES))], ['ours-native']);
  assert.deepEqual(buildPlan('default', { files: ['lorem'] }, NODE_ONLY).map((r) => `${r.mode} ${r.coding}`).sort(),
    ['cold br', 'cold gzip', 'cold lzma', 'static br', 'static identity']);
});

test('plan: page rows fetch the page\'s four files in turn over HTTP/2', () => {
  assert.deepEqual(filesOf('page'), ['html', 'css', 'js', 'image']);
  assert.deepEqual(filesOf('js'), ['js']);
  const page = buildPlan('default', { files: ['page'] }, BOTH_ENGINES);
  assert.deepEqual(page.map((r) => `${r.protocol} ${r.coding} ${r.server}`).sort(),
    ['h2 br h2o', 'h2 br nginx-ofc', 'h2 br ours', 'h2 br ours-native']);
  assert.ok(buildPlan('full', { files: ['page'] }, BOTH_ENGINES).some((r) => r.coding === 'zstd'), 'a page with a PNG still has compressible files');
  assert.ok(buildPlan('full', { files: ['image'] }, BOTH_ENGINES).every((r) => r.coding === 'identity'));
});

test('plan: servers that cannot serve a coding are n/a; meaningless rows are dropped', () => {
  const full = buildPlan('full', {}, BOTH_ENGINES);
  for (const server of ['nginx', 'nginx-ofc', 'h2o']) {
    const zstd = full.find((r) => r.server === server && r.coding === 'zstd');
    assert.match(zstd.skip, /cannot serve precompressed zstd/, server);
    assert.ok(full.every((r) => r.server !== server || r.mode === 'static'), `${server} only precompressed`);
  }
  assert.ok(full.filter((r) => r.file === 'image').every((r) => r.coding === 'identity'));
});

test('plan: --rows patterns match whole id parts, * within one part, prefixes extend', () => {
  const ids = (patterns) => buildPlan('default', { rows: patterns }, BOTH_ENGINES).map((r) => r.id).sort();
  for (const [patterns, expected] of [
    [['h2/html/static/br/ours/one'], ['h2/html/static/br/ours/one']],
    [['h2/html/static/br/ours'], ['h2/html/static/br/ours/many', 'h2/html/static/br/ours/one']],
    [['*/js/static/identity/nginx*'], ['h1/js/static/identity/nginx-ofc/many', 'h2/js/static/identity/nginx-ofc/many']],
    [['h1/lorem/cold'], ['h1/lorem/cold/br/ours-native/many', 'h1/lorem/cold/gzip/ours-native/many', 'h1/lorem/cold/lzma/ours-native/many']],
    [['h2/htm'], []],
  ]) assert.deepEqual(ids(patterns), expected, patterns.join(','));
});

test('options: presets, overrides and usage errors', () => {
  for (const [argv, expected] of [
    [[], { plan: 'default', durationS: 10, warmUpS: 2, repeat: 3 }],
    [['--quick'], { plan: 'default', durationS: 2, warmUpS: 1, repeat: 1 }],
    [['--smoke'], { plan: 'smoke', durationS: 1, warmUpS: 1, repeat: 1 }],
    [['--smoke', '--duration', '3', '--warmup', '0'], { plan: 'smoke', durationS: 3, warmUpS: 0, repeat: 1 }],
  ]) {
    const o = parseOptions(argv);
    assert.deepEqual({ plan: o.plan, durationS: o.durationS, warmUpS: o.warmUpS, repeat: o.repeat }, expected, argv.join(' '));
  }
  assert.equal(parseOptions([]).note, null);
  assert.equal(parseOptions(['--note', ' shared VM ']).note, 'shared VM');
  const o = parseOptions(['--rows', 'h2/html/*,h1/js', '--servers', 'ours,h2o', '--loads', 'one']);
  assert.deepEqual(o.filters.rows, ['h2/html/*', 'h1/js']);
  assert.deepEqual(o.filters.servers, ['ours', 'h2o']);
  assert.deepEqual(o.filters.loads, ['one']);
  for (const [argv, message] of [
    [['--codings', 'bzip2'], /unknown bzip2/],
    [['--repeat', '0'], /--repeat must be a whole number of at least 1/],
    [['--duration', '1.5'], /--duration must be a whole number/],
    [['--warmup=-1'], /--warmup must be a whole number of at least 0/],
    [['--quick', '--smoke'], /--quick and --smoke exclude each other/],
    [['--rows', 'h2/ht ml'], /--rows: bad pattern/],
    [['--rows', ','], /--rows: bad pattern \(empty\)/],
  ]) assert.throws(() => parseOptions(argv), { code: 'EUSAGE', message }, argv.join(' '));
});

test('nginx config: brotli_static, gzip_static, HTTP/2; open_file_cache and TLS 1.3 only when asked', () => {
  const base = { prefix: '/tmp/p', root: '/tmp/r', port: 4321, workers: 1, cert: '/c.pem', key: '/k.pem' };
  const plain = nginxConf(base);
  const ofc = nginxConf({ ...base, openFileCache: true });
  for (const conf of [plain, ofc]) {
    for (const re of [/load_module \/usr\/lib\/nginx\/modules\/ngx_http_brotli_static_module\.so;/, /worker_processes 1;/,
      /pid \/tmp\/p\/nginx\.pid;/, /listen 127\.0\.0\.1:4321 ssl http2;/, /access_log off;/, /brotli_static on;/,
      /gzip_static on;/, /sendfile on;/, /root \/tmp\/r;/]) assert.match(conf, re);
  }
  assert.doesNotMatch(plain, /open_file_cache/);
  assert.match(plain, /ssl_protocols TLSv1\.2 TLSv1\.3;/);
  assert.match(ofc, /open_file_cache max=1000 inactive=60s;/);
  assert.match(ofc, /open_file_cache_valid 60s;/);
  assert.match(ofc, /ssl_protocols TLSv1\.3;/);
});

test('h2o config: one thread, the certificate, precompressed variants, the given port and root', () => {
  const conf = h2oConf({ prefix: '/tmp/p', root: '/tmp/r', port: 4321, cert: '/c.pem', key: '/k.pem' });
  for (const re of [/^num-threads: 1$/m, /^ {4}certificate-file: \/c\.pem$/m, /^ {4}key-file: \/k\.pem$/m, /^ {2}port: 4321$/m,
    /^ {8}file\.dir: \/tmp\/r$/m, /^ {8}file\.send-compressed: ON$/m, /^pid-file: \/tmp\/p\/h2o\.pid$/m,
    /^ {4}ocsp-update-interval: 0$/m]) assert.match(conf, re);
  assert.doesNotMatch(conf, /access-log/);
});

test('engines: read from the --engine line of the server\'s help', () => {
  for (const [help, expected] of [
    ['  --workers N   processes\n  --help', NODE_ONLY],
    ['  --engine E    native | node (default: node)\n', BOTH_ENGINES],
    ['  --engine E    node (default: node)\n', { engineOption: true, engines: ['node'] }],
    ['  --brotli-engine E  zlib | iltorb\n', NODE_ONLY],
  ]) assert.deepEqual(enginesFromHelp(help), expected, help);
});

test('project server: --engine is passed only to servers that have it', () => {
  const base = { serverDir: '/s', root: '/r', workers: 1, engine: 'native', cert: '/c', key: '/k' };
  const tail = (args) => args.slice(args.indexOf('/s'));
  assert.deepEqual(tail(serverArgs({ ...base, caps: BOTH_ENGINES })).slice(-2), ['--engine', 'native']);
  assert.ok(!serverArgs({ ...base, caps: NODE_ONLY }).includes('--engine'));
  assert.ok(!serverArgs(base).includes('--engine'), 'the soak benchmark passes no caps: default engine');
  assert.deepEqual(tail(serverArgs({ ...base, workers: 2, brotliEngine: 'iltorb', caps: NODE_ONLY })).slice(-4),
    ['--workers', '2', '--brotli-engine', 'iltorb']);
  assert.deepEqual(serverEnv({ PATH: '/bin', NEGOTIATE_ENGINE: 'native', NEGOTIATE_REVALIDATE_MS: '5000', HOME: '/h' }), { PATH: '/bin', HOME: '/h' });
});

test('accept-encoding rotation: real clients per coding, none sends no header', () => {
  assert.deepEqual(acceptEncodings('br').map((h) => h.header), ['gzip, deflate, br, zstd', 'gzip, deflate, br, zstd', 'gzip, deflate, br', 'deflate, gzip, br, zstd']);
  assert.deepEqual(acceptEncodings('identity').map((h) => h.header), [null, 'identity']);
  assert.deepEqual(acceptEncodings('gzip').map((h) => h.header), ['gzip, deflate']);
  assert.deepEqual(acceptEncodings('lzma'), [{ client: 'lzma', header: 'lzma' }]);
});

test('wrk report: JSON from rotate.lua in, ms and per-second figures out; bad reports refused', () => {
  const good = {
    requests: 20000, durationUs: 2000000, bytes: 4e6,
    latencyUs: { mean: 1500.5, p50: 1200, p90: 2500, p99: 9000, max: 20000 },
    errors: { connect: 0, read: 1, write: 0, status: 3, timeout: 2 },
  };
  assert.deepEqual(parseWrkReport(JSON.stringify(good)), {
    requests: 20000, durationS: 2, bytesRead: 4e6, reqPerSec: 10000, bytesPerSec: 2e6,
    latencyMs: { mean: 1.5005, p50: 1.2, p90: 2.5, p99: 9, max: 20 },
    errors: { connect: 0, read: 1, write: 0, timeout: 2, non2xx: 3, total: 6 },
  });
  for (const [text, message] of [
    ['{"requests": 1', /not JSON/],
    ['null', /lacks requests, durationUs, bytes, latencyUs, errors/],
    [JSON.stringify({ ...good, errors: undefined }), /lacks errors/],
    [JSON.stringify({ ...good, durationUs: 0 }), /duration 0 us/],
  ]) assert.throws(() => parseWrkReport(text), { code: 'EWRKREPORT', message }, text);
});

test('corpus: the lorem file is deterministic, five paragraphs within the seed\'s 3,484 bytes', async () => {
  const a = await FILES.lorem.build();
  const b = await FILES.lorem.build();
  assert.ok(a.equals(b));
  assert.ok(a.length <= 3484 && a.length > 3200, `${a.length} bytes`);
  assert.equal(a.toString().trimEnd().split('\n\n').length, 5);
  assert.match(a.toString(), /^[A-Z][a-z ]+\./);
});

// A measured row with median == min == max for every metric.
function row(fields, metrics = {}) {
  const one = (v) => ({ median: v, min: v, max: v, n: 1 });
  const m = { reqPerSec: 1000, cpuUsPerRequest: 50, p50Ms: 1, peakRssMiB: 80, headerBytes: null, ...metrics };
  const full = { mode: 'static', coding: 'br', load: 'many', ...fields };
  return {
    ...full,
    id: `${full.protocol}/${full.file}/${full.mode}/${full.coding}/${full.server}/${full.load}`,
    skip: '',
    summary: {
      reqPerSec: one(m.reqPerSec), bytesPerSec: one(1e6), meanMs: one(m.p50Ms * 1.2), p50Ms: one(m.p50Ms), p90Ms: one(2), p99Ms: one(3),
      maxMs: one(4), peakRssBytes: one(m.peakRssMiB * 2 ** 20), cpuSeconds: one(1), cpuUsPerRequest: one(m.cpuUsPerRequest),
      responseBytes: one(779), headerBytesPerResponse: m.headerBytes === null ? null : one(m.headerBytes),
      errors: 0, failedRuns: 0, problems: [], contentEncoding: full.coding,
    },
  };
}

test('targets: ratios against nginx + open_file_cache and h2o, latency, RSS, on-the-fly', () => {
  const h2 = { protocol: 'h2', file: 'html' };
  const rows = [
    row({ ...h2, server: 'ours-native' }, { cpuUsPerRequest: 20, peakRssMiB: 60, headerBytes: 17 }),
    row({ ...h2, server: 'ours' }, { cpuUsPerRequest: 40, peakRssMiB: 120, headerBytes: 42 }),
    row({ ...h2, server: 'nginx-ofc' }, { cpuUsPerRequest: 25 }),
    row({ ...h2, server: 'h2o' }, { cpuUsPerRequest: 10, headerBytes: 16 }),
    row({ ...h2, server: 'ours', load: 'one' }, { p50Ms: 0.5 }),
    row({ ...h2, server: 'nginx-ofc', load: 'one' }, { p50Ms: 0.4 }),
    row({ protocol: 'h1', file: 'js', server: 'ours' }, { reqPerSec: 5000 }),
    row({ protocol: 'h1', file: 'js', server: 'nginx' }, { reqPerSec: 9000 }),
    row({ protocol: 'h1', file: 'js', server: 'nginx-ofc' }, { reqPerSec: 4000 }),
    row({ protocol: 'h1', file: 'html', server: 'ours' }),
    row({ protocol: 'h1', file: 'html', server: 'ours', mode: 'warm', coding: 'lzma' }, { reqPerSec: 850, peakRssMiB: 320 }),
    row({ protocol: 'h1', file: 'html', server: 'ours', mode: 'static', coding: 'lzma' }, { reqPerSec: 1000 }),
  ];
  const find = rowFinder(rows);
  const judged = (i) => rowTargets(rows[i], find).map(({ text, ok }) => [text, ok]);
  assert.deepEqual(judged(0), [
    ['CPU/req ≤1.0× nginx + open_file_cache: 0.80× (20.0 vs 25.0 µs)', true],
    ['CPU/req ≤1.0× h2o, 1 thread (stretch): 2.00× (20.0 vs 10.0 µs)', false],
    ['peak RSS <100 MiB: 60', true],
    ['header B/resp ≤1.1× h2o, 1 thread: 1.06× (17.0 vs 16.0 B)', true],
    ['header B/resp ≤1.0× h2o, 1 thread (stretch): 1.06× (17.0 vs 16.0 B)', false],
  ]);
  assert.deepEqual(judged(1), [
    ['CPU/req ≤1.0× nginx + open_file_cache: 1.60× (40.0 vs 25.0 µs)', false],
    ['CPU/req ≤1.0× h2o, 1 thread (stretch): 4.00× (40.0 vs 10.0 µs)', false],
    ['peak RSS <100 MiB: 120', false],
  ]);
  assert.deepEqual(judged(4), [['p50 latency ≤1.0× nginx + open_file_cache: 1.25× (0.50 vs 0.40 ms)', false]]);
  assert.deepEqual(judged(6), [['req/s ≥1.0× nginx + open_file_cache: 1.25× (5,000 vs 4,000)', true]]);
  assert.deepEqual(judged(9), [['CPU/req ≤1.0× nginx + open_file_cache: no nginx + open_file_cache row to compare', null]]);
  assert.deepEqual(judged(10), [['req/s ≥0.9× precompressed: 0.85×', false], ['peak RSS ≤300 MiB: 320', false]]);
  for (const i of [2, 3, 7, 8]) assert.deepEqual(judged(i), [], `${rows[i].id} is not ours`);
});

test('report: seed table beside ours, targets, CPU chart per protocol, n/a and failed rows', () => {
  const lorem = { protocol: 'h1', file: 'lorem' };
  const rows = [
    row({ protocol: 'h2', file: 'html', server: 'ours' }, { cpuUsPerRequest: 40, headerBytes: 15.5 }),
    row({ protocol: 'h2', file: 'html', server: 'nginx-ofc' }, { cpuUsPerRequest: 25, headerBytes: 107 }),
    { protocol: 'h2', file: 'html', mode: 'static', coding: 'br', server: 'ours-native', load: 'many', id: 'x', skip: 'this server has no --engine native' },
    { ...row({ protocol: 'h2', file: 'html', server: 'h2o' }), summary: { ...row({}).summary, reqPerSec: null, problems: ['ESTARTUP: h2o exited 1'] } },
    row({ ...lorem, server: 'ours', mode: 'cold', coding: 'br' }, { reqPerSec: 21000, p50Ms: 4 }),
    row({ ...lorem, server: 'ours', mode: 'static', coding: 'identity' }, { reqPerSec: 25000, peakRssMiB: 90 }),
  ];
  const section = {
    note: 'Ran on a shared 2-core VM.',
    config: {
      plan: 'default', durationS: 10, warmUpS: 2, repeat: 3, engines: ['node'],
      clients: { many: { wrk: '-t1 -c100', h2load: '-c50 -m10' }, one: { wrk: '-t1 -c1', h2load: '-c1 -m1' } },
      pinning: { serverCpu: 0, clientCpu: 1 }, loadAverageAtStart: [0.5, 0.25, 0.125], loadAverageAtEnd: [1, 1, 1],
    },
    corpus: {
      html: { name: 'index.html', bytes: 3498, variants: { br: 779, zstd: 985, gzip: 983, lzma: 1004 } },
      lorem: { name: 'lorem_ipsum.txt', bytes: 3362, variants: { br: 1064, zstd: 1080, gzip: 1138, lzma: 1150 } },
    },
    rows,
  };
  const { markdown, charts } = renderSection(section, { chartsHref: 'charts' });
  assert.match(markdown, /\| br-stream \| on the fly, cold br \| 203 \| 21,000 \| 0\.25 \| 0\.95 \| 3485\.5 \| 80\.0 \| 462\.57 \| 4\.80 \| ours, node engine \|/);
  assert.match(markdown, /\| none \| precompressed identity \| 4,061 \| 25,000 \| 14\.06 \| 0\.95 \| 125\.1 \| 90\.0 \| 23\.45 \| 1\.20 \| ours, node engine \|/);
  assert.match(markdown, /\| lzma \| on the fly, cold lzma \| 233 \| - \| 0\.37 \| - \|/);
  assert.match(markdown, /- ✗ HTTP\/2 \(h2load\), index\.html, precompressed br, ours, node engine: CPU\/req ≤1\.0× nginx \+ open_file_cache: 1\.60× \(40\.0 vs 25\.0 µs\)/);
  assert.match(markdown, /- \? HTTP\/2 \(h2load\), index\.html, precompressed br, ours, node engine: CPU\/req ≤1\.0× h2o, 1 thread \(stretch\): no h2o, 1 thread row to compare/);
  assert.match(markdown, /\| ours, native engine \| n\/a \|[^\n]*this server has no --engine native/);
  assert.match(markdown, /\| h2o, 1 thread \| failed \|[^\n]*failed: ESTARTUP: h2o exited 1/);
  assert.match(markdown, /!\[HTTP\/2 \(h2load\): server CPU time per request\]\(charts\/server-h2-cpu\.svg\)/);
  assert.match(markdown, /one at a time: wrk `-t1 -c1`, h2load `-c1 -m1`/);
  assert.match(markdown, /^\*\*Note:\*\* Ran on a shared 2-core VM\.\n/);
  assert.match(markdown, /Load average at the start: 0\.50, 0\.25, 0\.13; at the end: 1\.00, 1\.00, 1\.00\./);
  assert.match(charts['server-h2-cpu.svg'], /<title>nginx \+ open_file_cache, index\.html br: 25<\/title>/);
  assert.match(charts['server-h2-cpu.svg'], /<title>ours, node engine, index\.html br: 40<\/title>/);
  assert.equal(charts['server-h1-cpu.svg'], undefined, 'no chart where one server served each row');
  // Header bytes per response: a column, and a chart for HTTP/2 only (wrk reports none).
  assert.match(markdown, /\| 779 \| 15\.5 \| ✓ br \|/);
  assert.match(markdown, /\| 779 \| - \| ✓ br \|/);
  assert.match(charts['server-h2-headers.svg'], /<title>nginx \+ open_file_cache, index\.html br: 107<\/title>/);
  assert.equal(Object.keys(charts).some((name) => name.startsWith('server-h1-headers')), false);
});
