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
const { Readable } = require('node:stream');
const { sameStat } = require('./read-file');
const { O_NOFOLLOW, O_NONBLOCK } = require('./open-in-root');
const { Charge } = require('./byte-budget');
const { ERR_FILE_CHANGED } = require('../errors');
const { FdCalls } = require('./fd-calls');

// Reads happen only when the consumer asks (highWaterMark 0) and hold one chunk at a time, so a
// client whose window or socket is stalled pins one chunk, not a read-ahead pipeline. The first
// chunk is one DATA frame at HTTP/2's default maximum frame size, below the default 64 KiB
// window; once the transport has taken it, larger reads cost fewer syscalls.
const FIRST_CHUNK = 16 * 1024;
const CHUNK = 64 * 1024;

// Whether the fd still holds the bytes the headers were built from: its stat matches, or the
// only change is the ctime an unlink stamps (the file was replaced by rename or deleted: its
// inode is no longer reachable by a path to be written through).
function unchangedSince(st, stat) {
  return sameStat(st, stat) || (st.nlink === 0 && sameStat({ ...st, ctimeMs: stat.ctimeMs }, stat));
}

// Streams bytes [start, end] of an open fd, holding back the last chunk until an fstat taken
// after the last read still matches the representation's stat; owns and closes the fd.
class FileBody extends Readable {
  constructor(fd, rep, start, end, budget) {
    super({ highWaterMark: 0 });
    this.fd = fd;
    this.rep = rep;
    this.position = start;
    this.remaining = end - start + 1;
    this.charge = new Charge(budget);
    this.chunkSize = FIRST_CHUNK;
    this.calls = new FdCalls();
  }

  _read() {
    if (this.remaining === 0) { this.io((done) => fs.fstat(this.fd, done), (st) => this.finish(st, null)); return; }
    const n = Math.min(this.chunkSize, this.remaining);
    this.chunkSize = CHUNK;
    this.charge.take(n, () => {
      if (this.destroyed) { this.charge.settle(); return; }
      this.io((done) => fs.read(this.fd, Buffer.allocUnsafe(n), 0, n, this.position, done), (bytesRead, buf) => {
        if (bytesRead === 0) { this.destroy(ERR_FILE_CHANGED({ file: this.rep.path })); return; }
        this.position += bytesRead;
        this.remaining -= bytesRead;
        const chunk = bytesRead < n ? buf.subarray(0, bytesRead) : buf;
        if (this.remaining > 0) this.push(chunk);
        else this.io((done) => fs.fstat(this.fd, done), (st) => this.finish(st, chunk));
      });
    });
  }

  finish(st, last) {
    if (!unchangedSince(st, this.rep.stat)) { this.destroy(ERR_FILE_CHANGED({ file: this.rep.path })); return; }
    if (last !== null) this.push(last);
    this.push(null);
  }

  io(call, then) {
    this.calls.run(call, then, (err) => this.destroy(err));
  }

  _destroy(err, done) {
    this.charge.settle();
    this.calls.close(() => this.fd, () => done(err));
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
      if (err) { reject(err.code === 'ENOENT' || err.code === 'ELOOP' ? ERR_FILE_CHANGED({ file: rep.path }) : err); return; }
      fs.fstat(fd, (err2, st) => {
        if (!err2 && sameStat(st, rep.stat)) { resolve(fd); return; }
        fs.close(fd, () => reject(err2 || ERR_FILE_CHANGED({ file: rep.path })));
      });
    });
  });
}

// Resolves a Readable of bytes [start, end] of the representation's file, whose chunks are
// charged to `budget` (a ByteBudget) while held.
async function openFileBody(rep, start, end, budget) {
  return new FileBody(await openChecked(rep), rep, start, end, budget);
}

module.exports = { openFileBody, CHUNK };
