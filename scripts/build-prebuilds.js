#!/usr/bin/env node
'use strict';
// `npm run build:prebuilds` (run by `prepack`, so every tarball carries it): the HPACK/QPACK
// addon for this platform as an N-API binary in prebuilds/PLATFORM-ARCH/negotiate-h2.node, which
// native/js/addon.js (node-gyp-build) loads with no compiler and no install script. One N-API
// binary serves every Node version the package supports.
//   node scripts/build-prebuilds.js [--out DIR]   DIR/prebuilds/... (default: the checkout)
// The build runs on a staged copy of the addon's sources (the checkout's own build/, which the
// tests and benchmarks load, is left as it was) and lands in a temporary folder; the binary must
// then load in a child process before it replaces the previous prebuild. So a failed build or
// an unloadable binary exits 1 with node-gyp's own output, keeps the previous prebuild, and
// `npm pack` (whose prepack this is) makes no tarball.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
// What binding.gyp compiles for the HPACK/QPACK addon, and package.json for node-addon-api's path.
const SOURCES = ['binding.gyp', 'package.json', 'native/src', 'native/include', 'native/binding'];
const NAME = `${require('../package.json').name}.node`;
// binding.gyp's Linux-only block builds the transport (native/transport/), which only the
// benchmarks load from a clone's build/: the prebuild is the HPACK addon alone.
const TRANSPORT_BLOCK = /,\n {2}"conditions": \[[\s\S]*"target_name": "transport"[\s\S]*\n {2}\]\n(?=\}\s*$)/;
// An export of the addon that proves it loaded whole (native/js/addon.js's users need it).
const PROBE = 'Decoder';
// node-gyp's complaints when it has no Node headers: it downloads them unless told where they are.
const NO_HEADERS = /download|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|common\.gypi|node_api\.h|node\.h: No such file/i;

function stageBindingGyp(file) {
  const text = fs.readFileSync(file, 'utf8');
  const staged = text.replace(TRANSPORT_BLOCK, '\n');
  if (staged.includes('transport')) throw new Error(`${file}: the transport target's block was not found where expected`);
  fs.writeFileSync(file, staged);
}

// npm runs scripts with its own node-gyp in npm_config_node_gyp; run by hand, the one npm ships.
function nodeGyp(env) {
  if (env.npm_config_node_gyp) return env.npm_config_node_gyp;
  const npmOnPath = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim();
  if (npmOnPath === '') throw new Error('node-gyp comes with npm, which is not on PATH: run this as `npm run build:prebuilds`');
  return path.join(path.dirname(fs.realpathSync(npmOnPath)), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
}

/** Why the binary at `file` does not load in a fresh Node process, or null. */
function loadProblem(file) {
  const script = `const addon = require(${JSON.stringify(file)}); if (typeof addon[${JSON.stringify(PROBE)}] !== 'function') throw new Error('it has no ${PROBE}')`;
  const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
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
    stageBindingGyp(path.join(stage, 'binding.gyp'));
    // binding.gyp finds node-addon-api's headers by requiring it from the build's directory.
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(stage, 'node_modules'), 'dir');
    const gyp = spawnSync(process.execPath, [nodeGyp(env), 'rebuild', '--release'], { cwd: stage, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (gyp.status !== 0) {
      process.stderr.write(buildFailure(`${gyp.stdout ?? ''}${gyp.stderr ?? ''}${gyp.error ? gyp.error.message : ''}`));
      return 1;
    }
    const built = path.join(stage, 'build', 'Release', 'hpack.node');
    if (process.platform === 'linux') spawnSync('strip', ['--strip-all', built]);
    const problem = loadProblem(built);
    if (problem !== null) {
      process.stderr.write(`build:prebuilds: the built addon does not load (${problem}); the previous prebuild, if any, is kept\n`);
      return 1;
    }
    return swapIn(built, path.join(outRoot, 'prebuilds', `${process.platform}-${process.arch}`));
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

// The new folder is complete before it takes the old one's name.
function swapIn(built, dir) {
  const next = `${dir}.next`;
  fs.rmSync(next, { recursive: true, force: true });
  fs.mkdirSync(next, { recursive: true });
  fs.copyFileSync(built, path.join(next, NAME));
  const old = `${dir}.old`;
  fs.rmSync(old, { recursive: true, force: true });
  if (fs.existsSync(dir)) fs.renameSync(dir, old);
  fs.renameSync(next, dir);
  fs.rmSync(old, { recursive: true, force: true });
  process.stdout.write(`${path.relative(process.cwd(), path.join(dir, NAME))}\n`);
  return 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));

module.exports = { main };
