'use strict';
// Test servers: a temporary root filled with fixture files, startServer() on 127.0.0.1 port 0
// with a throwaway certificate, and clients bound to it. close() stops the server and
// removes the root.

const fs = require('node:fs/promises');
const fsSync = require('node:fs');
const os = require('node:os');
const path = require('node:path');

// Tests never write into the user's own ~/.config or ~/.cache: the local CA, certificates and
// variant cache of every server a test starts (in this process, or spawned: children inherit
// the environment) go to one temporary home per test process, set before the schema reads it.
const TEST_HOME = fsSync.mkdtempSync(path.join(os.tmpdir(), 'negotiate-home-'));
process.env.XDG_CONFIG_HOME = path.join(TEST_HOME, 'config');
process.env.XDG_CACHE_HOME = path.join(TEST_HOME, 'cache');
process.on('exit', () => fsSync.rmSync(TEST_HOME, { recursive: true, force: true }));

const { startServer } = require('../../server');
const { defaultOf } = require('../../server/config/schema');
const { rootCacheDir, cachedPath, realCacheDir } = require('../../server/files/variant-cache');
const { generateSelfSigned } = require('../../server/tls/certs');
const { spawn } = require('node:child_process');
const { describe } = require('node:test');
const { createClients } = require('./clients');
const { countOpenFds } = require('./poll');

const REPO_ROOT = path.resolve(__dirname, '..', '..');

let certificate = null;

// One certificate per test process: key generation is the slowest part of a server start.
function testCertificate() {
  certificate ??= generateSelfSigned();
  return certificate;
}

// files: { 'dir/name.ext': string | Buffer | { content, mtime (Date|seconds), symlink } }.
async function writeFiles(root, files) {
  for (const [rel, spec] of Object.entries(files)) {
    const file = path.join(root, rel);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const { content, mtime, symlink } = typeof spec === 'string' || Buffer.isBuffer(spec) ? { content: spec } : spec;
    if (symlink !== undefined) {
      await fs.symlink(symlink, file);
      continue;
    }
    await fs.writeFile(file, content);
    if (mtime !== undefined) await fs.utimes(file, mtime, mtime);
  }
}

async function makeTempDir(prefix = 'negotiate-test-') {
  return fs.mkdtemp(path.join(os.tmpdir(), prefix));
}

// The HTTP/2 engines startServer() can run: Node's node:http2, and the project's own server/engines/h2/.
const ENGINES = ['node', 'native'];

// NEGOTIATE_TEST_ENGINES=native (comma-separated) narrows a run to some engines while working on one.
function selectedEngines() {
  const wanted = process.env.NEGOTIATE_TEST_ENGINES;
  if (!wanted) return ENGINES;
  const list = wanted.split(',').map((e) => e.trim());
  for (const e of list) if (!ENGINES.includes(e)) throw new Error(`NEGOTIATE_TEST_ENGINES: unknown engine "${e}" (expected ${ENGINES.join(', ')})`);
  return list;
}

// Declares `suite(engine, transport)` once per engine, each inside describe('<engine> engine'), so
// every test name carries the engine it ran on; with { transports: true } the native engine runs
// once more on the C transport (describe('native engine on the C transport'), skipped with the
// reason where it cannot load). Suites run one after the other, so a suite's before()/after()
// hooks own the server for its tests alone. NEGOTIATE_TRANSPORT=c puts any test file's servers
// on the C transport.
function forEachEngine(suite, { transports = false } = {}) {
  for (const engine of selectedEngines()) {
    describe(`${engine} engine`, () => suite(engine, process.env.NEGOTIATE_TRANSPORT));
    if (transports && engine === 'native') describe('native engine on the C transport', { skip: cTransportSkipReason() }, () => suite(engine, 'c'));
  }
}

// Declares `suite(transport)` once per TLS transport of the native engine ('node', 'c'), each
// inside describe('<transport> transport'), the C one skipped where it cannot load.
function forEachTransport(suite) {
  describe('node transport', () => suite('node'));
  describe('c transport', { skip: cTransportSkipReason() }, () => suite('c'));
}

function cTransportSkipReason() {
  const { transportFor } = require('../../server/engines/transport');
  return transportFor('c', null) === 'c' ? false : 'the C transport cannot be loaded here';
}

