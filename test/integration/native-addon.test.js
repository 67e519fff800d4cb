'use strict';
// The C addon (native/) is needed by the native engine's HTTP/2 only: the node engine and
// handler() never load it, and a process where it (or zstd-napi) cannot be loaded still serves,
// saying so in one line that names the fix. The child processes below make a module fail to
// load as a package installed without its binary does.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { REPO_ROOT, spawnCli } = require('../helpers/server');
const { zstdBackend } = require('../../server/compression/zstd');

// Preloaded (node -r): requiring a module whose name FAIL_REQUIRE (a regex) matches throws as
// node-gyp-build does when there is no binary.
const FAIL_HOOK = path.join(REPO_ROOT, 'test', 'fixtures', 'fail-require.js');

function lineOf(output, regex) {
  return output.split('\n').filter((line) => regex.test(line)).map((line) => line.replace(/^\S+Z (warn|info) /, '$1 '));
}

// Runs `body` (an async function's body, with startServer, handler and get(url, accept-encoding)
// -> status and content-encoding) in a child where requiring a module `failing` matches throws;
// returns { lines (stdout), stderr, status }.
function runChild(failing, body, env = {}) {
  const script = `
    const http = require('node:http');
    const { startServer, handler } = require(${JSON.stringify(path.join(REPO_ROOT, 'server'))});
    const get = (url, accept) => new Promise((resolve, reject) => http.get(url, { headers: { 'accept-encoding': accept } },
      (res) => { res.resume(); res.on('end', () => resolve(res.statusCode + ' ' + res.headers['content-encoding'])); }).on('error', reject));
    (async () => { ${body} })().catch((err) => { console.error(err.stack); process.exitCode = 1; });`;
  const child = spawnSync(process.execPath, ['-r', FAIL_HOOK, '-e', script], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, FAIL_REQUIRE: failing, ...env } });
  const lines = lineOf(child.stdout, /./);
  return { lines, stderr: child.stderr, status: child.status };
}

// A site without dictionary rules: the dcb coding needs the addon in every engine, and static/
// has a rule (the demo's dictionary pair).
const SITE = fs.mkdtempSync(path.join(os.tmpdir(), 'native-addon-site-'));
fs.copyFileSync(path.join(REPO_ROOT, 'static', 'index.html'), path.join(SITE, 'index.html'));
test.after(() => fs.rmSync(SITE, { recursive: true, force: true }));
const ROOT = JSON.stringify(SITE);
const NATIVE = JSON.stringify(path.join(REPO_ROOT, 'native') + path.sep);

test('the node engine and handler() never load native/; the native engine does', () => {
  const { lines, stderr, status } = runChild('^$', `
    const loaded = () => Object.keys(require.cache).filter((file) => file.startsWith(${NATIVE})).length > 0;
    handler({ root: ${ROOT} });
    let server = await startServer({ root: ${ROOT}, engine: 'node', https: false, port: 0, logLevel: 'silent' });
    console.log('node engine loaded native/: ' + loaded());
    await server.close();
    server = await startServer({ root: ${ROOT}, engine: 'native', https: false, port: 0, logLevel: 'silent' });
    console.log('native engine loaded native/: ' + loaded());
    await server.close();`);
  assert.equal(stderr, '');
  assert.equal(status, 0);
  assert.deepEqual(lines, ['node engine loaded native/: false', 'native engine loaded native/: true']);
});

const ZSTD_MISSING = `warn zstd is not offered: node:zlib has no zstd in Node.js ${process.versions.node} and zstd-napi cannot be loaded: ` +
  'No native build was found for platform=test; to fix it use Node.js 24 (node:zlib has zstd), or install zstd-napi with its install script allowed';
const NO_ZLIB_ZSTD = { NO_ZLIB_ZSTD: '1' };
// Where node:zlib has zstd with dictionaries (Node 24), zstd-napi is not needed.
const ZLIB_ZSTD = zstdBackend() === 'zlib' ? undefined : `node:zlib's zstd cannot serve in Node.js ${process.versions.node}`;

// [what is missing, FAIL_REQUIRE, extra env, startServer options, accept-encoding, the lines expected, skip].
const MISSING = [
  ['the HPACK addon: the native engine falls back to node, in one line naming the fix', '^node-gyp-build$', {}, "engine: 'native'", 'br', [
    "warn the native engine's HPACK addon cannot be loaded (No native build was found for platform=test): serving with --engine node; to fix it run: npm rebuild negotiate-h2",
    '200 br',
  ]],
  ['zstd-napi nor node:zlib\'s zstd: zstd is not offered, in one line naming the fix', '^zstd-napi', NO_ZLIB_ZSTD, "engine: 'node', encodings: ['zstd', 'gzip']", 'zstd, gzip', [
    ZSTD_MISSING,
    '200 gzip',
  ]],
  ['zstd-napi, but with node:zlib\'s zstd: zstd is offered, nothing said', '^zstd-napi', {}, "engine: 'node', encodings: ['zstd', 'gzip']", 'zstd, gzip', [
    '200 zstd',
  ], ZLIB_ZSTD],
];

for (const [missing, failing, env, options, accept, expected, skip] of MISSING) {
  test(`without ${missing}`, { skip }, () => {
    const { lines, stderr, status } = runChild(failing, `
      const server = await startServer({ root: ${ROOT}, https: false, port: 0, logLevel: 'warn', ${options} });
      const response = await get(server.url + 'index.html', ${JSON.stringify(accept)});
      await server.close(); // the log's lines are written
      console.log(response);`, env);
    assert.equal(stderr, '');
    assert.equal(status, 0);
    assert.deepEqual(lines, expected);
  });
}

test('a cluster says each once: its primary, not every worker', async (t) => {
  const srv = await spawnCli([SITE, '--port', '0', '--no-tls', '--no-precompress', '--workers', '2', '--log-level', 'warn'],
    { env: { NODE_OPTIONS: `-r ${FAIL_HOOK}`, FAIL_REQUIRE: '^(node-gyp-build|zstd-napi)$', ...NO_ZLIB_ZSTD } });
  t.after(() => srv.stop('SIGKILL'));
  await srv.stop();
  assert.deepEqual(lineOf(srv.output(), /not offered|cannot be loaded/), [
    "warn the native engine's HPACK addon cannot be loaded (No native build was found for platform=test): serving with --engine node; to fix it run: npm rebuild negotiate-h2",
    ZSTD_MISSING,
  ]);
});
