'use strict';
// scripts/build-prebuilds.js (npm pack's prepack): a failed build shows node-gyp's own output and
// keeps the previous prebuild; a built addon that does not load is refused the same way. The
// compiler is replaced, through CC/CXX (which node-gyp's Makefile takes), by a script.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { REPO_ROOT } = require('../helpers/server');
const { commandPath } = require('../helpers/tools');

const SCRIPT = path.join(REPO_ROOT, 'scripts', 'build-prebuilds.js');
const PREBUILD = path.join('prebuilds', `${process.platform}-${process.arch}`, 'negotiate-h2.node');
const OLD = 'the previous prebuild\n';
// Node's headers: the installed ones where there are, so that no download is needed.
const NODEDIR = fs.existsSync('/usr/include/node/node_api.h') ? { npm_config_nodedir: '/usr' } : {};

// [what the compiler does, its script for the real compiler `real`, what stderr must hold]
const COMPILERS = [
  ['fails', () => '#!/bin/sh\necho "fake-cc: boom, cannot compile $*" >&2\nexit 1\n',
    [/fake-cc: boom, cannot compile/, /build:prebuilds: node-gyp failed; the previous prebuild, if any, is kept/]],
  // Compiles with the real compiler but links garbage: a .node that no Node can load.
  ['links an unloadable file', (real) => `#!/bin/sh\ncase " $* " in *" -shared "*)\n  while [ $# -gt 0 ]; do [ "$1" = -o ] && printf 'not an ELF' > "$2"; shift; done; exit 0;;\nesac\nexec ${real} "$@"\n`,
    [/^build:prebuilds: the built addon hpack\.node does not load \(.+\); the previous prebuilds, if any, are kept\n$/]],
];

for (const [what, script, expected] of COMPILERS) {
  test(`a compiler that ${what}: exit 1, why on stderr, the previous prebuild kept`, { skip: commandPath('c++') === null && 'no c++ compiler', timeout: 300_000 }, (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'build-prebuilds-'));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const [cc, cxx] = [['fake-cc', 'cc'], ['fake-cxx', 'c++']].map(([name, real]) => {
      fs.writeFileSync(path.join(dir, name), script(commandPath(real) ?? real), { mode: 0o755 });
      return path.join(dir, name);
    });
    const out = path.join(dir, 'out');
    fs.mkdirSync(path.dirname(path.join(out, PREBUILD)), { recursive: true });
    fs.writeFileSync(path.join(out, PREBUILD), OLD);
    const child = spawnSync(process.execPath, [SCRIPT, '--out', out], {
      encoding: 'utf8', env: { ...process.env, ...NODEDIR, CC: cc, CXX: cxx }, timeout: 280_000,
    });
    assert.equal(child.status, 1, child.stderr);
    for (const re of expected) assert.match(child.stderr, re);
    assert.equal(child.stdout, '');
    assert.equal(fs.readFileSync(path.join(out, PREBUILD), 'utf8'), OLD);
    assert.deepEqual(fs.readdirSync(path.dirname(path.join(out, PREBUILD))), ['negotiate-h2.node']);
  });
}

test('without Node\'s headers to download, the failure explains npm_config_nodedir', { timeout: 300_000 }, (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'build-prebuilds-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  // A nodedir with no headers, and a dist URL nothing answers: node-gyp can find headers nowhere.
  const child = spawnSync(process.execPath, [SCRIPT, '--out', path.join(dir, 'out')], {
    encoding: 'utf8', timeout: 280_000,
    env: { ...process.env, npm_config_nodedir: path.join(dir, 'no-headers'), npm_config_devdir: path.join(dir, 'devdir'), npm_config_dist_url: 'http://127.0.0.1:9/' },
  });
  assert.equal(child.status, 1, child.stderr);
  assert.match(child.stderr, /gyp ERR!/, 'node-gyp\'s own output');
  assert.match(child.stderr, /node-gyp needs Node's C headers and downloads them from nodejs\.org; where it cannot, point it at installed ones with npm_config_nodedir/);
  assert.equal(fs.existsSync(path.join(dir, 'out', 'prebuilds')), false);
});
