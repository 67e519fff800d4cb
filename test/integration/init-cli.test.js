'use strict';
// `negotiate-h2 init [DIR]`: a starter negotiate.config.json whose $schema resolves from DIR,
// which the server then reads; never over an existing file; clear errors with exit codes.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { REPO_ROOT } = require('../helpers/server');
const { readConfigFile } = require('../../server/config/config-file');
const { SERVER } = require('../../server/config/schema');

const init = (args, cwd) => spawnSync(process.execPath, [path.join(REPO_ROOT, 'server'), 'init', ...args], { cwd, encoding: 'utf8' });

test('init DIR writes a file whose $schema resolves from DIR, and the server reads it', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'init-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const site = path.join(dir, 'public');
  fs.mkdirSync(site);
  const file = path.join(site, 'negotiate.config.json');
  // Named relative to the working directory, and with no DIR (the working directory).
  for (const [args, cwd] of [[['public'], dir], [[], site]]) {
    fs.rmSync(file, { force: true });
    const child = init(args, cwd);
    assert.deepEqual([child.status, child.stdout, child.stderr], [0, `wrote ${file}\n`, '']);
    const written = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.equal(path.resolve(site, written.$schema), path.join(REPO_ROOT, 'negotiate.config.schema.json'));
    assert.deepEqual(readConfigFile(site, undefined, SERVER, '--config').values, { spa: false, listing: false });
  }
});

test('init never overwrites; a missing folder or extra arguments are clear errors with exit codes', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'init-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'negotiate.config.json');
  fs.writeFileSync(file, '{ "spa": true }\n');
  const CASES = [
    [[dir], 1, `negotiate-h2 init: ${file} exists; not overwritten (edit it, or move it away first)\n`],
    [[path.join(dir, 'missing')], 1, `negotiate-h2 init: ${path.join(dir, 'missing')} is not a directory\n`],
    [[dir, 'other'], 2, /^negotiate-h2 init: expected at most one directory, got .+ other\nusage: negotiate-h2 init \[DIR\]/],
  ];
  for (const [args, status, stderr] of CASES) {
    const child = init(args, dir);
    assert.equal(child.status, status, args.join(' '));
    if (typeof stderr === 'string') assert.equal(child.stderr, stderr);
    else assert.match(child.stderr, stderr);
    assert.equal(child.stdout, '');
  }
  assert.equal(fs.readFileSync(file, 'utf8'), '{ "spa": true }\n');
  const help = init(['--help'], dir);
  assert.deepEqual([help.status, help.stderr], [0, '']);
  assert.match(help.stdout, /^usage: negotiate-h2 init \[DIR\] +write a starter DIR\/negotiate\.config\.json/);
});
