'use strict';
// bench:h3 (bench/h3/): the pure pieces (merging the aioquic clients' outputs, reading the QPACK
// counters from the metrics text), then end to end: `npm run bench:h3 -- --smoke` into a temporary
// results folder. Checks that HTTP/2, HTTP/3 and HTTP/2 at HTTP/3's pace all ran on the server
// with bodies checked, that CPU per request was sampled, that HTTP/3 header bytes came from the
// server's QPACK counters, and that the results page was written. The end-to-end test skips
// without Node 22.20+/24 with the QUIC addon built, h2load, or python3 with aioquic.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFile, spawnSync } = require('node:child_process');
const { findOnPath } = require('../../bench/lib/find-on-path');
const { mergeClientOutputs } = require('../../bench/h3/h3-load');
const { parseQpackCounters } = require('../../bench/h3/metrics-scrape');
const { quicSupport, loadQuic } = require('../../server/engines/listen-h3');

const RUN = path.join(__dirname, '..', '..', 'bench', 'h3', 'run.js');

const client = (over) => ({
  requests: 0, errors: { status: 0, coding: 0, reset: 0, timeout: 0, total: 0 }, latenciesUs: [], bodyBytes: 0, samples: {}, elapsedS: 1, ...over,
});

test('the clients\' outputs merge: counts add up, latencies are pooled, the period is the longest', () => {
  const body = Buffer.from('abc');
  const merged = mergeClientOutputs([
    client({ requests: 3, latenciesUs: [1000, 3000, 5000], bodyBytes: 30, elapsedS: 2, samples: { '/a': { status: 200, contentEncoding: 'br', body: body.toString('base64') } } }),
    client({ requests: 1, latenciesUs: [2000], bodyBytes: 10, elapsedS: 1.5, errors: { status: 1, coding: 0, reset: 2, timeout: 0, total: 3 },
      samples: { '/a': { status: 404, contentEncoding: 'identity', body: '' } } }),
  ]);
  assert.deepEqual(merged, {
    requests: 4, reqPerSec: 2, bytesPerSec: 20,
    latencyMs: { mean: 2.75, p50: 2, p90: 5, p99: 5, max: 5 },
    errors: { status: 1, coding: 0, reset: 2, timeout: 0, total: 3 },
    samples: { '/a': { status: 200, encoding: 'br', body } },
  });
});

test('QPACK counters: the two streams and the HTTP/3 responses only; a server without them is an error', () => {
  const text = [
    'negotiate_responses_total{status="2xx",protocol="h2",coding="br"} 50',
    'negotiate_responses_total{status="2xx",protocol="h3",coding="br"} 7',
    'negotiate_responses_total{status="4xx",protocol="h3",coding="none"} 1',
    'negotiate_qpack_encoded_bytes_total{stream="request"} 320',
    'negotiate_qpack_encoded_bytes_total{stream="encoder"} 96',
  ].join('\n');
  const before = parseQpackCounters(text.replace('} 320', '} 100').replace('} 7', '} 3'));
  const delta = parseQpackCounters(text).minus(before);
  assert.deepEqual({ ...delta }, { sectionBytes: 220, encoderBytes: 0, responses: 4 });
  assert.equal(delta.perResponse(delta.sectionBytes), 55);
  assert.throws(() => parseQpackCounters(text.split('\n').slice(0, 3).join('\n')), { code: 'ENOQPACKMETRICS' });
});

function run(cmd, args, options) {
  return new Promise((resolve) => {
    execFile(cmd, args, options, (err, stdout, stderr) => resolve({ code: err ? err.code ?? err.signal : 0, stdout, stderr }));
  });
}

async function whyNot() {
  const support = quicSupport(loadQuic());
  if (!support.ok) return `HTTP/3 does not run here: ${support.reason}`;
  if (!(await findOnPath('h2load'))) return 'h2load not installed (bash scripts/system-deps.sh install)';
  if (spawnSync('python3', ['-c', 'import aioquic']).status !== 0) return 'python3 with aioquic is not installed (see system-deps)';
  return null;
}

test('bench:h3 --smoke: HTTP/2, HTTP/3 and HTTP/2 at HTTP/3\'s pace on one server, bodies checked, results page written', { timeout: 90000 }, async (t) => {
  const reason = await whyNot();
  if (reason) return t.skip(reason);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-h3-smoke-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const { code, stdout, stderr } = await run(process.execPath, [RUN, '--smoke', '--results-dir', dir], { timeout: 75000 });
  assert.equal(code, 0, `${stdout}\n${stderr}`);

  const [json] = fs.readdirSync(dir).filter((n) => n.endsWith('.json'));
  const { rows } = JSON.parse(fs.readFileSync(path.join(dir, json), 'utf8')).sections.h3;
  assert.deepEqual(rows.map((r) => r.id), ['h2/html/many', 'h3/html/many', 'h2paced/html/many']);
  for (const r of rows) {
    const s = r.summary;
    assert.deepEqual(s.problems, [], r.id);
    assert.equal(s.contentEncoding, 'br', r.id);
    assert.equal(s.errors, 0, r.id);
    assert.ok(s.reqPerSec.median > 0 && s.cpuUsPerRequest.median > 0 && s.serverCpuShare.median > 0, r.id);
    assert.ok(s.p50Ms.median > 0 && s.p99Ms.median >= s.p50Ms.median, r.id);
    // Any response has :status and content-encoding at least; the dynamic table makes a repeat small.
    assert.ok(s.headerBytesPerResponse.median >= 2 && s.headerBytesPerResponse.median < 200, `${r.id}: ${s.headerBytesPerResponse.median}`);
  }
  const h3 = rows[1].summary;
  assert.ok(h3.encoderBytesPerResponse.median > 0, 'dynamic-table inserts were counted');
  const parts = h3.sectionBytesPerResponse.median + h3.encoderBytesPerResponse.median;
  assert.ok(Math.abs(h3.headerBytesPerResponse.median - parts) < 1e-9, `${h3.headerBytesPerResponse.median} vs ${parts}`);
  const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
  assert.match(readme, /\| index\.html \| loaded \| HTTP\/3 \| [\d,]+ \|/);
  for (const chart of ['h3-cpu.svg', 'h3-rps.svg', 'h3-headers.svg']) assert.ok(fs.existsSync(path.join(dir, 'charts', chart)), chart);
});
