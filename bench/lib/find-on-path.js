'use strict';
// Whether an executable is on PATH, or a file exists, without running anything.
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

async function fileExists(file) {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

module.exports = { findOnPath, fileExists };
