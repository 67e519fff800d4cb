'use strict';
// negotiate.config.json through the CLI: a bad file stops the start with one line naming the
// key (exit 2); a good one is picked up from the served folder, or from --config; with
// --workers the access-log lines of all workers come out whole.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const path = require('node:path');
const https = require('node:https');
const { execFile } = require('node:child_process');
const { forEachEngine, spawnCli, makeTempDir, REPO_ROOT } = require('../helpers/server');

async function fixture(t, config) {
  const dir = await makeTempDir('negotiate-site-cli-');
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  const root = path.join(dir, 'root');
  await fs.mkdir(root);
  await fs.writeFile(path.join(root, 'a.txt'), 'aaa');
  if (config !== undefined) await fs.writeFile(path.join(root, 'negotiate.config.json'), JSON.stringify(config));
  // Never the user's own CA: a temporary one, through the environment twin.
  const env = { NEGOTIATE_CA_DIR: path.join(dir, 'ca'), NEGOTIATE_CERTS_DIR: path.join(dir, 'certs'), NEGOTIATE_PORT: '0', NEGOTIATE_NO_PRECOMPRESS: '1' };
  return { dir, root, env };
}

function runCli(args, env) {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(REPO_ROOT, 'server'), ...args], { env: { ...process.env, ...env }, timeout: 20_000 },
      (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr }));
  });
}

function get(url, headers = {}) {
  return new Promise((resolve, reject) => {
    https.get(url, { rejectUnauthorized: false, agent: false, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res));
    }).on('error', reject);
  });
}

test('a bad configuration file: one line naming the key, exit 2', async (t) => {
  const cases = [
    [{ cachControl: 'x' }, [], 'negotiate.config.json: unknown key "cachControl" (did you mean cacheControl?)'],
    [{ spa: 'maybe' }, [], 'negotiate.config.json: spa: expected true or false, got "maybe"'],
    [{ headers: [{ match: '**', headers: { 'x-ok': 'v' } }, { match: '*.js', headers: { 'transfer-encoding': 'chunked' } }] }, [],
      'negotiate.config.json: headers[1]: "transfer-encoding" is set by the server and cannot be configured'],
  ];
  for (const [config, args, line] of cases) {
    const { root, env } = await fixture(t, config);
    const res = await runCli([root, ...args], env);
    assert.equal(res.stderr, `negotiate-h2: ${line}\n`);
    assert.equal(res.code, 2);
  }
  const { root, env } = await fixture(t);
  const missing = path.join(root, 'nope.json');
  const res = await runCli([root, '--config', missing], env);
  assert.equal(res.stderr, `negotiate-h2: --config: cannot read ${missing} (ENOENT)\n`);
  assert.equal(res.code, 2);
});

forEachEngine((engine) => {
  test('the root\'s negotiate.config.json is picked up; flags and variables win over it', async (t) => {
    const { root, env } = await fixture(t, { headers: [{ match: '*.txt', headers: { 'x-site': 'file' } }], cacheControl: 'from-file', logFormat: 'json' });
    const srv = await spawnCli([root, '--cache-control', 'from-flag'], { engine, env: { ...env, NEGOTIATE_LOG_FORMAT: 'combined' } });
    t.after(() => srv.stop());
    const res = await get(`${srv.url}a.txt`, { 'user-agent': 'cli-test' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-site'], 'file');
    assert.equal(res.headers['cache-control'], 'from-flag');
    await srv.stop();
    assert.match(srv.output(), /\n127\.0\.0\.1 - - \[[^\]]+\] "GET \/a\.txt HTTP\/1\.1" 200 3 "-" "cli-test"\n/);
  });

  test('--workers 2 --log-format json: every line of every worker is whole', async (t) => {
    const { dir, root, env } = await fixture(t);
    const config = path.join(dir, 'site.json');
    await fs.writeFile(config, JSON.stringify({ logFormat: 'json', workers: 2 }));
    const srv = await spawnCli([root, '--config', config], { engine, env });
    t.after(() => srv.stop());
    const N = 200;
    const long = 'x'.repeat(400);
    for (let i = 0; i < N; i += 20) {
      await Promise.all(Array.from({ length: 20 }, (_, j) => get(`${srv.url}a.txt?${i + j}`, { 'user-agent': long })));
    }
    await srv.stop();
    const lines = srv.stdout().trimEnd().split('\n').map((l) => JSON.parse(l));
    const seen = lines.filter((l) => l.path !== undefined).map((l) => Number(l.path.split('?')[1])).sort((a, b) => a - b);
    assert.deepEqual(seen, Array.from({ length: N }, (_, i) => i));
  });
});
