'use strict';
// Writes a file under a temporary name and renames it into place, so a concurrent reader (a
// second start, a watching server) never sees half a file.

const fs = require('node:fs/promises');

async function writeFileAtomic(file, content, mode = 0o644) {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await fs.writeFile(tmp, content, { mode });
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

module.exports = { writeFileAtomic };
