'use strict';
// The package as a user gets it: `npm pack` of this checkout (its prepack builds the prebuilt
// addon) installed into an empty project with `npm install --ignore-scripts` (no compiler, no
// install script: pnpm's default and what npm 11 does to scripts it was not allowed to run).
// Packed and installed once per test process; the project goes when the process exits.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFile, spawn } = require('node:child_process');
const { REPO_ROOT } = require('./server');

// The dependencies come from the npm cache when it has them (--prefer-offline); a cold cache
// downloads them from the registry.
const INSTALL_TIMEOUT_MS = 120_000;

function run(cmd, args, { cwd, timeout = 60_000, env } = {}) {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd, timeout, env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(Object.assign(new Error(`${cmd} ${args.join(' ')}: ${err.message}\n${stderr}`), { stdout, stderr }));
      else resolve({ stdout, stderr });
    });
  });
}

async function registryProblem() {
  try {
    await run('npm', ['ping'], { timeout: 20_000 });
    return null;
  } catch (err) {
    return `the npm registry is not reachable (npm ping: ${err.message.split('\n')[0]})`;
  }
}

let installing = null;

/**
 * Resolves { dir (a temporary folder), app (the project), installed (its
 * node_modules/negotiate-h2), tarball, files (the tarball's paths) }, or { skip: reason } when
 * the registry cannot be reached.
 */
function packedInstall() {
  installing ??= (async () => {
    const skip = await registryProblem();
    if (skip !== null) return { skip };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'negotiate-packed-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: REPO_ROOT, timeout: 300_000 });
    // npm prints the prepack script's output before the JSON.
    const [info] = JSON.parse(stdout.slice(stdout.indexOf('[\n')));
    const app = path.join(dir, 'app');
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, 'package.json'), '{ "name": "app", "version": "1.0.0", "private": true }\n');
    const tarball = path.join(dir, info.filename);
    await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', tarball],
      { cwd: app, timeout: INSTALL_TIMEOUT_MS });
    return { dir, app, installed: path.join(app, 'node_modules', 'negotiate-h2'), tarball, files: info.files.map((f) => f.path) };
  })();
  return installing;
}

/**
 * Spawns `npx negotiate-h2 ...args` in the project (with `env` added), detached so that the test can signal npx
 * and the server as one process group (npx does not forward signals). Returns { child, output()
 * (stdout and stderr so far), waitFor(regex, ms) (the match), stop() }.
 */
function spawnInstalled(app, args, { env = {} } = {}) {
  const child = spawn('npx', ['--no-install', 'negotiate-h2', ...args], { cwd: app, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  const listeners = new Set();
  const onData = (chunk) => {
    out += chunk;
    for (const listener of listeners) listener();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise((resolve) => child.once('close', resolve));
  const group = (signal) => {
    try {
      process.kill(-child.pid, signal);
      return true;
    } catch (err) {
      if (err.code === 'ESRCH') return false;
      throw err;
    }
  };
  function waitFor(regex, ms = 30_000) {
    return new Promise((resolve, reject) => {
      const check = () => {
        const m = regex.exec(out);
        if (m === null) return;
        done();
        resolve(m);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no ${regex} within ${ms} ms:\n${out}`));
      }, ms);
      const done = () => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      exited.then(() => {
        if (listeners.has(check)) {
          done();
          reject(new Error(`exited before ${regex}:\n${out}`));
        }
      });
      check();
    });
  }
  async function stop() {
    group('SIGTERM');
    const deadline = Date.now() + 15_000;
    while (group(0) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    group('SIGKILL');
    await exited;
  }
  return { child, output: () => out, waitFor, stop };
}

module.exports = { packedInstall, spawnInstalled, run };
