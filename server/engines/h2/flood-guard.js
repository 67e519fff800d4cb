'use strict';
// A token bucket: `burst` events at once, refilled at `perSecond`. Guards against peers that
// make the server work for frames that cost them nothing (control-frame floods,
// CVE-2019-9512/9515/9518) or open and cancel streams faster than responses can be made
// (rapid reset, CVE-2023-44487).
//
// The bucket is refilled on every take(), for the time since the last one, and never holds
// more than `burst` (nghttp2_ratelim_update does the same). Refilling only once it ran empty,
// for all the time since the last refill, handed a peer that had been quiet a second burst
// on top of the first.

function monotonicMs() {
  return performance.now();
}

// Counted in thousandths of a token, so that a clock in whole milliseconds refills exactly.
const MILLI = 1000;

class FloodGuard {
  #credit;
  #capacity;
  #perSecond;
  #now;
  #last;

  // now(): milliseconds from a monotonic clock (tests pass their own).
  constructor(burst, perSecond, { now = monotonicMs } = {}) {
    this.#capacity = burst * MILLI;
    this.#credit = this.#capacity;
    this.#perSecond = perSecond;
    this.#now = now;
    this.#last = now();
  }

  // false once the peer is past the budget.
  take() {
    const now = this.#now();
    // elapsed ms * perSecond: the thousandths of a token earned meanwhile.
    this.#credit = Math.min(this.#capacity, this.#credit + (now - this.#last) * this.#perSecond);
    this.#last = now;
    if (this.#credit < MILLI) return false;
    this.#credit -= MILLI;
    return true;
  }
}

module.exports = { FloodGuard };
