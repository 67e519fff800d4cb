'use strict';
// What bench:hol runs: the seed's grid (RTT 10–500 ms, loss 0–10%), the
// schemes compared, and how requests are spaced in time.

const SCHEMES = [
  { id: 'hpack', label: 'HPACK, blocks in order' },
  { id: 'qpack-0', label: 'QPACK, 0 blocked streams', blockedStreams: 0 },
  { id: 'qpack-16', label: 'QPACK, 16 blocked streams', blockedStreams: 16 },
  { id: 'qpack-100', label: 'QPACK, 100 blocked streams', blockedStreams: 100 },
];

const FULL = { rtts: [10, 50, 100, 200, 500], losses: [0, 0.005, 0.01, 0.02, 0.05, 0.1], seeds: 5 };
// The seed's two headline points and a loss-free baseline, 2 seeds: about 10 s.
const QUICK = { rtts: [100, 200], losses: [0, 0.02, 0.05], seeds: 2 };

// The stories carry no timestamps. A page load issues its requests in bursts
// over about a second (the seed replayed a HAR's 227 start times); 10 ms apart
// spreads a story's ~100 requests over ~1 s, so at 100 ms RTT a lost packet
// overlaps the next 10–20 requests, as it would during a page load.
const SPACING_MS = 10;

function sendTimes(count, spacingMs) {
  return Array.from({ length: count }, (_, i) => i * spacingMs);
}

module.exports = { SCHEMES, FULL, QUICK, SPACING_MS, sendTimes };
