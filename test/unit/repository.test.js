'use strict';
// The repository holds only code its team wrote: other projects' files come from their registry
// packages when they are needed (the demo's: docs/tools/demo-packages.js), so no folder of them is
// committed, whatever its name among the usual ones.

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { execFile } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const THIRD_PARTY = /(^|\/)(vendor|third_party|deps)\//;

test('git tracks no vendor/, third_party/ or deps/ folder', async (t) => {
  const { err, stdout, stderr } = await new Promise((resolve) => {
    execFile('git', ['ls-files', '-z'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (e, out, errOut) => resolve({ err: e, stdout: out, stderr: errOut }));
  });
  if (err?.code === 'ENOENT' || /not a git repository/.test(stderr)) {
    t.skip(err.code === 'ENOENT' ? 'git is not installed' : 'not a git checkout');
    return;
  }
  assert.equal(err, null, stderr);
  const tracked = stdout.split('\0').filter(Boolean);
  assert.ok(tracked.includes('package.json'), 'git ls-files listed the checkout');
  assert.deepEqual(tracked.filter((file) => THIRD_PARTY.test(file)), []);
});
