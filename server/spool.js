'use strict';
// A buffer between a compressor and a client that reads at its own pace. Writes complete at
// compression speed: into memory while the spool holds at most MEMORY_BYTES and the byte budget
// has room, otherwise appended to an unlinked temporary file. So the compressor (and its
// compression slot) finishes as fast as it compresses, and a slow or stalled reader holds only
// disk space and one chunk, never a slot. The reader gets the bytes in order, read on demand
// (highWaterMark 0) one charged chunk at a time like a file body. The file has no name from
// the moment it is created and its fd is closed when the spool ends or is destroyed, so no
// path (abort, error, completion) leaves anything behind.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { Duplex } = require('node:stream');
const { Charge } = require('./byte-budget');
const { CHUNK } = require('./file-body');
const { FdCalls } = require('./fd-calls');

const MEMORY_BYTES = 256 * 1024;
const TEMP_FLAGS = fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_EXCL;

function openUnlinkedTemp(dir, cb) {
  const file = path.join(dir, `negotiate-spool-${process.pid}-${crypto.randomBytes(8).toString('hex')}`);
  fs.open(file, TEMP_FLAGS, 0o600, (err, fd) => {
    if (err) { cb(err); return; }
    fs.unlink(file, (unlinkErr) => {
      if (unlinkErr) fs.close(fd, () => cb(unlinkErr));
      else cb(null, fd);
    });
  });
}

class Spool extends Duplex {
  /**
   * @param {import('./byte-budget').ByteBudget} budget charged for memory held and chunks read back.
   * @param {string} [dir=os.tmpdir()] where the temporary file is created (and at once unlinked).
   */
  constructor(budget, dir = os.tmpdir()) {
    super({ readableHighWaterMark: 0, writableHighWaterMark: CHUNK });
    this.budget = budget;
    this.dir = dir;
    this.memory = [];
    this.memoryBytes = 0;
    this.fd = null;
    this.written = 0; // bytes completely written to the file
    this.readFrom = 0; // next file offset to hand out
    this.charge = new Charge(budget);
    this.wantsData = false;
    this.ended = false;
    this.calls = new FdCalls();
  }

  _write(chunk, _enc, done) {
    // Bytes go to memory only while nothing is pending in the file, which keeps them in order.
    if (this.readFrom === this.written && this.memoryBytes + chunk.length <= MEMORY_BYTES && this.budget.tryAcquire(chunk.length)) {
      this.memory.push(chunk);
      this.memoryBytes += chunk.length;
      this.deliver();
      done();
      return;
    }
    if (this.fd === null) {
      this.io((cb) => openUnlinkedTemp(this.dir, cb), (fd) => { this.fd = fd; this._write(chunk, _enc, done); }, done,
        (fd) => fs.close(fd, () => {}));
      return;
    }
    this.io((cb) => fs.write(this.fd, chunk, 0, chunk.length, this.written, cb), () => {
      this.written += chunk.length;
      this.deliver();
      done();
    }, done);
  }

  _final(done) {
    this.ended = true;
    done();
    this.deliver();
  }

  _read() {
    this.charge.settle();
    this.wantsData = true;
    this.deliver();
  }

  // Hands the reader its next chunk if it asked for one and one is there.
  deliver() {
    if (!this.wantsData || this.destroyed) return;
    if (this.memory.length > 0) {
      this.wantsData = false;
      const chunk = this.memory.shift();
      this.memoryBytes -= chunk.length;
      this.charge.hold(chunk.length);
      this.push(chunk);
    } else if (this.readFrom < this.written) {
      this.wantsData = false;
      const n = Math.min(CHUNK, this.written - this.readFrom);
      const at = this.readFrom;
      this.readFrom += n;
      this.charge.take(n, () => {
        if (this.destroyed) { this.charge.settle(); return; }
        this.io((cb) => fs.read(this.fd, Buffer.allocUnsafe(n), 0, n, at, cb), (bytesRead, buf) => {
          if (bytesRead !== n) this.destroy(new Error(`spool file read ${bytesRead} of ${n} bytes`));
          else this.push(buf);
        });
      });
    } else if (this.ended) {
      this.wantsData = false;
      this.push(null);
    }
  }

  io(call, then, fail = (err) => this.destroy(err), orphan) {
    this.calls.run(call, then, fail, orphan);
  }

  _destroy(err, done) {
    this.charge.settle();
    this.budget.release(this.memoryBytes);
    this.memory = [];
    this.memoryBytes = 0;
    this.calls.close(() => this.fd, () => done(err));
  }
}

module.exports = { Spool, MEMORY_BYTES };
