'use strict';
// scripts/node-runtime.js, which .ci/run uses to run the suite again on Node 24 from the registry:
// the version it picks, the integrity it checks, and what the cache holds.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { cacheRoot, pickVersion, sri, cached, newestCached } = require('../../scripts/node-runtime');

const PACKAGE = `node-${process.platform}-${process.arch}`;

test('the cache folder: $XDG_CACHE_HOME, else ~/.cache', () => {
  assert.equal(cacheRoot({ XDG_CACHE_HOME: '/x/cache' }, '/home/u'), '/x/cache/negotiate-h2-ci');
  assert.equal(cacheRoot({}, '/home/u'), '/home/u/.cache/negotiate-h2-ci');
});

// [npm view's --json output, the version picked]
const VIEWS = [
  ['{"version":"24.21.0","dist.integrity":"sha512-a"}', '24.21.0'],
  ['[{"version":"24.9.0","dist.integrity":"sha512-a"},{"version":"24.21.0","dist.integrity":"sha512-b"},{"version":"24.10.1","dist.integrity":"sha512-c"}]', '24.21.0'],
];
for (const [json, version] of VIEWS) {
  test(`the newest version of npm view's answer: ${version}`, () => {
    assert.equal(pickVersion(json).version, version);
  });
}

test('an answer without versions is refused', () => {
  assert.throws(() => pickVersion('[]'), /no version/);
  assert.throws(() => pickVersion('{"version":"24.1.0"}'), /no version/);
});

test('integrity: sha512 in base64, as npm\'s dist.integrity writes it', () => {
  const bytes = Buffer.from('a tarball');
  assert.equal(sri(bytes), `sha512-${crypto.createHash('sha512').update(bytes).digest('base64')}`);
});

test('the cache: a runtime counts only with its node and the integrity it was checked against', (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'node-runtime-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const put = (version, integrity, withNode = true) => {
    const dir = path.join(root, `${PACKAGE}-${version}`);
    fs.mkdirSync(path.join(dir, 'package', 'bin'), { recursive: true });
    if (withNode) fs.writeFileSync(path.join(dir, 'package', 'bin', 'node'), '');
    fs.writeFileSync(path.join(dir, 'INTEGRITY'), integrity);
    return dir;
  };
  const a = put('24.9.0', 'sha512-a');
  put('24.21.0', 'sha512-b', false);
  assert.equal(cached(root, { version: '24.9.0', integrity: 'sha512-a' }), a);
  assert.equal(cached(root, { version: '24.9.0', integrity: 'sha512-other' }), null);
  assert.equal(cached(root, { version: '24.21.0', integrity: 'sha512-b' }), null, 'no bin/node');
  assert.equal(cached(root, { version: '24.22.0', integrity: 'sha512-c' }), null);
  assert.equal(newestCached(root, '24'), a, 'the newest whole one');
  const b = put('24.21.0', 'sha512-b');
  assert.equal(newestCached(root, '24'), b);
  assert.equal(newestCached(root, '22'), null);
  assert.equal(newestCached(path.join(root, 'none'), '24'), null);
});
