'use strict';
// The published package: `npm pack` holds what a fresh machine needs and nothing else (no
// tests, results, build outputs, keys or precompressed variants), and the tarball installs
// (building the addon) and serves a directory with `npx negotiate-h2 DIR`.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const path = require('node:path');
const { execFile, spawn } = require('node:child_process');
const { makeTempDir, REPO_ROOT } = require('../helpers/server');
const { createClients } = require('../helpers/clients');

// An install compiles three native addons; on a busy 2-core machine it took 100 s.
const INSTALL_TIMEOUT_MS = 600_000;

function run(cmd, args, { cwd, timeout = 120_000 } = {}) {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd, timeout, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')}: ${err.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

async function pack(t) {
  const dir = await makeTempDir('negotiate-pack-');
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  const [info] = JSON.parse(await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: REPO_ROOT }));
  return { dir, tarball: path.join(dir, info.filename), files: info.files.map((f) => f.path) };
}

const FORBIDDEN = [
  /^test\//, /^bench\/results\/.*\.json$/, /^build\//, /^native\/build-test\//, /^certs\/.*\.pem$/,
  /^static\/.*\.(br|gz|zst|lzma)$/, /\.negotiate-precompress\.json$/, /\.node$/,
];

test('npm pack: the files a fresh install needs, none of the rest', async (t) => {
  const { files } = await pack(t);
  for (const file of files) assert.equal(FORBIDDEN.find((re) => re.test(file)), undefined, file);
  for (const needed of ['package.json', 'README.md', 'binding.gyp', 'server/index.js', 'tools/precompress/index.js',
    'native/index.js', 'native/include/hpack.h', 'native/src/decoder.c', 'native/binding/addon.cc', 'native/transport.js', 'native/transport/floor.c', 'static/index.html',
    'tools/codings-report/cli.js', 'bench/lib/svg-chart.js', 'bench/lib/markdown-table.js']) {
    assert.ok(files.includes(needed), needed);
  }
  const manifest = JSON.parse(await fs.readFile(path.join(REPO_ROOT, 'package.json'), 'utf8'));
  assert.equal(manifest.private, undefined, 'publishable');
  assert.equal(manifest.bin['negotiate-h2'], 'server/index.js');
});

async function registryReachable() {
  try {
    await run('npm', ['ping'], { timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
}

test('the tarball installs and `npx negotiate-h2 DIR --port 0` serves DIR', { timeout: INSTALL_TIMEOUT_MS + 60_000 }, async (t) => {
  if (!(await registryReachable())) {
    t.skip('the npm registry is not reachable');
    return;
  }
  const { dir, tarball } = await pack(t);
  const app = path.join(dir, 'app');
  await fs.mkdir(path.join(app, 'site'), { recursive: true });
  await fs.writeFile(path.join(app, 'package.json'), '{ "name": "app", "version": "1.0.0", "private": true }\n');
  await fs.writeFile(path.join(app, 'site', 'hello.txt'), 'hello from an installed package\n');
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: app, timeout: INSTALL_TIMEOUT_MS });
  const installed = path.join(app, 'node_modules', 'negotiate-h2');
  await fs.access(path.join(installed, 'build', 'Release', 'hpack.node'));

  // npx does not forward signals to the server it runs: both get their own process group,
  // which the test signals as a whole.
  const child = spawn('npx', ['--no-install', 'negotiate-h2', 'site', '--port', '0', '--certs-dir', path.join(dir, 'certs'),
    '--ca-dir', path.join(dir, 'ca')],
    { cwd: app, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const group = (signal) => {
    try {
      process.kill(-child.pid, signal);
      return true;
    } catch (err) {
      if (err.code === 'ESRCH') return false;
      throw err;
    }
  };
  t.after(() => group('SIGKILL'));
  // 'close' comes once the server, holding the pipes too, has exited.
  const closed = new Promise((resolve) => child.once('close', resolve));
  let out = '';
  child.stderr.on('data', (c) => { out += c; });
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start:\n${out}`)), 30_000);
    child.stdout.on('data', (c) => {
      out += c;
      const m = /listening on https:\/\/localhost:(\d+)\//.exec(out);
      if (m) { clearTimeout(timer); resolve(Number(m[1])); }
    });
  });
  // The leaf is signed by the local CA made in --ca-dir (never the user's own config dir).
  const ca = await fs.readFile(path.join(dir, 'ca', 'ca.pem'));
  const clients = createClients({ port, ca });
  const res = await clients.h2('/hello.txt');
  assert.equal(res.status, 200);
  assert.equal(res.body.toString(), 'hello from an installed package\n');
  await clients.closeAll();
  group('SIGTERM');
  for (const deadline = Date.now() + 15_000; group(0);) {
    assert.ok(Date.now() < deadline, `still running after SIGTERM:\n${out}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await closed;
  assert.match(out, /shutting down: finishing in-flight requests/);
});
