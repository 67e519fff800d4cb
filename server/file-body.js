'use strict';
// Bodies too large to keep in memory are streamed from one fd opened per response. The fd is
// checked against the stat the headers were built from, exactly that many bytes are sent, and
// the fd is checked again before the last byte goes out: a file that shrank or was rewritten
// meanwhile makes the stream fail (the adapter then aborts the response) instead of ending a
// short or mixed body as if it were complete.

const fs = require('node:fs');
const { Transform } = require('node:stream');
const { sameStat, O_NOFOLLOW } = require('./read-file');

const HIGH_WATER_MARK = 64 * 1024;

class FileChangedError extends Error {
  constructor(file) {
    super(`${file} changed while being served`);
    this.code = 'ERR_FILE_CHANGED';
  }
}

// Counts bytes through, re-checks the fd's stat at the end, and releases the file with itself.
class CheckedBody extends Transform {
  constructor(file, fd, rep, expected) {
    super();
    this.file = file;
    this.fd = fd;
    this.rep = rep;
    this.remaining = expected;
  }

  _transform(chunk, _enc, done) {
    this.remaining -= chunk.length;
    done(null, chunk);
  }

  _flush(done) {
    if (this.remaining !== 0) { done(new FileChangedError(this.rep.path)); return; }
    fs.fstat(this.fd, (err, st) => done(err || (sameStat(st, this.rep.stat) ? null : new FileChangedError(this.rep.path))));
  }

  // The read stream closes the fd when destroyed, and only after its read in flight (if any)
  // completes, so the fd number cannot be reused under that read.
  _destroy(err, done) {
    this.file.destroy();
    done(err);
  }
}

function openChecked(rep) {
  return new Promise((resolve, reject) => {
    fs.open(rep.path, fs.constants.O_RDONLY | O_NOFOLLOW, (err, fd) => {
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
