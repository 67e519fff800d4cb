'use strict';
// Gives the memory of a surge of connections back to the system once the surge is over. Freed
// native memory (OpenSSL's handshake state, Node's TLSWrap: 55-71 KiB per pending handshake)
// stays in glibc's heap after a flood, leaving RSS at the flood's peak for good; the addon's
// releaseFreeMemory (malloc_trim) returns it. It walks the whole heap, so it runs once per surge,
// not per connection: after at least `surge` were pending at once and then none, delayMs later
// (the sockets' native halves are freed as their handles close, after their 'close' events).

/**
 * @param {{ surge: number, delayMs: number, release: () => boolean,
 *   timers: { setTimeout(fn: Function, ms: number): unknown } }} options
 * @returns {{ note(count: number): void }} note: how many are pending now, after each change
 */
function releaseAfterSurge({ surge, delayMs, release, timers }) {
  let peak = 0;
  let scheduled = false;
  return {
    note(count) {
      if (count > peak) peak = count;
      if (count !== 0 || peak < surge || scheduled) return;
      peak = 0;
      scheduled = true;
      timers.setTimeout(() => {
        scheduled = false;
        release();
      }, delayMs);
    },
  };
}

module.exports = { releaseAfterSurge };
