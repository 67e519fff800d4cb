'use strict';
// `negotiate-h2 trust` / `untrust` against NSS databases in a temporary HOME (never the real
// user's): Chromium's ~/.pki/nssdb is created and gets the CA as "C,,", so does a Firefox
// profile; untrust removes it from both. The system stores are only printed.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { makeTempDir, REPO_ROOT } = require('../helpers/server');
const { toolSkipReason } = require('../helpers/tools');

const execFileAsync = promisify(execFile);

// { code, stdout, stderr } of `node server ...args` with HOME (and nothing else) pointing at home.
function runCli(args, home) {
  const env = { ...process.env, HOME: home };
  delete env.XDG_CONFIG_HOME;
  delete env.NEGOTIATE_CA_DIR;
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(REPO_ROOT, 'server'), ...args], { env, timeout: 30_000 },
      (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr }));
  });
}

// The trust flags of the certificate called `name` in the database, or null when absent.
async function trustOf(dir, name) {
  const { stdout } = await execFileAsync('certutil', ['-L', '-d', `sql:${dir}`]);
  const line = stdout.split('\n').find((l) => l.startsWith(name + ' '));
  return line === undefined ? null : line.slice(name.length).trim();
}

test('trust installs the local CA in Chromium\'s and Firefox\'s NSS databases; untrust removes it', async (t) => {
  const skip = toolSkipReason('certutil', 'libnss3-tools');
  if (skip) {
    t.skip(skip);
    return;
  }
  const home = await makeTempDir('negotiate-home-');
  t.after(() => fs.rm(home, { recursive: true, force: true }));
  const chromiumDb = path.join(home, '.pki', 'nssdb');
  const firefoxDb = path.join(home, '.mozilla', 'firefox', 'abcd1234.default-release');
  await fs.mkdir(firefoxDb, { recursive: true });
  await execFileAsync('certutil', ['-N', '-d', `sql:${firefoxDb}`, '--empty-password']);

  const trusted = await runCli(['trust'], home);
  assert.equal(trusted.code, 0, trusted.stdout + trusted.stderr);
  const caFile = path.join(home, '.config', 'negotiate-h2', 'ca.pem');
  const name = /^trusting "([^"]+)" \((.+)\)$/m.exec(trusted.stdout);
  assert.ok(name, trusted.stdout);
  assert.equal(name[2], caFile);
  assert.match(name[1], /^negotiate-h2 local CA .+@.+$/);
  assert.equal((await fs.stat(path.join(home, '.config', 'negotiate-h2'))).mode & 0o777, 0o700);
  assert.equal(await trustOf(chromiumDb, name[1]), 'C,,');
  assert.equal(await trustOf(firefoxDb, name[1]), 'C,,');
  assert.doesNotMatch(trusted.stdout, /FAILED|-16370/);
  assert.ok(trusted.stdout.includes(`  trusted in Chromium: sql:${chromiumDb}\n  trusted in Firefox: sql:${firefoxDb}\n`), trusted.stdout);
  assert.ok(trusted.stdout.includes(`sudo cp '${caFile}' /usr/local/share/ca-certificates/negotiate-h2-local-ca.crt && sudo update-ca-certificates`));

  // Trusting again leaves one copy, not two.
  assert.equal((await runCli(['trust'], home)).code, 0);
  const { stdout: listed } = await execFileAsync('certutil', ['-L', '-d', `sql:${chromiumDb}`]);
  assert.equal(listed.split('\n').filter((l) => l.startsWith(name[1] + ' ')).length, 1);

  const untrusted = await runCli(['untrust'], home);
  assert.equal(untrusted.code, 0, untrusted.stdout + untrusted.stderr);
  assert.ok(untrusted.stdout.includes(`  removed from Chromium: sql:${chromiumDb}\n  removed from Firefox: sql:${firefoxDb}\n`), untrusted.stdout);
  assert.equal(await trustOf(chromiumDb, name[1]), null);
  assert.equal(await trustOf(firefoxDb, name[1]), null);
  assert.ok(untrusted.stdout.includes('sudo update-ca-certificates --fresh'));
});

test('trust/untrust mistakes: one line, exit 2, no CA made', async (t) => {
  const home = await makeTempDir('negotiate-home-');
  t.after(() => fs.rm(home, { recursive: true, force: true }));
  const cases = [
    [['untrust', '--ca-dir', path.join(home, 'none')], `--ca-dir: no local CA in ${path.join(home, 'none', 'ca.pem')}: nothing to untrust`],
    [['trust', '--port', '8443'], 'usage: negotiate-h2 trust [--ca-dir DIR]'],
    [['untrust', '--frobnicate'], 'unknown option "--frobnicate" (see --help)'],
  ];
  for (const [args, message] of cases) {
    const res = await runCli(args, home);
    assert.deepEqual({ code: res.code, stderr: res.stderr }, { code: 2, stderr: `negotiate-h2: ${message}\n` }, args.join(' '));
  }
  assert.deepEqual(await fs.readdir(home), [], 'nothing written');
});
