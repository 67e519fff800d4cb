'use strict';
// Runs test/helpers/rename-exchange.py: two paths swapped atomically in a tight loop until
// stop() (or maxSeconds), to race the server's checks against its opens.

const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const SCRIPT = path.join(__dirname, 'rename-exchange.py');
const EXIT_UNSUPPORTED = 3;

let skipReason;
// false when python3 and renameat2(RENAME_EXCHANGE) work here, else why not (node:test's { skip }).
function swapSkipReason(dir) {
  if (skipReason !== undefined) return skipReason;
  if (process.platform !== 'linux') return (skipReason = 'RENAME_EXCHANGE is Linux-only');
  const [a, b] = [path.join(dir, 'swap-probe-a'), path.join(dir, 'swap-probe-b')];
  try {
    fs.writeFileSync(a, 'a');
    fs.writeFileSync(b, 'b');
    execFileSync('python3', [SCRIPT, a, b, '0'], { stdio: 'pipe' });
    skipReason = false;
  } catch (err) {
    skipReason = err.code === 'ENOENT' ? 'python3 is not installed'
      : err.status === EXIT_UNSUPPORTED ? `renameat2 RENAME_EXCHANGE unavailable: ${err.stderr}`
        : `swap helper failed: ${err.stderr || err.message}`;
  } finally {
    fs.rmSync(a, { force: true });
    fs.rmSync(b, { force: true });
  }
  return skipReason;
}

// Resolves { stop(): Promise<number of swaps> } once swapping has begun; the paths are back in
// place when stop() resolves.
function startSwapping(a, b, maxSeconds = 20) {
  const child = spawn('python3', [SCRIPT, a, b, String(maxSeconds)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (c) => { err += c; });
  const exited = new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(Number(out.trim().split('\n').pop())) : reject(new Error(`swap helper exited ${code}: ${err}`))));
  });
  const handle = {
    stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (c) => {
      out += c;
      if (out.startsWith('ready\n')) resolve(handle);
    });
    exited.then(() => reject(new Error('swap helper stopped before it began')), reject);
  });
}

module.exports = { swapSkipReason, startSwapping };
