'use strict';
// docs/configuration.md's option tables are generated from server/config/schema.js: a setting
// added, removed or changed there without regenerating the page fails here.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const TOOL = path.join(REPO_ROOT, 'docs', 'tools', 'config-reference.js');
const DOC = path.join(REPO_ROOT, 'docs', 'configuration.md');

async function tool(args) {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [TOOL, ...args], { cwd: REPO_ROOT });
    return { code: 0, stdout, stderr: '' };
  } catch (err) {
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

async function copyOfDoc(t, edit) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'config-reference-'));
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'configuration.md');
  await fs.writeFile(file, edit(await fs.readFile(DOC, 'utf8')));
  return file;
}

test('docs/configuration.md is current with server/config/schema.js', async () => {
  const result = await tool(['--check']);
  assert.equal(result.code, 0, result.stderr);
});

test('--check finds a stale table, and a run rewrites only the generated block', async (t) => {
  const original = await fs.readFile(DOC, 'utf8');
  const file = await copyOfDoc(t, (text) => text.replace('| `--port N` |', '| `--prot N` |').replace('# Configuration reference', '# Edited title'));
  const stale = await tool(['--check', file]);
  assert.equal(stale.code, 1);
  assert.match(stale.stderr, /is stale: run node docs\/tools\/config-reference\.js /);
  assert.equal((await tool([file])).code, 0);
  assert.equal(await fs.readFile(file, 'utf8'), original.replace('# Configuration reference', '# Edited title'));
});

test('a page without the markers is an error, not a silent pass', async (t) => {
  const file = await copyOfDoc(t, (text) => text.replace('<!-- /generated:server -->', ''));
  const result = await tool(['--check', file]);
  assert.equal(result.code, 2);
  assert.equal(result.stderr, 'no <!-- generated:server --> ... <!-- /generated:server --> block\n');
});
