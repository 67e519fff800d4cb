'use strict';
// The fs calls a stream makes on an fd it owns, and the close that ends them. The fd is closed
// only once no call is in flight, so its number cannot be reused (by another open) under one,
// and a call that completes after its stream was destroyed never reaches the stream.

const fs = require('node:fs');

class FdCalls {
  constructor() {
    this.busy = 0;
    this.closing = null;
  }

  /**
   * Contract: runs call(cb); passes its result to then(result, extra), its error to fail(err),
   * or, once close() was asked, a successful result to orphan(result) (what it opened, say).
   */
  run(call, then, fail, orphan = () => {}) {
    this.busy++;
    call((err, result, extra) => {
      this.busy--;
      if (this.closing !== null) {
        if (!err) orphan(result);
        if (this.busy === 0) this.closing();
        return;
      }
      if (err) fail(err);
      else then(result, extra);
    });
  }

  /** Contract: closes getFd()'s fd (if not null) once no call is in flight, then calls done(). */
  close(getFd, done) {
    this.closing = () => {
      const fd = getFd();
      if (fd === null) done();
      else fs.close(fd, () => done());
    };
    if (this.busy === 0) this.closing();
  }
}

module.exports = { FdCalls };
