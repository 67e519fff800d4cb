'use strict';
// What one replay measured, in the seed's terms:
// - HOL delay of a request: the time its header block waited after its own
//   bytes had arrived (decode time − arrival time); cumulative = their sum.
// - peak buffered bytes: the most bytes the receiver held that had arrived but
//   could not be decoded yet (blocked header blocks or sections, plus
//   encoder-stream chunks waiting behind a lost one).

function holDelays(requests) {
  return requests.map((r) => r.decoded - r.arrival);
}

// Largest sum of bytes over time, given [from, to, bytes] intervals; at one
// instant releases count before arrivals (a block decoded on arrival is never held).
function peakHeld(intervals) {
  const edges = [];
  for (const [from, to, bytes] of intervals) {
    if (to > from) edges.push([from, 1, bytes], [to, 0, -bytes]);
  }
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let peak = 0;
  for (const [, , delta] of edges) {
    now += delta;
    peak = Math.max(peak, now);
  }
  return peak;
}

// -> { delays, cumulative, peakBuffered, wireBytes, decoderStreamBytes }
function measureRun({ requests, held, wireBytes, decoderStreamBytes }) {
  const delays = holDelays(requests);
  const blocked = requests.map((r) => [r.arrival, r.decoded, r.bytes]);
  return {
    delays,
    cumulative: delays.reduce((a, b) => a + b, 0),
    peakBuffered: peakHeld(blocked.concat(held)),
    wireBytes,
    decoderStreamBytes,
  };
}

module.exports = { measureRun, peakHeld, holDelays };
