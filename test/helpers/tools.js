'use strict';
// External tools the tests drive (curl, nghttp, h2load, h2spec): where each is installed, and
// the skip reason when it is not, so a missing tool skips its tests instead of failing them.

const { execFile, execFileSync } = require('node:child_process');

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

// Runs a tool to completion, killed after timeoutMs; resolves { code (0, the exit code or the
// signal), stdout (Buffer), stderr (string) }.
function runTool(cmd, args, { timeoutMs = 60_000 } = {}) {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024, encoding: 'buffer' },
      (err, stdout, stderr) => resolve({ code: err ? (err.code ?? err.signal) : 0, stdout, stderr: stderr.toString() }));
  });
}

module.exports = { commandPath, toolSkipReason, runTool };
