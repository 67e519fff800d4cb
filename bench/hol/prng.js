'use strict';
// A seeded PRNG (mulberry32), so every simulated run can be replayed exactly:
// same seed, same losses, same figures.

// A 32-bit seed from any list of numbers and strings (FNV-1a over their text),
// so each (RTT, loss, story, seed index) gets a stream of its own.
function seedFrom(...parts) {
  let h = 0x811c9dc5;
  for (const ch of parts.join('/')) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}

// () -> uniform float in [0, 1).
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

module.exports = { mulberry32, seedFrom };
