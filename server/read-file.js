'use strict';
// Reads a whole file through one fd so its bytes and its stat describe the same file: the
// fstat is taken on the fd we read from, and a second fstat after reading catches a writer
// that changed the file meanwhile (we retry rather than cache mixed bytes).

const fs = require('node:fs');
const { promisify } = require('node:util');

const open = promisify(fs.open);
const fstat = promisify(fs.fstat);
const read = promisify(fs.read);
const close = promisify(fs.close);

const ATTEMPTS = 3;
const O_NOFOLLOW = fs.constants.O_NOFOLLOW || 0;

function sameStat(a, b) {
  return a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

// Resolves { stat, bytes } where bytes is null when the file is larger than limit.
// The last path component must not be a symlink (callers pass realpaths or lstat-checked names).
async function readConsistent(file, limit) {
  for (let attempt = 1; ; attempt++) {
    const fd = await open(file, fs.constants.O_RDONLY | O_NOFOLLOW);
    try {
      const stat = await fstat(fd);
      if (!stat.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'ENOENT' });
      if (stat.size > limit) return { stat, bytes: null };
      const bytes = Buffer.allocUnsafe(stat.size);
      let filled = 0;
      while (filled < stat.size) {
        const { bytesRead } = await read(fd, bytes, filled, stat.size - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      const after = await fstat(fd);
      if (filled === stat.size && sameStat(stat, after)) return { stat, bytes };
      if (attempt === ATTEMPTS) throw Object.assign(new Error(`${file} keeps changing while read`), { code: 'ERR_FILE_CHANGED' });
    } finally {
      await close(fd);
    }
  }
}

module.exports = { readConsistent, sameStat, O_NOFOLLOW };
