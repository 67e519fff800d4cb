'use strict';
// A buffer between a compressor and a client that reads at its own pace. Writes complete at
// compression speed: into memory while the spool holds at most MEMORY_BYTES and the byte budget
// has room, otherwise appended to an unlinked temporary file (within a disk budget). So the compressor (and its
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
   * @param {import('./byte-budget').ByteBudget} disk charged for the file's bytes until the spool closes.
   * @param {string} [dir=os.tmpdir()] where the temporary file is created (and at once unlinked).
   */
  constructor(budget, disk, dir = os.tmpdir()) {
    super({ readableHighWaterMark: 0, writableHighWaterMark: CHUNK });
    this.budget = budget;
    this.disk = disk;
    this.diskBytes = 0;
    this.dir = dir;
    this.memory = [];
    this.memoryBytes = 0;
    this.fd = null;
    this.written = 0; // bytes completely written to the file
    this.readFrom = 0; // next file offset to hand out
    this.charge = new Charge(budget);
    this.wantsData = false;
    this.ended = false;
    // fs calls on the file in flight, and an emptying of the drained file.
    this.reading = false;
    this.writing = false;
    this.reclaiming = false;
    this.afterReclaim = null;
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
    // Past the process's disk budget for spools a write waits, and the compressor with it (then
    // holding its slot, as every slow reader did before spools): disk is bounded too.
    // A file the reader has drained is emptied and its disk given back, so one spool larger
    // than the whole disk budget still flows; writes wait for that to finish.
    if (this.reclaiming) { this.afterReclaim = () => this._write(chunk, _enc, done); return; }
    this.disk.acquire(chunk.length, () => {
      if (this.destroyed) { this.disk.release(chunk.length); return; }
      this.diskBytes += chunk.length;
      this.writing = true;
      this.io((cb) => fs.write(this.fd, chunk, 0, chunk.length, this.written, cb), () => {
        this.writing = false;
        this.written += chunk.length;
        this.deliver();
        done();
      }, done);
    });
  }

  reclaim() {
    if (this.fd === null || this.reading || this.writing || this.reclaiming || this.written === 0 || this.readFrom !== this.written) return;
    this.reclaiming = true;
    this.io((cb) => fs.ftruncate(this.fd, 0, cb), () => {
      this.reclaiming = false;
      this.readFrom = 0;
      this.written = 0;
      const n = this.diskBytes;
      this.diskBytes = 0;
      this.disk.release(n);
      const write = this.afterReclaim;
      this.afterReclaim = null;
      if (write !== null) write();
    });
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
    } else if (this.readFrom < this.written && !this.reading) {
      this.wantsData = false;
      this.reading = true;
      const n = Math.min(CHUNK, this.written - this.readFrom);
      const at = this.readFrom;
      this.readFrom += n;
      this.charge.take(n, () => {
        if (this.destroyed) { this.charge.settle(); return; }
        this.io((cb) => fs.read(this.fd, Buffer.allocUnsafe(n), 0, n, at, cb), (bytesRead, buf) => {
          this.reading = false;
          if (bytesRead !== n) { this.destroy(new Error(`spool file read ${bytesRead} of ${n} bytes`)); return; }
          this.push(buf);
          this.reclaim();
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
    this.calls.close(() => this.fd, () => {
      this.disk.release(this.diskBytes);
      this.diskBytes = 0;
      done(err);
    });
  }
}

module.exports = { Spool, MEMORY_BYTES };
