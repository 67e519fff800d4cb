'use strict';
// The package's declarations (index.d.ts, types/options.d.ts generated from
// server/config/schema.js, native/index.d.ts): a strict program using the API compiles through
// the exports map, a misspelt option key does not, and the generated files are current.

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { tscSkipReason, runTsc } = require('../helpers/tsc');
const { REPO_ROOT } = require('../helpers/server');

const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'types');

test('types/options.d.ts and negotiate.config.schema.json are what server/config/schema.js makes', () => {
  const run = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'gen-types.js'), '--check'], { encoding: 'utf8' });
  assert.equal(run.stderr, '');
  assert.equal(run.status, 0);
});

test('a strict program using startServer, handler and the HPACK/QPACK classes compiles', { skip: tscSkipReason() }, async () => {
  assert.deepEqual(await runTsc(path.join(FIXTURES, 'api.mts')), { code: 0, output: '' });
});

test('a misspelt option key does not compile', { skip: tscSkipReason() }, async () => {
  const { code, output } = await runTsc(path.join(FIXTURES, 'misspelt.mts'));
  assert.equal(code, 1);
  assert.match(output, /^misspelt\.mts\(4,36\): error TS2561: Object literal may only specify known properties, but 'cacheControll' does not exist in type 'ServerOptions'\. Did you mean to write 'cacheControl'\?$/m);
});
