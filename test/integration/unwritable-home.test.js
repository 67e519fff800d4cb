'use strict';
// A HOME the server cannot write (here a file, which no folder can be made under; a read-only
// HOME fails the same way for a user who is not root): the one-line error says so and names
// --ca-dir, where the bare errno of mkdir named only a folder the user never chose.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { REPO_ROOT } = require('../helpers/server');

test('an unwritable HOME: exit 2, one line saying HOME is not writable and naming --ca-dir', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unwritable-home-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const home = path.join(dir, 'home');
  fs.writeFileSync(home, '');
  const env = { ...process.env, HOME: home };
  delete env.XDG_CONFIG_HOME;
  const child = spawnSync(process.execPath, [path.join(REPO_ROOT, 'server'), path.join(REPO_ROOT, 'static'), '--port', '0', '--no-precompress'],
    { env, encoding: 'utf8', timeout: 30_000 });
  assert.equal(child.status, 2);
  assert.equal(child.stderr, `negotiate-h2: --ca-dir: cannot make the local CA in ${path.join(home, '.config', 'negotiate-h2')}: HOME (${home}) is not writable (ENOTDIR); ` +
    'choose a writable folder with --ca-dir DIR (or XDG_CONFIG_HOME), or serve your own certificate with --cert and --key\n');
});
