'use strict';
// A real Prometheus (Debian's prometheus package) scrapes --metrics every second: its query API
// must come to report the br bytes saved that this test computes from the bodies it received.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const net = require('node:net');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { startTestServer, compressibleText, makeTempDir } = require('../helpers/server');
const { commandPath, toolSkipReason } = require('../helpers/tools');
const { waitFor } = require('../helpers/poll');

const QUERY = 'negotiate_saved_bytes_total{coding="br"}';
// Prometheus starts, replays its empty TSDB, then scrapes once a second.
const PROMETHEUS_WAIT_MS = 60_000;

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

// { value } of QUERY now, or null while Prometheus is not up or has no sample yet.
async function queried(port) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(QUERY)}`);
    const json = await res.json();
    const result = json.data?.result ?? [];
    return result.length === 1 ? { value: Number(result[0].value[1]) } : null;
  } catch {
    return null;
  }
}

test('Prometheus scrapes the metrics and reports the br bytes saved', { skip: toolSkipReason('prometheus', 'prometheus') }, async (t) => {
  const files = { 'a.js': compressibleText(30_000, 'a'), 'b.css': compressibleText(12_000, 'b') };
  const srv = await startTestServer({ files, metrics: '127.0.0.1:0' });
  t.after(() => srv.close());
  let expected = 0;
  for (const [name, text] of Object.entries(files)) {
    const res = await srv.h2(`/${name}`, { headers: { 'accept-encoding': 'br' } });
    assert.deepEqual([res.status, res.headers['content-encoding']], [200, 'br']);
    expected += text.length - res.body.length;
  }

  const dir = await makeTempDir('negotiate-prometheus-');
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  const target = new URL(srv.server.metricsUrl);
  await fs.writeFile(path.join(dir, 'prometheus.yml'), [
    'global:',
    '  scrape_interval: 1s',
    'scrape_configs:',
    '  - job_name: negotiate',
    `    metrics_path: ${target.pathname}`,
    '    static_configs:',
    `      - targets: ['${target.host}']`,
    '',
  ].join('\n'));
  const port = await freePort();
  const prometheus = spawn(commandPath('prometheus'), [
    `--config.file=${path.join(dir, 'prometheus.yml')}`,
    `--storage.tsdb.path=${path.join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  prometheus.stderr.on('data', (c) => { log = (log + c).slice(-4000); });
  const exited = new Promise((resolve) => prometheus.once('exit', resolve));
  t.after(() => {
    prometheus.kill('SIGKILL');
    return exited;
  });

  const { value } = await waitFor(async () => {
    if (prometheus.exitCode !== null) throw new Error(`prometheus exited (${prometheus.exitCode}):\n${log}`);
    return queried(port);
  }, { timeoutMs: PROMETHEUS_WAIT_MS, intervalMs: 250, what: () => `${QUERY} from prometheus; its log:\n${log}` });
  assert.equal(value, expected);
});
