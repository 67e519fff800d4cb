'use strict';
// Whether an executable is on PATH, or a file exists, without running anything: the one tool
// check of the benchmarks, the tests (test/helpers/tools.js) and their skip reasons.
const fs = require('node:fs');
const path = require('node:path');

/** The absolute path of `cmd` on PATH (executable), or null. Synchronous; callers may await it. */
function findOnPath(cmd, envPath = process.env.PATH || '') {
  for (const dir of envPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, cmd);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not in this directory
    }
  }
  return null;
}

async function fileExists(file) {
  try {
    await fs.promises.access(file);
    return true;
  } catch {
    return false;
  }
}

module.exports = { findOnPath, fileExists };
