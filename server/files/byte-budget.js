'use strict';
// The process-wide budget of response bytes held in memory on their way to clients: read from a
// file or spooled from a compressor, not yet taken by the transport. Readers reserve before they
// allocate and wait (first come, first served) when it is spent, so clients that stall their
// windows or sockets cannot make the process grow past it, however many of them there are.
// A protocol engine needs only acquire/release (or a Charge per body) to take part.

class ByteBudget {
  /** @param {number} limit bytes; every single reservation must be at most this. */
  constructor(limit) {
    this.limit = limit;
    this.used = 0;
    this.waiting = [];
    this.peak = 0;
  }

  /** Contract: calls grant() once n bytes are reserved, at once if they fit and nobody waits. */
  acquire(n, grant) {
    if (this.waiting.length === 0 && this.tryAcquire(n)) { grant(); return; }
    this.waiting.push({ n, grant });
  }

  /** Contract: reserves n bytes and returns true only if they fit now and nobody waits. */
  tryAcquire(n) {
    if (this.used + n > this.limit || this.waiting.length > 0) return false;
    this.used += n;
    if (this.used > this.peak) this.peak = this.used;
    return true;
  }

  /** Contract: gives back n reserved bytes and wakes waiters in order while they fit. */
  release(n) {
    this.used -= n;
    while (this.waiting.length > 0 && this.used + this.waiting[0].n <= this.limit) {
      const { n: next, grant } = this.waiting.shift();
      this.used += next;
      if (this.used > this.peak) this.peak = this.used;
      grant();
    }
  }

  get stats() {
    return { used: this.used, peak: this.peak, waiting: this.waiting.length, limit: this.limit };
  }
}

// What one body holds of the budget: at most one chunk, from the reservation before its read
// until the consumer asks for the next chunk (a body read on demand only then knows the
// transport took the last one) or the body is destroyed. So a protocol engine keeps the
// accounting exact by asking for a body's next chunk only once it has sent the last one
// (pipe() into a Writable whose highWaterMark is at most a chunk does; a 'data' listener must
// pause() the body while it still holds a chunk).
class Charge {
  constructor(budget) {
    this.budget = budget;
    this.bytes = 0;
  }

  /** Contract: settles the previous chunk, then calls grant() with n bytes charged to this body. */
  take(n, grant) {
    this.settle();
    this.budget.acquire(n, () => {
      this.bytes = n;
      grant();
    });
  }

  /** Contract: makes n bytes the caller already reserved this body's chunk (after settle()). */
  hold(n) {
    this.bytes = n;
  }

  /** Contract: gives back what this body holds; idempotent. */
  settle() {
    if (this.bytes === 0) return;
    const n = this.bytes;
    this.bytes = 0;
    this.budget.release(n);
  }
}

module.exports = { ByteBudget, Charge };
