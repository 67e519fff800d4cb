'use strict';
// A token bucket: `burst` events at once, refilled at `perSecond`. Guards against peers that
// make the server work for frames that cost them nothing (control-frame floods,
// CVE-2019-9512/9515/9518) or open and cancel streams faster than responses can be made
// (rapid reset, CVE-2023-44487).

class FloodGuard {
  #tokens;
  #burst;
  #perMs;
  #last = performance.now();

  constructor(burst, perSecond) {
    this.#burst = burst;
    this.#tokens = burst;
    this.#perMs = perSecond / 1000;
  }

  // false once the peer is past the budget.
  take() {
    if (this.#tokens >= 1) {
      this.#tokens--;
      return true;
    }
    const now = performance.now();
    this.#tokens = Math.min(this.#burst, this.#tokens + (now - this.#last) * this.#perMs);
    this.#last = now;
    if (this.#tokens < 1) return false;
    this.#tokens--;
    return true;
  }
}

module.exports = { FloodGuard };
