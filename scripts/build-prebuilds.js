#!/usr/bin/env node
'use strict';
// `npm run build:prebuilds` (run by `prepack`, so every tarball carries them): the addons for this
// platform as N-API binaries, loaded with no compiler and no install script:
//   prebuilds/PLATFORM-ARCH/negotiate-h2.node   HPACK/QPACK (native/js/addon.js, node-gyp-build)
//   prebuilds/linux-x64/addons/transport.node   the C transport, Linux (native/transport.js)
//   prebuilds/linux-x64/addons/quic.node        HTTP/3's QUIC transport, Linux (native/quic.js)
// One N-API binary serves every Node version the package supports; quic.node loads only in a Node
// whose OpenSSL is 3.5 (22.20+, 24), and is built against such a Node's headers: node-gyp's own, or
// those of the Node 24 that scripts/node-runtime.js fetches from the npm registry into its cache.
// Where none can be had, the prebuilds have no quic.node (HTTP/3 off for the installs), said in
// one line.
//   node scripts/build-prebuilds.js [--out DIR]   DIR/prebuilds/... (default: the checkout)
// The build runs on a staged copy of the addons' sources (the checkout's own build/, which the
// tests and benchmarks load, is left as it was) and lands in a temporary folder; each binary must
// then load in a child process (quic.node in a Node with OpenSSL 3.5) before they replace the
// previous prebuilds. So a failed build or an unloadable binary exits 1 with node-gyp's own
// output, keeps the previous prebuilds, and `npm pack` (whose prepack this is) makes no tarball.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { cacheRoot } = require('./node-runtime');
const { quicInclude, cachedQuicRuntimes } = require('./quic-headers');
const { opensslHasQuic } = require('../native/quic');

const ROOT = path.resolve(__dirname, '..');
// What binding.gyp compiles and runs (its QUIC target asks scripts/quic-headers.js), and
// package.json for node-addon-api's path.
const SOURCES = ['binding.gyp', 'package.json', 'native/src', 'native/include', 'native/binding', 'native/transport',
  'native/quic', 'scripts/quic-headers.js', 'scripts/node-runtime.js'];
const NAME = `${require('../package.json').name}.node`;
// Each addon binding.gyp builds: its file in build/Release, where it goes in the prebuilds folder,
// and an export that proves it loaded whole. The HPACK addon is the one the package cannot do
// without; the others are built on Linux only, quic.node only with OpenSSL 3.5's headers.
const ADDONS = [
  { built: 'hpack.node', shipped: NAME, probe: 'Decoder', required: true },
  { built: 'transport.node', shipped: path.join('addons', 'transport.node'), probe: 'connListen', required: process.platform === 'linux' },
  { built: 'quic.node', shipped: path.join('addons', 'quic.node'), probe: 'listen', needsQuic: true },
];
// node-gyp's complaints when it has no Node headers: it downloads them unless told where they are.
const NO_HEADERS = /download|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|common\.gypi|node_api\.h|node\.h: No such file/i;

/** The node binary to load quic.node in: this one where its OpenSSL has QUIC, else a cached Node 24 or 22.20+; null when none. */
function quicLoader(root) {
  if (opensslHasQuic(process.versions.openssl)) return process.execPath;
  const [runtime] = cachedQuicRuntimes(root);
  return runtime === undefined ? null : path.join(runtime, 'package', 'bin', 'node');
}

/**
 * { node (quicLoader's), why (the reason the prebuilds may lack quic.node) }. Fetches Node 24 into
 * scripts/node-runtime.js's cache when binding.gyp would find no QUIC headers or there is no
 * node to load quic.node in.
 */
function quicRuntime(env) {
  const root = cacheRoot(env);
  const nodeDir = env.npm_config_nodedir || path.join(os.homedir(), '.cache', 'node-gyp', process.versions.node);
  if (quicInclude(nodeDir, root) === null || quicLoader(root) === null) {
    const fetched = spawnSync(process.execPath, [path.join(__dirname, 'node-runtime.js'), '24'], { env, encoding: 'utf8' });
    if (fetched.status !== 0) return { node: quicLoader(root), why: fetched.stderr.trim().split('\n').pop() || `exit code ${fetched.status}` };
  }
  const node = quicLoader(root);
  return { node, why: node === null ? 'no Node with OpenSSL 3.5 to load it in' : 'no OpenSSL 3.5 headers' };
}

