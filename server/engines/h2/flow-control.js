'use strict';
// Flow-control windows (RFC 9113 5.2, 6.9). Send windows are plain numbers on the connection
// and its streams; receive windows are refilled as soon as half is used, since this server
// discards request bodies at once and a peer must never stall on a window we do not reopen.

const { MAX_WINDOW_SIZE } = require('./frame-types');

class ReceiveWindow {
  constructor(size) {
    this.size = size;
    this.available = size;
  }

  // Accounts for a DATA frame (padding included); false when it overruns the window.
  consume(length) {
    if (length > this.available) return false;
    this.available -= length;
    return true;
  }

  // The WINDOW_UPDATE increment that reopens the window once half of it is used, else 0.
  refill() {
    const used = this.size - this.available;
    if (used * 2 < this.size) return 0;
    this.available = this.size;
    return used;
  }
}

// A send window after WINDOW_UPDATE or a SETTINGS_INITIAL_WINDOW_SIZE change, or null when it
// would exceed 2^31-1 (a FLOW_CONTROL_ERROR, 6.9.1). It may go negative through SETTINGS (6.9.2).
function grow(window, increment) {
  const next = window + increment;
  return next > MAX_WINDOW_SIZE ? null : next;
}

module.exports = { ReceiveWindow, grow };
