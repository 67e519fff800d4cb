'use strict';
// A connection's inactivity limit, whose length depends on its state (HTTP/2: http2IdleTimeout
// with no stream open, idleTimeout with streams open). Node's socket timeout would have to be
// set again, a new timer each time, whenever the connection goes from idle to busy and back:
// twice per request at one request at a time. Here one timer is armed once and ticks at a
// fraction of the shortest limit; activity only sets a flag, and the limit in force is checked
// at each tick, so an inactive connection expires between its limit and one tick later, and
// again each limit after that until stop().

const TICKS_PER_LIMIT = 4;

class IdleTimer {
  #active = false;
  #quiet = 0; // ms without activity, counted in whole ticks
  #tick;
  #limit;
  #onExpire;
  #timer;

  // shortest: the smallest limit (ms); limit(): the one in force now; onExpire(quietMs).
  // arm(fn, ms): a timer with refresh() (tests pass their own clock).
  constructor(shortest, limit, onExpire, arm = (fn, ms) => setTimeout(fn, ms).unref()) {
    this.#tick = Math.max(1, Math.ceil(shortest / TICKS_PER_LIMIT));
    this.#limit = limit;
    this.#onExpire = onExpire;
    this.#timer = arm(() => this.#onTick(), this.#tick);
  }

  // Bytes moved.
  touch() {
    this.#active = true;
  }

  // How long (ms, in whole ticks) nothing has moved: 0 after activity since the last tick.
  get quiet() {
    return this.#active ? 0 : this.#quiet;
  }

  stop() {
    clearTimeout(this.#timer);
  }

  #onTick() {
    if (this.#active) {
      this.#active = false;
      this.#quiet = 0;
    } else {
      this.#quiet += this.#tick;
      if (this.#quiet >= this.#limit()) {
        const quiet = this.#quiet;
        this.#quiet = 0;
        this.#onExpire(quiet);
      }
    }
    this.#timer.refresh();
  }
}

module.exports = { IdleTimer };
