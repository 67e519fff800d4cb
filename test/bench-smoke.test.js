'use strict';
// End to end: `npm run bench -- --smoke` for our server alone, 1 s per row,
// into a temporary results folder. Checks that wrk ran bench/wrk/rotate.lua
// and its JSON was read, that h2load ran over h2, that CPU per request and
// peak RSS were sampled, and that the results page was written. Skipped
// when wrk or h2load is missing (bash scripts/system-deps.sh install).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { findOnPath } = require('../bench/lib/find-on-path');

const RUN = path.join(__dirname, '..', 'bench', 'server', 'run.js');

test('bench --smoke: both protocols measured, bodies checked, results page written', { timeout: 60000 }, async (t) => {
  const missing = [];
  for (const tool of ['wrk', 'h2load']) if (!(await findOnPath(tool))) missing.push(tool);
  if (missing.length) return t.skip(`${missing.join(' and ')} not installed (bash scripts/system-deps.sh install)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-smoke-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const args = [RUN, '--smoke', '--servers', 'ours', '--duration', '1', '--warmup', '1', '--results-dir', dir];
  const { code, stdout, stderr } = await new Promise((resolve) => {
    execFile(process.execPath, args, { timeout: 45000 }, (err, out, errOut) => resolve({ code: err ? err.code ?? err.signal : 0, stdout: out, stderr: errOut }));
  });
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