// options: startServer options plus `files` for a fresh temporary root (or `root`).
async function startTestServer({ files = {}, ...options } = {}) {
  const tmp = options.root ? null : await makeTempDir();
  const root = options.root || path.join(tmp, 'root');
  if (tmp) {
    await fs.mkdir(root);
    await writeFiles(root, files);
  }
  const tls = await testCertificate();
  let server;
  try {
    server = await startServer({
      host: '127.0.0.1', port: 0, logLevel: 'silent', tls, engine: process.env.NEGOTIATE_ENGINE, transport: process.env.NEGOTIATE_TRANSPORT, ...options, root,
    });
  } catch (err) {
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
    throw err;
  }
  const clients = createClients({ port: server.port, ca: tls.cert });
  return {
    ...clients,
    server,
    port: server.port,
    root,
    tmp,
    origin: `https://127.0.0.1:${server.port}`,
    get stats() { return server.stats; },
    async close() {
      await clients.closeAll();
      await server.close({ timeoutMs: 2000 });
      if (tmp) await fs.rm(tmp, { recursive: true, force: true });
    },
  };
}

// Deterministic, compressible text of about `bytes` bytes.
function compressibleText(bytes, seed = 'line') {
  let out = '';
  for (let i = 0; out.length < bytes; i++) out += `${seed} ${i}: the quick brown fox jumps over the lazy dog\n`;
  return out.slice(0, bytes);
}

const SPAWN_TIMEOUT_MS = 20_000;

// Runs the CLI (`node server ...args`), with `engine` and `transport` through their environment
// twins (and under `ulimit -n fdLimit` when given), and resolves once it printed the URL it listens on:
// { child, url, port, httpUrl, output() (everything printed so far), stdout() (its part on
// stdout), exited (Promise of { code, signal }), stop(signal) }. Rejects with the output if it
// exits or stalls first.
function spawnCli(args, { env = {}, engine, transport, cwd, fdLimit } = {}) {
  const command = [process.execPath, path.join(REPO_ROOT, 'server'), ...args];
  const limited = fdLimit === undefined ? command : ['/bin/sh', '-c', 'ulimit -n "$0" && exec "$@"', String(fdLimit), ...command];
  const child = spawn(limited[0], limited.slice(1), {
    env: { ...process.env, ...(engine && { NEGOTIATE_ENGINE: engine }), ...(transport && { NEGOTIATE_TRANSPORT: transport }), ...env },
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let stdout = '';
  child.stdout.on('data', (c) => { out += c; stdout += c; });
  child.stderr.on('data', (c) => { out += c; });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const handle = {
    child,
    exited,
    output: () => out,
    stdout: () => stdout,
    stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`CLI did not start:\n${out}`)); }, SPAWN_TIMEOUT_MS);
    const onData = () => {
      const m = /listening on (https?:\/\/\S+?:(\d+)\/)[^\n]*?(?:; (http:\/\/\S+) redirects there)?\n/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      resolve(Object.assign(handle, { url: m[1], port: Number(m[2]), httpUrl: m[3] || null }));
    };
    child.stdout.on('data', onData);
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`CLI exited (${code ?? signal}) before listening:\n${out}`), { code, output: out }));
    });
  });
}

// The line a server's background pass logs when it ends (site/background-precompress.js):
// files, the root's cache folder, variants written, already cached, evicted.
const PASS_DONE = /precompressed (\d+) files of \S+ into (\S+): (\d+) variants written, (\d+) already cached, (\d+) evicted/;

// Where the background pass caches the variant `ext` of root/rel as the file is now
// (files/variant-cache.js); cacheDir: the server's --cache-dir.
async function cachedVariant(root, rel, ext, cacheDir = defaultOf('cacheDir')) {
  const real = await fs.realpath(path.join(root, rel));
  return cachedPath(rootCacheDir(realCacheDir(cacheDir), await fs.realpath(root)), real, await fs.stat(real), ext);
}

// Spool files (server/files/spool.js) of this process still open: they are unlinked when created, so
// an open fd is all that is left of one.
function openSpoolFiles() {
  return countOpenFds((target) => target.includes('negotiate-spool-'));
}

// The shared read-only material sits next to the repository (../shared in CI).
const SHARED_DIR = path.resolve(REPO_ROOT, '..', 'shared');

module.exports = { TEST_HOME, PASS_DONE, cachedVariant, forEachEngine, forEachTransport, startTestServer, spawnCli, openSpoolFiles, writeFiles, makeTempDir, compressibleText, testCertificate, REPO_ROOT, SHARED_DIR };
