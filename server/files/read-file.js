'use strict';
// Reads a whole file through one open fd so its bytes and its stat describe the same file: a
// second fstat after reading catches a writer that changed the file meanwhile (we read again
// rather than cache mixed bytes).

const fs = require('node:fs');
const { promisify } = require('node:util');
const { ERR_FILE_CHANGED } = require('../errors');

const fstat = promisify(fs.fstat);
const read = promisify(fs.read);

const ATTEMPTS = 3;

function sameStat(a, b) {
  return a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

// Resolves { stat, bytes } where bytes is null when the file is larger than limit. `stat` is
// the fd's fstat when the caller already has it.
async function readConsistent(fd, limit, stat = null) {
  for (let attempt = 1; ; attempt++) {
    stat ??= await fstat(fd);
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
    if (attempt === ATTEMPTS) throw ERR_FILE_CHANGED(`fd ${fd} keeps changing while read`);
    stat = after;
  }
}

// A stat's identity in hex (size, mtime to the microsecond, inode): ETags and the verdict memo.
function statTag(stat) {
  return `${stat.size.toString(16)}-${Math.round(stat.mtimeMs * 1000).toString(16)}-${stat.ino.toString(16)}`;
}

module.exports = { statTag, readConsistent, sameStat };
