'use strict';
// The server's one way to put a whole file in place (private keys, certificates, the variant
// cache): written under a temporary name in the same folder, then renamed over the target, so a
// reader (a second start, a watching server) never sees half a file. The temporary name is
// random and created exclusively (wx): a link or file someone planted at a name they guessed is
// never followed nor written into, and the mode given always applies (the file is new). A
// temporary left by a failure is removed, one we did not create never is.

const crypto = require('node:crypto');
const fs = require('node:fs/promises');
const path = require('node:path');

// Temporaries start with this, so that a folder's cleaner can tell them (and their age) apart.
const TEMP_PREFIX = '.tmp-';

/**
 * Writes `data` to `file` through a temporary file and a rename.
 * @param {string} file
 * @param {string|Buffer} data
 * @param {object} [options]
 * @param {number} [options.mode=0o644] the new file's mode (0o600 for keys)
 * @param {boolean} [options.sync=true] flush the bytes before the rename, so that a crash never
 *   leaves an empty file under the target's name; a cache whose entries are checked by content
 *   when read can do without
 * @param {(n: number) => Buffer} [options.random] crypto.randomBytes stand-in (tests)
 */
async function writeFileAtomic(file, data, { mode = 0o644, sync = true, random = crypto.randomBytes } = {}) {
  const temp = path.join(path.dirname(file), `${TEMP_PREFIX}${process.pid}-${random(8).toString('hex')}`);
  const handle = await fs.open(temp, 'wx', mode);
  try {
    try {
      await handle.writeFile(data);
      if (sync) await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, file);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
}

module.exports = { writeFileAtomic, TEMP_PREFIX };
