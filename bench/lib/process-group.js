'use strict';
// Child processes started in their own process group, so stopping one also
// stops everything it forked, and a registry that stops all of them (and
// removes registered temp dirs) when the benchmark exits or is interrupted.
const { spawn } = require('node:child_process');
const fs = require('node:fs');

const live = new Set();
const tempDirs = new Set();

function spawnGroup(cmd, args, options = {}) {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options, detached: true });
  live.add(child);
  child.exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    });
    child.once('error', (err) => {
      live.delete(child);
      resolve({ code: null, signal: null, error: err });
    });
  });
  return child;
}

function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch (err) {
    if (err.code !== 'ESRCH') throw err;
  }
}

// SIGTERM to the whole group, SIGKILL after graceMs if the leader lingers.
async function stopGroup(child, { graceMs = 3000 } = {}) {
  if (child.exitCode !== null || child.signalCode !== null) {
    signalGroup(child, 'SIGKILL'); // orphaned members of an exited leader
    return child.exited;
  }
  signalGroup(child, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
  const result = await child.exited;
  clearTimeout(timer);
  signalGroup(child, 'SIGKILL');
  return result;
}

// Resolves with the first stdout line matching re, rejects if the process
// exits first or nothing matches within timeoutMs. Keeps a tail of stderr
// for the error message.
function waitForLine(child, re, { timeoutMs = 15000, what = 'process' } = {}) {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const onErr = (chunk) => { err = (err + chunk).slice(-2000); };
    const finish = (fn, value) => {
      clearTimeout(timer);
      child.stdout.off('data', onOut);
      child.stderr.off('data', onErr);
      child.off('exit', onExit);
      fn(value);
    };
    const fail = (why) => finish(reject, Object.assign(
      new Error(`${what} ${why}${err ? `; stderr: ${err.trim()}` : ''}`), { code: 'ESTARTUP' }));
    const onOut = (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => re.test(l));
      if (line) finish(resolve, line.trim());
      else out = out.slice(-4000);
    };
    const onExit = (code, signal) => fail(`exited (${signal || code}) before printing ${re}`);
    const timer = setTimeout(() => fail(`printed no line matching ${re} within ${timeoutMs} ms`), timeoutMs);
    child.stdout.setEncoding('utf8').on('data', onOut);
    child.stderr.setEncoding('utf8').on('data', onErr);
    child.on('exit', onExit);
  });
}

// Last non-empty line of some output, for error messages.
function lastLine(text) {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.length ? lines[lines.length - 1].slice(0, 300) : '';
}

// Collects all stdout and stderr and resolves when the process exits; kills
// the group if it runs past timeoutMs. name labels errors (cmd may be taskset).
async function runToCompletion(cmd, args, { timeoutMs, name = cmd, ...options } = {}) {
  const child = spawnGroup(cmd, args, options);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c) => { stdout += c; });
  child.stderr.setEncoding('utf8').on('data', (c) => { stderr += c; });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    signalGroup(child, 'SIGKILL');
  }, timeoutMs);
  const { code, signal, error } = await child.exited;
  clearTimeout(timer);
  if (error) throw Object.assign(new Error(`${name}: ${error.message}`), { code: 'ESPAWN' });
  if (timedOut) throw Object.assign(new Error(`${name} did not finish within ${timeoutMs} ms`), { code: 'ECHILDHUNG', stdout });
  if (code !== 0) {
    const detail = lastLine(stderr) || lastLine(stdout);
    throw Object.assign(new Error(`${name} ${signal ? `was killed by ${signal}` : `exited ${code}`}${detail ? `: ${detail}` : ''}`),
      { code: 'ECHILDFAILED' });
  }
  return { stdout, stderr };
}

function registerTempDir(dir) {
  tempDirs.add(dir);
  return dir;
}

function removeTempDir(dir) {
  tempDirs.delete(dir);
  return fs.promises.rm(dir, { recursive: true, force: true });
}

// Synchronous on purpose: an 'exit' handler cannot wait for promises.
function cleanupNow() {
  for (const child of live) signalGroup(child, 'SIGKILL');
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

let installed = false;
function installCleanupHandlers() {
  if (installed) return;
  installed = true;
  process.on('exit', cleanupNow);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(sig, () => {
      process.stderr.write(`\n${sig}: stopping child processes and removing temp dirs\n`);
      cleanupNow();
      process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGTERM' ? 15 : 1));
    });
  }
}

module.exports = {
  spawnGroup, stopGroup, waitForLine, runToCompletion, registerTempDir, removeTempDir, installCleanupHandlers,
};
