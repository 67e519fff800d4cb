'use strict';
// Bodies too large to keep in memory are streamed from one fd opened per response. The fd must
// match the stat the headers were built from, exactly that many bytes are sent, and the last
// chunk is held back until an fstat taken after the last read still matches that stat. A file
// truncated or rewritten in place meanwhile (same size or not: a write moves mtime and ctime)
// makes the stream fail before its last byte goes out, so the adapter aborts the response
// (HTTP/1.1: socket destroyed short of Content-Length; HTTP/2: RST_STREAM) instead of ending a
// short or mixed body as if it were complete. A file replaced by rename is no concern: the fd
// keeps reading the old inode, whose bytes match the headers.
//
// Residual window: Linux stamps mtime/ctime from a coarse clock (one scheduler tick), so a
// same-size rewrite that lands in the same tick as the stat the headers came from leaves the
// stat unchanged and goes unnoticed. Closing it would need the file's content or a lease
// (fcntl F_SETLEASE), neither of which is cheap or available from Node.

const fs = require('node:fs');
const { Transform } = require('node:stream');
const { sameStat } = require('./read-file');
const { O_NOFOLLOW, O_NONBLOCK } = require('./open-in-root');

const HIGH_WATER_MARK = 64 * 1024;

class FileChangedError extends Error {
  constructor(file) {
    super(`${file} changed while being served`);
    this.code = 'ERR_FILE_CHANGED';
  }
}

// Passes chunks through one behind, re-checks the fd's stat once the reads are done, and
// releases the file with itself.
class CheckedBody extends Transform {
  constructor(file, fd, rep, expected) {
    super();
    this.file = file;
    this.fd = fd;
    this.rep = rep;
    this.remaining = expected;
    this.held = null;
  }

  _transform(chunk, _enc, done) {
    this.remaining -= chunk.length;
    const previous = this.held;
    this.held = chunk;
    done(null, previous);
  }

  _flush(done) {
    if (this.remaining !== 0) { done(new FileChangedError(this.rep.path)); return; }
    fs.fstat(this.fd, (err, st) => {
      if (err) { done(err); return; }
      if (!sameStat(st, this.rep.stat)) { done(new FileChangedError(this.rep.path)); return; }
      done(null, this.held);
    });
  }

  // The read stream closes the fd when destroyed, and only after its read in flight (if any)
  // completes, so the fd number cannot be reused under that read.
  _destroy(err, done) {
    this.held = null;
    this.file.destroy();
    done(err);
  }
}

// The path is opened again by name, so it may now lead anywhere (a directory on the way
// swapped for a symlink, a FIFO put in place). The fd is used only when its dev and ino are
// those of the stat the headers came from, which was taken on an fd proven to lie inside the
// root (open-in-root.js): the same inode is the same file, wherever the name now leads.
// O_NONBLOCK: opening a FIFO must not wait for a writer.
function openChecked(rep) {
  return new Promise((resolve, reject) => {
    fs.open(rep.path, fs.constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK, (err, fd) => {
      if (err) { reject(err.code === 'ENOENT' || err.code === 'ELOOP' ? new FileChangedError(rep.path) : err); return; }
      fs.fstat(fd, (err2, st) => {
        if (!err2 && sameStat(st, rep.stat)) { resolve(fd); return; }
        fs.close(fd, () => reject(err2 || new FileChangedError(rep.path)));
      });
    });
  });
}

// Resolves a Readable of bytes [start, end] of the representation's file.
async function openFileBody(rep, start, end) {
  const fd = await openChecked(rep);
  // autoClose off keeps the fd open for the final check; CheckedBody destroys the stream.
  const file = fs.createReadStream(null, { fd, start, end, highWaterMark: HIGH_WATER_MARK, autoClose: false });
  const body = new CheckedBody(file, fd, rep, end - start + 1);
  file.on('error', (err) => body.destroy(err));
  return file.pipe(body);
}

module.exports = { openFileBody };
