'use strict';
// Installs the local CA into, and removes it from, the NSS databases browsers on Linux read:
// Chromium's ~/.pki/nssdb and every Firefox profile. Uses NSS's own certutil (libnss3-tools),
// so the databases stay consistent while a browser has them open. System stores need root and
// differ per OS: for them the commands are printed, never run.

const fs = require('node:fs/promises');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { ConfigError } = require('../errors');

const execFileAsync = promisify(execFile);
const CERTUTIL_TIMEOUT_MS = 20_000;
// "Trusted CA for issuing server certificates"; no e-mail or code-signing trust.
const TRUST_FLAGS = 'C,,';
// certutil -D removes one certificate per call; a few CAs remade under one name are removed
// by repeating it, bounded so a certutil that never fails cannot loop.
const MAX_SAME_NAME = 16;

async function certutil(args) {
  try {
    return await execFileAsync('certutil', args, { timeout: CERTUTIL_TIMEOUT_MS });
  } catch (err) {
    if (err.code === 'ENOENT') throw new ConfigError('certutil not found: install libnss3-tools (Debian/Ubuntu) or nss-tools (Fedora)');
    throw err;
  }
}

function certutilMessage(err) {
  return (err.stderr || err.message).trim().split('\n').pop();
}

async function exists(file) {
  return fs.access(file).then(() => true, () => false);
}

async function firefoxProfiles(home) {
  const roots = [path.join(home, '.mozilla', 'firefox'), path.join(home, 'snap', 'firefox', 'common', '.mozilla', 'firefox')];
  const profiles = [];
  for (const root of roots) {
    const entries = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const dir = path.join(root, entry.name);
      if (entry.isDirectory() && await exists(path.join(dir, 'cert9.db'))) profiles.push(dir);
    }
  }
  return profiles.sort();
}

// [{ dir, browser, missing }]: Chromium's database (missing: not created yet) and Firefox's.
async function nssDatabases(home) {
  const chromium = path.join(home, '.pki', 'nssdb');
  return [
    { dir: chromium, browser: 'Chromium', missing: !(await exists(path.join(chromium, 'cert9.db'))) },
    ...(await firefoxProfiles(home)).map((dir) => ({ dir, browser: 'Firefox', missing: false })),
  ];
}

// Removes every certificate called `name` from the database; resolves how many there were.
async function deleteByName(dir, name) {
  let removed = 0;
  while (removed < MAX_SAME_NAME) {
    try {
      await certutil(['-D', '-d', `sql:${dir}`, '-n', name]);
    } catch (err) {
      if (err instanceof ConfigError) throw err;
      break;
    }
    removed++;
  }
  return removed;
}

// Trusts the CA ({ name, certFile }) in every database, creating Chromium's when absent.
// Resolves one line per database.
async function trust(ca, home) {
  const lines = [];
  for (const db of await nssDatabases(home)) {
    try {
      if (db.missing) {
        await fs.mkdir(db.dir, { recursive: true, mode: 0o700 });
        await certutil(['-N', '-d', `sql:${db.dir}`, '--empty-password']);
      }
      // A CA remade under the same name replaces the old one rather than sitting beside it.
      await deleteByName(db.dir, ca.name);
      await certutil(['-A', '-d', `sql:${db.dir}`, '-t', TRUST_FLAGS, '-n', ca.name, '-i', ca.certFile]);
      lines.push(`trusted in ${db.browser}: sql:${db.dir}`);
    } catch (err) {
      if (err instanceof ConfigError) throw err;
      lines.push(`FAILED in ${db.browser}: sql:${db.dir}: ${certutilMessage(err)}`);
    }
  }
  return lines;
}

async function untrust(ca, home) {
  const lines = [];
  for (const db of await nssDatabases(home)) {
    if (db.missing) continue;
    const removed = await deleteByName(db.dir, ca.name);
    lines.push(`${removed > 0 ? 'removed from' : 'was not in'} ${db.browser}: sql:${db.dir}`);
  }
  return lines;
}

// Commands for the stores this tool does not touch (they need root, or are not NSS).
function systemStoreCommands(ca, action) {
  const file = ca.certFile;
  const crt = '/usr/local/share/ca-certificates/negotiate-h2-local-ca.crt';
  if (action === 'trust') {
    return [
      `Debian/Ubuntu: sudo cp '${file}' ${crt} && sudo update-ca-certificates`,
      `Fedora/RHEL:   sudo cp '${file}' /etc/pki/ca-trust/source/anchors/negotiate-h2-local-ca.pem && sudo update-ca-trust`,
      `macOS:         sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain '${file}'`,
      `Windows:       certutil -addstore -f ROOT "${file}"`,
      `Node.js:       NODE_EXTRA_CA_CERTS='${file}'    curl: --cacert '${file}'`,
    ];
  }
  return [
    `Debian/Ubuntu: sudo rm ${crt} && sudo update-ca-certificates --fresh`,
    `Fedora/RHEL:   sudo rm /etc/pki/ca-trust/source/anchors/negotiate-h2-local-ca.pem && sudo update-ca-trust`,
    `macOS:         sudo security delete-certificate -c '${ca.name}' /Library/Keychains/System.keychain`,
    `Windows:       certutil -delstore ROOT "${ca.name}"`,
  ];
}

module.exports = { trust, untrust, nssDatabases, systemStoreCommands, TRUST_FLAGS };
