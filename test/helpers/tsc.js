'use strict';
// tsc (the typescript devDependency) over one file with --strict --noEmit, Node's module
// resolution and @types/node: the checks of the package's declarations.

const path = require('node:path');
const { execFile } = require('node:child_process');
const { REPO_ROOT } = require('./server');

function tscPath() {
  try {
    return path.join(path.dirname(require.resolve('typescript/package.json', { paths: [REPO_ROOT] })), 'bin', 'tsc');
  } catch {
    return null;
  }
}

// false when typescript is installed, else the reason to skip (fits node:test's { skip }).
function tscSkipReason() {
  return tscPath() !== null ? false : 'typescript is not installed (npm install: it is a devDependency)';
}

/** Resolves { code, output } of tsc checking `file`, run in `cwd` (where negotiate-h2 resolves). */
function runTsc(file, { cwd = path.dirname(file) } = {}) {
  const args = [tscPath(), '--strict', '--noEmit', '--pretty', 'false', '--module', 'nodenext', '--moduleResolution', 'nodenext',
    '--target', 'es2022', '--types', 'node', '--typeRoots', path.join(REPO_ROOT, 'node_modules', '@types'), file];
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd, timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (err.code ?? err.signal) : 0, output: `${stdout}${stderr}` });
    });
  });
}

module.exports = { tscSkipReason, runTsc };
