'use strict';
// External tools the tests drive (curl, nghttp, h2load, h2spec): where each is installed, and
// the skip reason when it is not, so a missing tool skips its tests instead of failing them.

const { execFileSync } = require('node:child_process');

const found = new Map();

// The command's absolute path on PATH, or null.
function commandPath(name) {
  if (!found.has(name)) {
    let where = null;
    try {
      where = execFileSync('sh', ['-c', 'command -v "$1"', 'sh', name], { encoding: 'utf8' }).trim() || null;
    } catch {
      // not on PATH
    }
    found.set(name, where);
  }
  return found.get(name);
}

// false when `name` is on PATH, else the reason to skip (fits node:test's { skip }).
function toolSkipReason(name, debianPackage) {
  return commandPath(name) ? false : `${name} is not installed (apt-get install ${debianPackage}, or bash scripts/system-deps.sh install)`;
}

module.exports = { commandPath, toolSkipReason };