// npm runs scripts with its own node-gyp in npm_config_node_gyp; run by hand, the one npm ships.
function nodeGyp(env) {
  if (env.npm_config_node_gyp) return env.npm_config_node_gyp;
  const npmOnPath = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim();
  if (npmOnPath === '') throw new Error('node-gyp comes with npm, which is not on PATH: run this as `npm run build:prebuilds`');
  return path.join(path.dirname(fs.realpathSync(npmOnPath)), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
}

/** Why the binary at `file` does not load in a fresh process of `node`, or null. */
function loadProblem(file, probe, node = process.execPath) {
  const script = `const addon = require(${JSON.stringify(file)}); if (typeof addon[${JSON.stringify(probe)}] !== 'function') throw new Error('it has no ${probe}')`;
  const child = spawnSync(node, ['-e', script], { encoding: 'utf8' });
  if (child.status === 0) return null;
  return (child.stderr.split('\n').find((line) => /Error/.test(line)) ?? `exit code ${child.status}`).trim();
}

// The failure, node-gyp's own output first, then what to do about missing headers.
function buildFailure(output) {
  const hint = NO_HEADERS.test(output)
    ? `\nnode-gyp needs Node's C headers and downloads them from nodejs.org; where it cannot, point it at installed ones with npm_config_nodedir` +
      (fs.existsSync('/usr/include/node/node_api.h') ? ' (here: npm_config_nodedir=/usr npm pack)' : ' (the folder above include/node/)')
    : '';
  return `${output.trimEnd()}\nbuild:prebuilds: node-gyp failed; the previous prebuild, if any, is kept${hint}\n`;
}

/** Builds, checks and swaps in the prebuild; resolves with the exit code. */
function main(argv, env = process.env) {
  const outIndex = argv.indexOf('--out');
  const outRoot = outIndex === -1 ? ROOT : path.resolve(argv[outIndex + 1] ?? '');
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'negotiate-prebuild-'));
  try {
    for (const rel of SOURCES) fs.cpSync(path.join(ROOT, rel), path.join(stage, rel), { recursive: true });
    // binding.gyp finds node-addon-api's headers by requiring it from the build's directory.
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(stage, 'node_modules'), 'dir');
    const quic = process.platform === 'linux' ? quicRuntime(env) : { node: null, why: 'Linux only' };
    const gyp = spawnSync(process.execPath, [nodeGyp(env), 'rebuild', '--release'], { cwd: stage, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (gyp.status !== 0) {
      process.stderr.write(buildFailure(`${gyp.stdout ?? ''}${gyp.stderr ?? ''}${gyp.error ? gyp.error.message : ''}`));
      return 1;
    }
    const files = [];
    for (const addon of ADDONS) {
      const built = path.join(stage, 'build', 'Release', addon.built);
      if (!fs.existsSync(built) && !addon.required) continue;
      if (addon.needsQuic && quic.node === null) continue;
      if (process.platform === 'linux') spawnSync('strip', ['--strip-all', built]);
      const problem = loadProblem(built, addon.probe, addon.needsQuic ? quic.node : process.execPath);
      if (problem !== null) {
        process.stderr.write(`build:prebuilds: the built addon ${addon.built} does not load (${problem}); the previous prebuilds, if any, are kept\n`);
        return 1;
      }
      files.push([built, addon.shipped]);
    }
    if (process.platform === 'linux' && !files.some(([built]) => built.endsWith('quic.node'))) {
      process.stderr.write(`build:prebuilds: no quic.node in these prebuilds (${quic.why}): installs from them have no HTTP/3\n`);
    }
    return swapIn(files, path.join(outRoot, 'prebuilds', `${process.platform}-${process.arch}`));
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

// The new folder is complete before it takes the old one's name. files: [built, path inside].
function swapIn(files, dir) {
  const next = `${dir}.next`;
  fs.rmSync(next, { recursive: true, force: true });
  for (const [built, shipped] of files) {
    fs.mkdirSync(path.dirname(path.join(next, shipped)), { recursive: true });
    fs.copyFileSync(built, path.join(next, shipped));
  }
  const old = `${dir}.old`;
  fs.rmSync(old, { recursive: true, force: true });
  if (fs.existsSync(dir)) fs.renameSync(dir, old);
  fs.renameSync(next, dir);
  fs.rmSync(old, { recursive: true, force: true });
  for (const [, shipped] of files) process.stdout.write(`${path.relative(process.cwd(), path.join(dir, shipped))}\n`);
  return 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));

module.exports = { main };
