'use strict';
// Writing and checking precompressed variants on disk. A variant carries its
// source's mtime, so "variant not older than source" means it was made from the
// current content, and re-runs can tell fresh variants from stale ones.

const fs = require('node:fs/promises');
const path = require('node:path');
const { randomBytes } = require('node:crypto');

/**
 * The variant's stats (nanosecond times), or null when there is no variant.
 * @param {string} file
 * @returns {Promise<import('node:fs').BigIntStats|null>}
 */
async function statVariant(file) {
  try {
    const stat = await fs.stat(file, { bigint: true });
    return stat.isFile() ? stat : null;
  } catch (err) {
    if (err.code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * The timestamp (seconds) to give a variant of a source modified at `mtimeNs`.
 * libuv truncates utimes() to whole microseconds, so passing the source's own
 * time would usually leave the variant a fraction of a microsecond *older* than
 * its source. Rounding up to the next microsecond, plus half a microsecond of
 * margin against the double's ~0.24 us rounding, lands exactly on that microsecond:
 * equal to the source's mtime when it is microsecond-aligned, at most 999 ns newer otherwise.
 */
function variantTimestamp(mtimeNs) {
  const micros = (mtimeNs + 999n) / 1000n;
  return Number(micros / 1_000_000n) + (Number(micros % 1_000_000n) + 0.5) / 1e6;
}

/**
 * Atomically replaces `target` with `data`, stamped with the source's mtime:
 * written to a dot-named temporary in the same directory (so the rename cannot
 * cross file systems and walkers skip it), flushed, then renamed into place.
 * @param {string} target
 * @param {Buffer} data
 * @param {bigint} sourceMtimeNs
 */
async function writeVariant(target, data, sourceMtimeNs) {
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const time = variantTimestamp(sourceMtimeNs);
  try {
    const handle = await fs.open(temp, 'wx', 0o644);
    try {
      await handle.writeFile(data);
      await handle.utimes(time, time);
      // Without the flush a crash after rename could leave an empty variant that looks fresh.
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, target);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
}

/** Removes a variant if present. */
async function removeVariant(file) {
  await fs.rm(file, { force: true });
}

module.exports = { statVariant, writeVariant, removeVariant };
