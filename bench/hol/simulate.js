'use strict';
// Runs every story through every scheme at one (RTT, loss) point, several
// seeds each, and summarizes: per-request and cumulative HOL delay, the share
// of runs with none, compression ratio and the decoder's peak buffer.
const { percentileOfSorted, median } = require('../lib/stats');
const { lossyLink } = require('./network');
const { seededRandom } = require('./prng');
const { hpackBlockSizes, replayHpack, replayQpack } = require('./replay');
const { measureRun } = require('./metrics');
const { sendTimes } = require('./grid');

// Each story once: its sections, raw size (names + values) and HPACK blocks.
function prepareStories(stories) {
  return stories.map(([name, sections]) => ({
    name,
    sections,
    rawBytes: sections.flat().reduce((n, [k, v]) => n + k.length + v.length, 0),
    hpackBlocks: hpackBlockSizes(sections),
  }));
}

function replay(scheme, story, times, link) {
  if (scheme.id === 'hpack') return replayHpack(story.hpackBlocks, times, link);
  return replayQpack(story.sections, times, link, { blockedStreams: scheme.blockedStreams });
}

const round = (x, digits = 2) => Number(x.toFixed(digits));

// Float64Array of values -> { mean, p95, max }
function spread(values) {
  const sorted = Float64Array.from(values).sort();
  const sum = sorted.reduce((a, b) => a + b, 0);
  return { mean: round(sum / sorted.length), p95: round(percentileOfSorted(sorted, 95)), max: round(sorted[sorted.length - 1]) };
}

const zeroShare = (values) => round(values.filter((v) => v === 0).length / values.length, 3);

function peakSpread(peaks) {
  return { median: median(peaks), p95: percentileOfSorted(Float64Array.from(peaks).sort(), 95), max: Math.max(...peaks) };
}

// One grid point -> { [schemeId]: summary }, plus each scheme's per-request
// delays and per-run means appended to `pooled` for the grid-wide figures.
function simulatePoint({ rttMs, loss, seeds, spacingMs, stories, schemes, pooled }) {
  const out = {};
  for (const scheme of schemes) {
    const delays = [];
    const cumulative = [];
    const peaks = [];
    let wire = 0;
    let raw = 0;
    let acks = 0;
    for (const story of stories) {
      const times = sendTimes(story.sections.length, spacingMs);
      for (let s = 0; s < seeds; s++) {
        // The same seed for every scheme: the same network luck, as far as
        // their different packet counts allow.
        const rng = seededRandom(rttMs, loss, story.name, s);
        const run = measureRun(replay(scheme, story, times, lossyLink({ rttMs, loss, rng })));
        for (const d of run.delays) delays.push(d);
        cumulative.push(run.cumulative);
        peaks.push(run.peakBuffered);
        wire += run.wireBytes;
        acks += run.decoderStreamBytes;
        raw += story.rawBytes;
        if (pooled) {
          const p = (pooled[scheme.id] ||= { delays: [], runMeans: [], peaks: [], wire: 0, raw: 0 });
          for (const d of run.delays) p.delays.push(d);
          p.runMeans.push(run.cumulative / run.delays.length);
          p.peaks.push(run.peakBuffered);
          p.wire += run.wireBytes;
          p.raw += story.rawBytes;
        }
      }
    }
    out[scheme.id] = {
      perRequest: spread(delays),
      cumulative: spread(cumulative),
      zeroRuns: zeroShare(cumulative),
      ratio: round(wire / raw, 4),
      decoderStreamPerRaw: round(acks / raw, 4),
      peakBuffered: peakSpread(peaks),
      runs: cumulative.length,
      requests: delays.length,
    };
  }
  return out;
}

// Grid-wide figures per scheme, as the seed gives them for QPACK (share of runs
// without HOL delay; mean, p95 and max delay per request).
function summarizePooled(pooled) {
  return Object.fromEntries(Object.entries(pooled).map(([id, p]) => [id, {
    zeroRuns: zeroShare(p.runMeans),
    perRequest: spread(p.delays),
    runMean: spread(p.runMeans),
    ratio: round(p.wire / p.raw, 4),
    peakBuffered: peakSpread(p.peaks),
    runs: p.runMeans.length,
  }]));
}



// The whole grid -> { points: [{ rttMs, loss, schemes }], grid: pooled summary }.
function simulateGrid({ rtts, losses, seeds, spacingMs, stories, schemes, onPoint = () => {} }) {
  const pooled = {};
  const points = [];
  for (const rttMs of rtts) {
    for (const loss of losses) {
      points.push({ rttMs, loss, schemes: simulatePoint({ rttMs, loss, seeds, spacingMs, stories, schemes, pooled }) });
      onPoint(points[points.length - 1]);
    }
  }
  return { points, grid: summarizePooled(pooled) };
}
module.exports = { prepareStories, simulatePoint, simulateGrid };
