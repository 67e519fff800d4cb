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

/**
 * A certificate and its key as PEM files, the key readable by its owner only. The key goes
 * first: a certificate without its key would block the next start.
 */
async function writePemPair({ certFile, keyFile }, { cert, key }) {
  await writeFileAtomic(keyFile, key, 0o600);
  await writeFileAtomic(certFile, cert);
}

module.exports = { writeFileAtomic, writePemPair };
