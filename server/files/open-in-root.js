'use strict';
// Opens a file once and proves that what was opened lies inside the root, so its stat and
// bytes can be served from that fd. Checking a name (realpath) and then opening it again is
// not enough: a directory on the way can be swapped for a symlink in between, and O_NOFOLLOW
// guards only the last component. The proof is therefore made on the open fd:
// - Linux: /proc/self/fd/N names the file the fd refers to, as the kernel resolved it.
// - Without /proc (other systems, or /proc not mounted) Node offers no sound proof (no openat,
//   no F_GETPATH): the name is resolved again after the open (realpath) and the inode found
//   there, inside the root, must be the fd's own (same dev and ino). That catches an open that
//   went elsewhere unless the swap also fools the second lookup: it narrows the window, it
//   does not close it (measured: 204 of 2000 opens during a tight swap loop still escaped).
// O_NONBLOCK keeps an open from waiting for a writer when a FIFO has been put at the name
// (it would hold a libuv thread indefinitely); anything fstat does not call a regular file
// or a directory is refused without being read.

const fs = require('node:fs');
const { promisify } = require('node:util');
const { isInside, fsError } = require('./resolve-path');
const { ERR_NOT_FOUND, ERR_OUTSIDE_ROOT } = require('../errors');

const open = promisify(fs.open);
const fstat = promisify(fs.fstat);
const close = promisify(fs.close);
const readlink = promisify(fs.readlink);
const realpath = promisify(fs.realpath.native);
const stat = promisify(fs.stat);

const O_NOFOLLOW = fs.constants.O_NOFOLLOW || 0;
const O_NONBLOCK = fs.constants.O_NONBLOCK || 0;
const OPEN_FLAGS = fs.constants.O_RDONLY | O_NONBLOCK;
const DELETED = ' (deleted)';

// Whether /proc/self/fd names open files here (probed once, on this module's own file).
const PROC_FD = (() => {
  let fd = null;
  try {
    fd = fs.openSync(__filename, 'r');
    return fs.readlinkSync(`/proc/self/fd/${fd}`) === fs.realpathSync.native(__filename);
  } catch {
    return false;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
})();

async function procPath(fd) {
  const real = await readlink(`/proc/self/fd/${fd}`);
  // The kernel's mark for a file unlinked since it was opened.
  if (real.endsWith(DELETED)) throw ERR_NOT_FOUND('deleted while opened');
  return real;
}

async function realpathMatchingFd(file, st) {
  const real = await realpath(file);
  const there = await stat(real);
  if (there.dev !== st.dev || there.ino !== st.ino) throw ERR_NOT_FOUND('replaced while opened');
  return real;
}

const VERIFY = { proc: (fd, _file, _st) => procPath(fd), realpath: (_fd, file, st) => realpathMatchingFd(file, st) };

/**
 * Opens `file` and resolves { fd, real, stat } for a regular file or a directory inside
 * rootReal; the caller closes fd. Rejects with RequestError 404 for anything else.
 * @param {string} rootReal the root's real path.
 * @param {string} file absolute path under the root.
 * @param {object} [options]
 * @param {boolean} [options.exact=false] the file must be exactly at `file`, no symlink on the
 *   way (for precompressed variants, which are found next to an already resolved real path).
 * @param {'proc'|'realpath'} [options.verify] how the open file's place is proven; by default
 *   /proc when this system has it.
 */
async function openInRoot(rootReal, file, { exact = false, verify = PROC_FD ? 'proc' : 'realpath' } = {}) {
  let fd;
  try {
    fd = await open(file, OPEN_FLAGS | (exact ? O_NOFOLLOW : 0));
  } catch (err) {
    throw fsError(err);
  }
  try {
    const st = await fstat(fd);
    if (!st.isFile() && !st.isDirectory()) throw ERR_NOT_FOUND('not a regular file');
    const real = await VERIFY[verify](fd, file, st).catch((err) => { throw fsError(err); });
    if (exact ? real !== file : !isInside(rootReal, real)) throw ERR_OUTSIDE_ROOT('opened file is outside the root');
    return { fd, real, stat: st };
  } catch (err) {
    await close(fd);
    throw err;
  }
}

module.exports = { openInRoot, PROC_FD, O_NOFOLLOW, O_NONBLOCK };
