'use strict';
// What a server start that fails part way, and a handler() that is closed, leave behind:
// nothing. Each runs in a child process (test/fixtures/release-child.js) that must end by
// itself once it has reported (no watch, timer or socket of the core left to keep it alive),
// and the cache folder, where the core writes the dictionary deltas it makes ahead of time, is
// the same when the child ends as when it reported.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const net = require('node:net');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { makeTempDir, testCertificate, REPO_ROOT } = require('../helpers/server');
const { appScript } = require('../helpers/dictionary-site');

const CHILD = path.join(REPO_ROOT, 'test', 'fixtures', 'release-child.js');
// How long a child may take to end once it reported: far more than a process needs to exit,
// far less than never.
const EXIT_BOUND_MS = 15_000;
const RULE = { match: '/assets/app.*.js' };

// A root whose start-up makes deltas (app.v2.js against app.v1.js), and its cache folder.
async function site(t) {
  const tmp = await makeTempDir('negotiate-release-');
  t.after(() => fs.rm(tmp, { recursive: true, force: true }));
  const root = path.join(tmp, 'root');
  await fs.mkdir(path.join(root, 'assets'), { recursive: true });
  await fs.writeFile(path.join(root, 'assets', 'app.v1.js'), appScript('v1', 64 * 1024));
  await fs.writeFile(path.join(root, 'assets', 'app.v2.js'), appScript('v2', 64 * 1024));
  await fs.utimes(path.join(root, 'assets', 'app.v1.js'), 1000, 1000);
  return { tmp, root, cacheDir: path.join(tmp, 'cache') };
}

// Every file under dir with its size and mtime ({} when dir does not exist).
async function listing(dir) {
  const entries = await fs.readdir(dir, { recursive: true }).catch(() => []);
  const out = {};
  for (const name of entries.sort()) {
    const st = await fs.lstat(path.join(dir, name));
    if (!st.isDirectory()) out[name] = `${st.size} ${st.mtimeMs}`;
  }
  return out;
}

// Runs the child until it prints its line; resolves { line, cacheAtLine, ended } where ended
// says whether it then exited by itself within EXIT_BOUND_MS, with what code.
function runChild(mode, options, cacheDir) {
  const child = spawn(process.execPath, [CHILD, mode, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stderr.on('data', (c) => { out += c; });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', async (c) => {
      out += c;
      const m = /^(.*)\n/.exec(out);
      if (m === null) return;
      child.stdout.removeAllListeners('data');
      const cacheAtLine = await listing(cacheDir);
      let timer;
      const late = new Promise((r) => { timer = setTimeout(() => r('still running'), EXIT_BOUND_MS); });
      const ended = await Promise.race([exited, late]);
      clearTimeout(timer);
      if (ended === 'still running') child.kill('SIGKILL');
      resolve({ line: m[1], cacheAtLine, ended, output: out });
    });
    exited.then(() => setTimeout(() => reject(new Error(`the child ended without reporting:\n${out}`)), 100));
  });
}

// A port bound here, so that the child's listen on it fails.
async function busyPort(t) {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  return server.address().port;
}

test('a start that fails after making its core stops it: the process ends, nothing more is written', { timeout: 120_000 }, async (t) => {
  const tls = await testCertificate();
  const port = await busyPort(t);
  const cases = [
    // [what fails, options, message]
    ['the certificate load', { cert: '/nonexistent/cert.pem', key: '/nonexistent/key.pem', port: 0 }, /^failed: cert: cannot read \/nonexistent\/cert\.pem: no such file$/],
    ['the listen', { tls, port }, new RegExp(`^failed: port: 127\\.0\\.0\\.1:${port}: in use$`)],
    ['the redirect port\'s listen', { tls, port: 0, httpPort: port }, new RegExp(`^failed: httpPort: 127\\.0\\.0\\.1:${port}: in use$`)],
  ];
  for (const [what, extra, message] of cases) {
    const { root, cacheDir } = await site(t);
    const r = await runChild('start', { root, cacheDir, host: '127.0.0.1', logLevel: 'silent', dictionaries: [RULE], ...extra }, cacheDir);
    assert.match(r.line, message, `${what}: ${r.output}`);
    assert.deepEqual(r.ended, { code: 0, signal: null }, `${what}: the process ends by itself`);
    assert.deepEqual(await listing(cacheDir), r.cacheAtLine, `${what}: nothing written after the failure`);
  }
});

test('handler().close() releases what the handler started: the process ends, nothing more is written', { timeout: 60_000 }, async (t) => {
  const { root, cacheDir } = await site(t);
  const paths = ['/assets/app.v1.js', '/assets/app.v2.js', '/assets/missing.js'];
  const r = await runChild('handler', { root, cacheDir, logLevel: 'silent', dictionaries: [RULE], paths }, cacheDir);
  assert.equal(r.line, 'closed', r.output);
  assert.deepEqual(r.ended, { code: 0, signal: null }, 'the process ends by itself');
  assert.deepEqual(await listing(cacheDir), r.cacheAtLine, 'nothing written after close()');
});
