'use strict';
// A small seeded PRNG (mulberry32), so a fuzz run and each input's replay are reproducible.

function createRandom(seed) {
  let state = seed >>> 0;
  function next() {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  return {
    next,
    // An integer in [0, n).
    below: (n) => Math.floor(next() * n),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
    bytes(n) {
      const out = Buffer.allocUnsafe(n);
      for (let i = 0; i < n; i++) out[i] = Math.floor(next() * 256);
      return out;
    },
  };
}

// A 32-bit FNV-1a hash of a buffer: seeds an input's own PRNG (its chunking) from its bytes.
function hashBytes(buf) {
  let h = 0x811c9dc5;
  for (let i = 0; i < buf.length; i++) h = Math.imul(h ^ buf[i], 0x01000193);
  return h >>> 0;
}

module.exports = { createRandom, hashBytes };
