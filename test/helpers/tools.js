'use strict';
// External tools the tests drive (curl, nghttp, h2load, h2spec): where each is installed, and
// the skip reason when it is not, so a missing tool skips its tests instead of failing them.

const { execFile } = require('node:child_process');
const { findOnPath } = require('../../bench/lib/find-on-path');

const found = new Map();

// The command's absolute path on PATH, or null (looked up once per test process).
function commandPath(name) {
  if (!found.has(name)) found.set(name, findOnPath(name));
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
