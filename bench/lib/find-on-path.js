'use strict';
// Whether an executable is on PATH, without running it.
const fs = require('node:fs/promises');
const path = require('node:path');

async function findOnPath(cmd, envPath = process.env.PATH || '') {
  for (const dir of envPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, cmd);
    try {
      await fs.access(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return null;
}

module.exports = { findOnPath };
