'use strict';
// `negotiate-h2 cache` as a user runs it, and the start-up removal of unused cache folders: a
// served root's folder is listed with its path, a folder unused for --cache-max-age-days goes
// at the next start (the one being served stays), and `cache clean DIR` removes DIR's.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { spawnCli, makeTempDir, REPO_ROOT } = require('../helpers/server');
const { waitFor } = require('../helpers/poll');
const { rootCacheDir, prepareCacheDir } = require('../../server/files/variant-cache');
const { noteRootUse } = require('../../server/files/cache-folders');

const DAY_MS = 86_400_000;

function cacheCli(args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(REPO_ROOT, 'server'), 'cache', ...args], { timeout: 20_000 },
      (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr }));
  });
}

test('a start notes its root and removes folders unused for 30 days; cache list and cache clean DIR', async (t) => {
  const dir = await fs.realpath(await makeTempDir('negotiate-cachecmd-'));
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  const root = path.join(dir, 'site');
  const cacheDir = path.join(dir, 'cache');
  await fs.mkdir(root);
  await fs.writeFile(path.join(root, 'app.js'), 'console.log("hello");\n'.repeat(200));
  // A folder of a root served 31 days ago, and one of 29 days ago.
  for (const [other, days] of [['/srv/stale', 31], ['/srv/recent', 29]]) {
    await prepareCacheDir(rootCacheDir(cacheDir, other));
    await fs.writeFile(path.join(rootCacheDir(cacheDir, other), 'v'), Buffer.alloc(1000));
    await noteRootUse(cacheDir, other, Date.now() - days * DAY_MS);
  }
  const server = await spawnCli([root, '--port', '0', '--cache-dir', cacheDir, '--certs-dir', path.join(dir, 'certs')],
    { env: { NEGOTIATE_CA_DIR: path.join(dir, 'ca') } });
  t.after(() => server.stop('SIGKILL'));
  await waitFor(() => /cache: removed 1 folder\(s\) of roots not served for 30 days \(1000 B\)/.test(server.output()), { what: 'the removal line' });
  await assert.rejects(fs.lstat(rootCacheDir(cacheDir, '/srv/stale')), { code: 'ENOENT' });
  await waitFor(async () => (await cacheCli(['list', '--cache-dir', cacheDir])).stdout.includes(`(today)  ${root}  `), { what: 'the served root in the list' });
  await server.stop();

  const list = await cacheCli(['--cache-dir', cacheDir]);
  assert.equal(list.code, 0);
  assert.match(list.stdout, new RegExp(`^${cacheDir}: 2 folder\\(s\\), `));
  assert.match(list.stdout, /last used \d{4}-\d\d-\d\d \(29 days ago\) {2}\/srv\/recent {2}[0-9a-f]{32}\n/);

  const clean = await cacheCli(['clean', root, '--cache-dir', cacheDir]);
  assert.equal(clean.code, 0, clean.stderr);
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  assert.match(clean.stdout, new RegExp(`^removed ${escape(rootCacheDir(cacheDir, root))} \\(\\d+(\\.\\d)? (B|KiB), for ${escape(root)}\\)\n$`));
  await assert.rejects(fs.lstat(rootCacheDir(cacheDir, root)), { code: 'ENOENT' });
  const again = await cacheCli(['clean', root, '--cache-dir', cacheDir]);
  assert.equal(again.code, 2);
  assert.equal(again.stderr, `negotiate-h2: no cache folder for ${root} in ${cacheDir}\n`);

  const all = await cacheCli(['clean', '--cache-dir', cacheDir]);
  assert.match(all.stdout, /^removed .* \(1000 B, for \/srv\/recent\)\n$/);
  assert.match((await cacheCli(['--cache-dir', cacheDir])).stdout, /: 0 folder\(s\), 0 B\n/);
});

test('cache: server options and a stray directory are refused in one line', async () => {
  for (const args of [['list', 'site'], ['--port', '1'], ['clean', '--spa'], ['clean', '/nonexistent/negotiate']]) {
    const res = await cacheCli(args);
    assert.equal(res.code, 2, args.join(' '));
    assert.equal(res.stderr.trim().split('\n').length, 1, res.stderr);
  }
});
