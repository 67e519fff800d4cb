'use strict';
// Each simulated run draws its losses from its own seeded stream, so a run can
// be replayed exactly: same (RTT, loss, story, seed index), same losses. The
// generator is the project's one seeded PRNG (mulberry32, test/fuzz/random.js).
const { createRandom, hashBytes } = require('../../test/fuzz/random');

// () -> uniform float in [0, 1), seeded by the FNV-1a hash of the parts' text.
function seededRandom(...parts) {
  return createRandom(hashBytes(Buffer.from(parts.join('/')))).next;
}

module.exports = { seededRandom };
