#!/usr/bin/env node
'use strict';
// `npm run build:prebuilds` (run by `prepack`, so every tarball carries it): the HPACK/QPACK
// addon for this platform as an N-API binary in prebuilds/PLATFORM-ARCH/, which
// native/js/addon.js (node-gyp-build) loads with no compiler and no install script. One N-API
// binary serves every Node version the package supports.
// prebuildify runs `node-gyp rebuild` and then moves the result out of build/: it works on a
// staged copy of the addon's sources so that the checkout's own build/ (what the tests and
// benchmarks load) is left as it was.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const prebuildify = require('prebuildify');

const ROOT = path.resolve(__dirname, '..');
// What binding.gyp compiles for the HPACK/QPACK addon, and package.json for the prebuild's name.
const SOURCES = ['binding.gyp', 'package.json', 'native/src', 'native/include', 'native/binding'];
// binding.gyp's Linux-only block builds the transport (native/transport/), which only the
// benchmarks load from a clone's build/: the prebuild is the HPACK addon alone, and prebuildify
// takes whichever .node it finds first, so the staged binding.gyp leaves that block out.
const TRANSPORT_BLOCK = /,\n {2}"conditions": \[[\s\S]*"target_name": "transport"[\s\S]*\n {2}\]\n(?=\}\s*$)/;

function stageBindingGyp(file) {
  const text = fs.readFileSync(file, 'utf8');
  const staged = text.replace(TRANSPORT_BLOCK, '\n');
  if (staged.includes('transport')) throw new Error(`${file}: the transport target's block was not found where expected`);
  fs.writeFileSync(file, staged);
}

function main() {
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'negotiate-prebuild-'));
  for (const rel of SOURCES) fs.cpSync(path.join(ROOT, rel), path.join(stage, rel), { recursive: true });
  stageBindingGyp(path.join(stage, 'binding.gyp'));
  // binding.gyp finds node-addon-api's headers by requiring it from the build's directory.
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(stage, 'node_modules'), 'dir');
  const out = path.join(ROOT, 'prebuilds', `${process.platform}-${process.arch}`);
  fs.rmSync(out, { recursive: true, force: true });
  prebuildify({ cwd: stage, out: ROOT, napi: true, strip: true, quiet: true }, (err) => {
    fs.rmSync(stage, { recursive: true, force: true });
    if (err) {
      process.stderr.write(`build:prebuilds: ${err.message} (node-gyp comes with npm: run this as \`npm run build:prebuilds\`)\n`);
      process.exitCode = 1;
      return;
    }
    for (const name of fs.readdirSync(out)) process.stdout.write(`${path.relative(ROOT, path.join(out, name))}\n`);
  });
}

main();
