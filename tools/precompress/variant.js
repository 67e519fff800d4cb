'use strict';
// Writing and checking precompressed variants on disk. A variant carries its
// source's mtime, so "variant not older than source" means it was made from the
// current content, and re-runs can tell fresh variants from stale ones. Nothing
// here follows a symbolic link at a variant's name.

const fs = require('node:fs/promises');
const path = require('node:path');
const { randomBytes } = require('node:crypto');

/**
 * The stats (nanosecond times) of whatever is at a variant's name, without following a symbolic
 * link, or null when there is nothing.
 * @param {string} file
 * @returns {Promise<import('node:fs').BigIntStats|null>}
 */
async function lstatVariant(file) {
  try {
    return await fs.lstat(file, { bigint: true });
  } catch (err) {
    if (err.code === 'ENOENT') return null;
    throw err;
  }
}

const sameFile = (a, b) => (a === null || b === null ? a === b
  : a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.mode === b.mode);

/**
 * Throws ERR_VARIANT_CHANGED unless `file` is still what `expected` (an lstat, or null for
 * nothing) saw: a compression at the strongest settings takes seconds, and a file someone put
 * there meanwhile is not the tool's to replace.
 */
async function checkUnchanged(file, expected) {
  if (!sameFile(await lstatVariant(file), expected)) {
    throw Object.assign(new Error('changed while compressing; left alone'), { code: 'ERR_VARIANT_CHANGED' });
  }
}

/**
 * The timestamp (seconds) to give a variant of a source modified at `mtimeNs`.
 * libuv truncates utimes() to whole microseconds, so passing the source's own
 * time would usually leave the variant a fraction of a microsecond *older* than
 * its source. Rounding up to the next microsecond, plus half a microsecond of
 * margin against the double's ~0.24 us rounding, lands exactly on that microsecond:
 * equal to the source's mtime when it is microsecond-aligned, at most 999 ns newer otherwise.
 * Node 24's libuv keeps the double's nanoseconds instead (about 240 ns apart at today's dates):
 * there the variant lands half a microsecond past that microsecond, 0.4 to 1.7 us newer than
 * its source, never older.
 */
function variantTimestamp(mtimeNs) {
  const micros = (mtimeNs + 999n) / 1000n;
  return Number(micros / 1_000_000n) + (Number(micros % 1_000_000n) + 0.5) / 1e6;
}

/**
 * Atomically replaces `target` with `data`, stamped with the source's mtime:
 * written to a dot-named temporary in the same directory (so the rename cannot
 * cross file systems and walkers skip it), flushed, then renamed into place. The
 * rename replaces a symbolic link itself, never the file it points to.
 * @param {string} target
 * @param {Buffer} data
 * @param {bigint} sourceMtimeNs
 * @param {import('node:fs').BigIntStats|null} expected what is at `target` now (see checkUnchanged)
 * @returns {Promise<import('node:fs').BigIntStats>} the new variant's stats, for the manifest
 */
async function writeVariant(target, data, sourceMtimeNs, expected) {
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const time = variantTimestamp(sourceMtimeNs);
  try {
    const handle = await fs.open(temp, 'wx', 0o644);
    let stat;
    try {
      await handle.writeFile(data);
      await handle.utimes(time, time);
      // Without the flush a crash after rename could leave an empty variant that looks fresh.
      await handle.sync();
      stat = await handle.stat({ bigint: true });
    } finally {
      await handle.close();
    }
    await checkUnchanged(target, expected);
    await fs.rename(temp, target);
    return stat;
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
}

/** Removes a variant (a link itself, not its target) unless it changed since `expected`. */
async function removeVariant(file, expected) {
  await checkUnchanged(file, expected);
  await fs.rm(file, { force: true });
}

module.exports = { lstatVariant, writeVariant, removeVariant };
