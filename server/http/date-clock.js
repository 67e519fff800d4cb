'use strict';
// The Date field's value for every engine (RFC 9110 6.6.1: an origin server with a clock sends
// Date; its resolution is one second). The same frozen object is returned all through a second,
// so an engine that derives bytes from it (an HPACK literal, a header line, responses cached
// for the second) recomputes them only when the object changes.

let current = Object.freeze({ second: -1, text: '', nextAt: 0 });

/** { second, text (IMF-fixdate) } of the second now, also when the clock was set back. */
function currentDate() {
  const now = Date.now();
  if (now >= current.nextAt || now < current.nextAt - 1000) {
    const second = Math.floor(now / 1000);
    current = Object.freeze({ second, text: new Date(second * 1000).toUTCString(), nextAt: (second + 1) * 1000 });
  }
  return current;
}

module.exports = { currentDate };
