'use strict';
// bench/wrk/rotate.lua against a counting HTTP server, then end to end:
// `npm run bench -- --smoke` for our server alone, 1 s per row,
// into a temporary results folder. Checks that wrk ran bench/wrk/rotate.lua
// and its JSON was read, that h2load ran over h2, that CPU per request and
// peak RSS were sampled, and that the results page was written. Skipped
// when wrk or h2load is missing (bash scripts/system-deps.sh install).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const http = require('node:http');
const { execFile } = require('node:child_process');
const { findOnPath } = require('../../bench/lib/find-on-path');
const { parseWrkReport } = require('../../bench/lib/wrk-report');

const RUN = path.join(__dirname, '..', '..', 'bench', 'server', 'run.js');
const SCRIPT = path.join(__dirname, '..', '..', 'bench', 'wrk', 'rotate.lua');

function run(cmd, args, options) {
  return new Promise((resolve) => {
    execFile(cmd, args, options, (err, stdout, stderr) => resolve({ code: err ? err.code ?? err.signal : 0, stdout, stderr }));
  });
}

test('wrk rotate.lua: every path x Accept-Encoding in turn, "-" sends none, JSON matches the server\'s count', { timeout: 30000 }, async (t) => {
  if (!(await findOnPath('wrk'))) return t.skip('wrk not installed (bash scripts/system-deps.sh install)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wrk-lua-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const seen = new Map();
  const server = http.createServer((req, res) => {
    const key = `${req.url} ${req.headers['accept-encoding'] ?? '(none)'}`;
    seen.set(key, (seen.get(key) || 0) + 1);
    res.statusCode = req.url === '/missing' ? 404 : 200;
    res.end('ok');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const report = path.join(dir, 'report.json');
  const env = { ...process.env, WRK_PATHS: '/a|/missing', WRK_ACCEPT_ENCODINGS: 'gzip, deflate, br, zstd|-', WRK_REPORT: report };
  const { code, stderr } = await run('wrk', ['-t1', '-c1', '-d1s', '-s', SCRIPT, `http://127.0.0.1:${server.address().port}/`],
    { env, timeout: 15000 });
  assert.equal(code, 0, stderr);
  assert.deepEqual([...seen.keys()].sort(), ['/a (none)', '/a gzip, deflate, br, zstd', '/missing (none)', '/missing gzip, deflate, br, zstd']);
  const counts = [...seen.values()];
  assert.ok(Math.max(...counts) - Math.min(...counts) <= 1, `one connection cycles evenly: ${counts}`);
  const r = parseWrkReport(fs.readFileSync(report, 'utf8'));
  const total = counts.reduce((a, b) => a + b, 0);
  // wrk counts what it received; the server may have answered one more.
  assert.ok(r.requests === total || r.requests === total - 1, `${r.requests} vs ${total}`);
  assert.ok(Math.abs(r.errors.non2xx - (seen.get('/missing (none)') + seen.get('/missing gzip, deflate, br, zstd'))) <= 1);
  assert.equal(r.errors.connect + r.errors.read + r.errors.write + r.errors.timeout, 0);
  assert.ok(r.latencyMs.p50 > 0 && r.latencyMs.p50 <= r.latencyMs.p99 && r.latencyMs.p99 <= r.latencyMs.max);
});

test('bench --smoke: both protocols measured, bodies checked, results page written', { timeout: 60000 }, async (t) => {
  const missing = [];
  for (const tool of ['wrk', 'h2load']) if (!(await findOnPath(tool))) missing.push(tool);
  if (missing.length) return t.skip(`${missing.join(' and ')} not installed (bash scripts/system-deps.sh install)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-smoke-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const args = [RUN, '--smoke', '--servers', 'ours', '--duration', '1', '--warmup', '1', '--results-dir', dir];
  const { code, stdout, stderr } = await run(process.execPath, args, { timeout: 45000 });
  assert.equal(code, 0, `${stdout}\n${stderr}`);

  const [json] = fs.readdirSync(dir).filter((n) => n.endsWith('.json'));
  const { rows } = JSON.parse(fs.readFileSync(path.join(dir, json), 'utf8')).sections.server;
  assert.deepEqual(rows.map((r) => r.id).sort(), ['h1/html/static/br/ours/many', 'h2/html/static/br/ours/many']);
  for (const r of rows) {
    const s = r.summary;
    assert.deepEqual(s.problems, [], r.id);
    assert.equal(s.contentEncoding, 'br', r.id);
    assert.equal(s.errors, 0, r.id);
    assert.ok(s.reqPerSec.median > 0 && s.cpuUsPerRequest.median > 0 && s.peakRssBytes.max > 0, r.id);
    assert.ok(s.p50Ms.median > 0 && s.p99Ms.median >= s.p50Ms.median && Number.isFinite(s.meanMs.median), r.id);
  }
  const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
  assert.match(readme, /\| index\.html \| precompressed \| br \| loaded \| ours, node engine \| [\d,]+ \|/);
});
