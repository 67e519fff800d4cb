'use strict';
// How much on-the-fly dictionary delta work (RFC 9842 dcb, dcz) requests may cause: making a
// delta, or checking once a delta kept in the cache folder by another process. Every (file,
// dictionary) pair a client names is a delta of its own, and the pairs are many (each file of a
// rule against each dictionary of the rule, in two codings), so a client asking for new pairs
// would otherwise cost a compression per request, 20 times a cached br response. The work is
// counted in bytes of input (what a compression's CPU time grows with) in two token buckets: one
// per connection, so one client cannot spend it all, and one for the process. A request past
// either gets the coding it would have had without a dictionary (br, zstd...), as a request
// past the compression slots (compression-budget.js) gets a variant or identity. A delta made
// or checked before costs nothing.

class Bucket {
  constructor({ bytesPerSecond, burstBytes }, at) {
    Object.assign(this, { rate: bytesPerSecond / 1000, burst: burstBytes, tokens: burstBytes, at });
  }

  refill(at) {
    this.tokens = Math.min(this.burst, this.tokens + (at - this.at) * this.rate);
    this.at = at;
  }
}

class DeltaBudget {
  /**
   * @param {{ global: { bytesPerSecond: number, burstBytes: number }, connection: { bytesPerSecond: number, burstBytes: number } }} limits
   * @param {{ now?: () => number }} [options] a clock in ms (tests pass their own)
   */
  constructor(limits, { now = () => performance.now() } = {}) {
    this.limits = limits;
    this.now = now;
    this.global = new Bucket(limits.global, now());
    this.connections = new WeakMap();
    this.refused = 0;
  }

  /**
   * Whether `bytes` of input may be worked on now for a request on `connection` (any object
   * that lives as long as the connection; null where there is none, /_negotiate's report:
   * then the process's bucket alone). Takes them when so. A bucket with anything left lends
   * the rest, so a file larger than a burst is not refused forever: its debt is paid over time.
   */
  tryTake(connection, bytes) {
    const at = this.now();
    this.global.refill(at);
    let own = null;
    if (connection !== null) {
      own = this.connections.get(connection);
      if (own === undefined) {
        own = new Bucket(this.limits.connection, at);
        this.connections.set(connection, own);
      }
      own.refill(at);
    }
    if (this.global.tokens <= 0 || (own !== null && own.tokens <= 0)) {
      this.refused++;
      return false;
    }
    this.global.tokens -= bytes;
    if (own !== null) own.tokens -= bytes;
    return true;
  }

  get stats() {
    return { globalBytesLeft: Math.floor(this.global.tokens), refused: this.refused };
  }
}

module.exports = { DeltaBudget };
