'use strict';
// bench/hol: the seed's network model, the replay of HPACK (blocks in order)
// and QPACK (sections independent, inserts on the encoder stream, acks back
// over the same link) through the real codecs, and a tiny end-to-end run.
const test = require('node:test');
const assert = require('node:assert');
const { seededRandom } = require('../../bench/hol/prng');
const { lossyLink, orderedStream, PACKET_BYTES } = require('../../bench/hol/network');
const { hpackBlockSizes, replayHpack, replayQpack } = require('../../bench/hol/replay');
const { measureRun, peakHeld } = require('../../bench/hol/metrics');
const { sendTimes, SCHEMES } = require('../../bench/hol/grid');
const { missing, loadStories } = require('../helpers/qpack-stories');

const RTT = 100;
const SPACING = 10;
const LATE = 150; // a lost chunk's extra delay in the scripted cases: 1.5 RTT

// The same request 20 times: every request after the first references the
// first one's inserts, the case where QPACK can block.
const SAME = Array.from({ length: 20 }, () => [
  [':method', 'GET'], [':scheme', 'https'], [':authority', 'www.example.com'], [':path', '/'],
  ['user-agent', 'bench-hol-test/1.0'], ['x-request-kind', 'page'],
]);
const TIMES = sendTimes(SAME.length, SPACING);

// A link on which exactly the listed chunks ('channel:index', counted per
// channel in sending order) are lost, each arriving LATE ms after RTT/2.
function scriptedLink(lost, lateMs = LATE) {
  const counts = { request: 0, encoder: 0, decoder: 0 };
  return {
    deliver(sentAt, bytes, channel) {
      const key = `${channel}:${counts[channel]++}`;
      return sentAt + RTT / 2 + (lost.includes(key) || lost.includes(`${channel}:*`) ? lateMs : 0);
    },
  };
}

function replayScheme(schemeId, sections, link) {
  if (schemeId === 'hpack') return replayHpack(hpackBlockSizes(sections), sendTimes(sections.length, SPACING), link);
  const { blockedStreams } = SCHEMES.find((s) => s.id === schemeId);
  return replayQpack(sections, sendTimes(sections.length, SPACING), link, { blockedStreams });
}

test('the PRNG replays a seed exactly and separates seeds', () => {
  const draw = (...parts) => Array.from({ length: 5 }, seededRandom(...parts));
  assert.deepStrictEqual(draw(100, 0.02, 'story_00', 0), draw(100, 0.02, 'story_00', 0));
  assert.notDeepStrictEqual(draw(100, 0.02, 'story_00', 0), draw(100, 0.02, 'story_00', 1));
  for (const x of draw(7)) assert.ok(x >= 0 && x < 1);
});

test('lossy link: RTT/2 one way, a lost packet 1.1–2 RTT later, a chunk as late as its latest packet', () => {
  const cases = [
    { name: 'no loss', loss: 0, bytes: 500, rng: () => 0.5, arrival: 1000 + RTT / 2 },
    { name: 'lost, earliest retransmission', loss: 1, bytes: 500, rng: () => 0, arrival: 1000 + RTT / 2 + 1.1 * RTT },
    { name: 'lost, draw 0.5', loss: 1, bytes: 500, rng: () => 0.5, arrival: 1000 + RTT / 2 + 1.55 * RTT },
    { name: 'probability just above the draw: kept', loss: 0.5, bytes: 500, rng: () => 0.5, arrival: 1000 + RTT / 2 },
  ];
  for (const c of cases) {
    assert.strictEqual(lossyLink({ rttMs: RTT, loss: c.loss, rng: c.rng }).deliver(1000, c.bytes), c.arrival, c.name);
  }
  // Packets: ceil(bytes / PACKET_BYTES), at least one; only the second of three is lost here.
  const draws = [0.9, 0.1, 0.9999, 0.9];
  const link = lossyLink({ rttMs: RTT, loss: 0.5, rng: () => draws.shift() });
  assert.strictEqual(link.deliver(0, 2 * PACKET_BYTES + 1), RTT / 2 + RTT * (1.1 + (2 - 1.1) * 0.9999));
  assert.deepStrictEqual(draws, []);
});

test('ordered stream: a chunk is released when it and every earlier chunk arrived', () => {
  const stream = orderedStream(scriptedLink(['request:1']), 'request');
  assert.deepStrictEqual([0, 10, 20, 300].map((t) => stream.send(t, 100)), [
    { arrival: 50, release: 50 },
    { arrival: 210, release: 210 },
    { arrival: 70, release: 210 },
    { arrival: 350, release: 350 },
  ]);
});

test('peak buffered bytes: overlapping waits add up, a chunk decoded on arrival is never held', () => {
  const cases = [
    { intervals: [], peak: 0 },
    { intervals: [[0, 0, 500]], peak: 0 },
    { intervals: [[0, 10, 100], [5, 20, 50], [20, 30, 70]], peak: 150 },
    { intervals: [[0, 10, 100], [10, 20, 70]], peak: 100 },
  ];
  for (const { intervals, peak } of cases) assert.strictEqual(peakHeld(intervals), peak, JSON.stringify(intervals));
});

test('scripted losses: HPACK blocks wait for every earlier block, QPACK sections only for their own inserts', () => {
  const none = Array(SAME.length).fill(0);
  // Behind a chunk lost at t = 0 arriving at 200 ms, the request sent at 10i arrives at 10i + 50 and waits 150 − 10i.
  const behindLoss = SAME.map((_, i) => (i === 0 ? 0 : Math.max(0, LATE - SPACING * i)));
  const cases = [
    { name: 'no loss', scheme: 'hpack', lost: [], delays: none },
    { name: 'no loss', scheme: 'qpack-100', lost: [], delays: none },
    { name: 'first block lost', scheme: 'hpack', lost: ['request:0'], delays: behindLoss },
    { name: 'first section lost', scheme: 'qpack-0', lost: ['request:0'], delays: none },
    { name: 'first section lost', scheme: 'qpack-100', lost: ['request:0'], delays: none },
    { name: 'fifth block lost', scheme: 'hpack', lost: ['request:4'], delays: SAME.map((_, i) => (i > 4 ? Math.max(0, LATE - SPACING * (i - 4)) : 0)) },
    { name: 'fifth section lost', scheme: 'qpack-100', lost: ['request:4'], delays: none },
    // The first inserts are lost: every section that references them before they arrive waits, the first one included.
    { name: 'first inserts lost', scheme: 'qpack-100', lost: ['encoder:0'], delays: SAME.map((_, i) => Math.max(0, LATE - SPACING * i)) },
    // Inserts 300 ms late: all 20 sections are sent meanwhile; with 16 blocked streams the last 4 go without references.
    { name: 'first inserts 300 ms late', scheme: 'qpack-100', lost: ['encoder:0'], late: 300, delays: SAME.map((_, i) => 300 - SPACING * i) },
    { name: 'first inserts 300 ms late', scheme: 'qpack-16', lost: ['encoder:0'], late: 300, delays: SAME.map((_, i) => (i < 16 ? 300 - SPACING * i : 0)) },
    { name: 'first inserts lost', scheme: 'qpack-0', lost: ['encoder:0'], delays: none },
    { name: 'every ack lost', scheme: 'qpack-100', lost: ['decoder:*'], delays: none },
  ];
  for (const c of cases) {
    const run = measureRun(replayScheme(c.scheme, SAME, scriptedLink(c.lost, c.late)));
    assert.deepStrictEqual(run.delays, c.delays, `${c.scheme}, ${c.name}`);
    assert.strictEqual(run.cumulative, c.delays.reduce((a, b) => a + b, 0), `${c.scheme}, ${c.name}`);
  }
});

test('HPACK held bytes: every block waiting behind the lost one', () => {
  const sizes = hpackBlockSizes(SAME);
  const run = measureRun(replayHpack(sizes, TIMES, scriptedLink(['request:0'])));
  // At 200 ms the first block arrives; blocks 1..14 (sent at 10..140, arrived by 190) are all waiting.
  assert.strictEqual(run.peakBuffered, sizes.slice(1, 15).reduce((a, b) => a + b, 0));
});

test('0 blocked streams: while acks are lost the encoder references no unacknowledged entry', () => {
  // The decoder gets the inserts and acknowledges them, but every ack is late
  // beyond the whole run: no section may reference the dynamic table.
  const starved = replayQpack(SAME, TIMES, scriptedLink(['decoder:*'], 1e9), { blockedStreams: 0 });
  assert.ok(starved.decoderStreamBytes > 0);
  assert.deepStrictEqual(starved.requests.map((r) => r.referencesTable), Array(SAME.length).fill(false));
  assert.strictEqual(measureRun(starved).cumulative, 0);
  // Acks on time: no reference before an ack can be back (one RTT), every section after the first one that references the
  // table does too, and the bytes shrink.
  const acked = replayQpack(SAME, TIMES, scriptedLink([]), { blockedStreams: 0 });
  const first = acked.requests.findIndex((r) => r.referencesTable);
  assert.ok(first !== -1 && TIMES[first] >= RTT, `first reference at ${TIMES[first]} ms`);
  assert.ok(acked.requests.slice(first).every((r) => r.referencesTable));
  assert.strictEqual(measureRun(acked).cumulative, 0);
  assert.ok(acked.wireBytes < starved.wireBytes, `${acked.wireBytes} < ${starved.wireBytes}`);
});

test('no loss: zero HOL delay for every scheme on a random link too', () => {
  for (const scheme of SCHEMES) {
    const link = lossyLink({ rttMs: RTT, loss: 0, rng: seededRandom(1) });
    const run = measureRun(replayScheme(scheme.id, SAME, link));
    assert.strictEqual(run.cumulative, 0, scheme.id);
    assert.strictEqual(run.peakBuffered, 0, scheme.id);
  }
});

test('end to end: two stories on a small grid', { skip: missing || false }, () => {
  // Two stories of about 100 requests each: enough for a loss to block HPACK.
  const { prepareStories, simulateGrid } = require('../../bench/hol/simulate');
  const { renderPage, renderSection } = require('../../bench/hol/report');
  const stories = prepareStories(loadStories().filter(([name]) => name === 'story_26' || name === 'story_31'));
  assert.strictEqual(stories.length, 2);
  const grid = { rtts: [100, 200], losses: [0, 0.02, 0.05], seeds: 2, spacingMs: SPACING };
  const result = simulateGrid({ ...grid, stories, schemes: SCHEMES });
  assert.strictEqual(result.points.length, 6);
  const raw = stories.reduce((n, s) => n + s.rawBytes, 0);
  const hpackWire = stories.reduce((n, s) => n + s.hpackBlocks.reduce((a, b) => a + b, 0), 0);
  for (const p of result.points) {
    assert.strictEqual(p.schemes.hpack.ratio, Number((hpackWire / raw).toFixed(4)));
    assert.strictEqual(p.schemes['qpack-0'].cumulative.max, 0, `qpack-0 at ${p.rttMs} ms, ${p.loss}`);
    for (const s of SCHEMES) {
      assert.strictEqual(p.schemes[s.id].runs, 4);
      if (p.loss === 0) assert.strictEqual(p.schemes[s.id].zeroRuns, 1, `${s.id} without loss`);
    }
  }
  // 5% loss at 200 ms on ~100 requests: HPACK blocks somewhere, and more than QPACK with 100 blocked streams.
  const worst = result.points.find((p) => p.rttMs === 200 && p.loss === 0.05).schemes;
  assert.ok(worst.hpack.perRequest.mean > worst['qpack-100'].perRequest.mean);
  const section = { ...grid, ...result, command: 'test', finishedAt: 'now', stories: 2, requests: 1, runsPerPoint: 4, packetBytes: PACKET_BYTES, tableCapacity: 4096, schemes: SCHEMES };
  const page = renderPage(section, { chartsHref: 'charts' });
  assert.match(page.markdown, /^# Head-of-line blocking/);
  assert.deepStrictEqual(Object.keys(page.charts).sort(), ['hol-buffer.svg', 'hol-delay-100ms.svg', 'hol-delay-200ms.svg', 'hol-ratio.svg']);
  for (const svg of Object.values(page.charts)) assert.match(svg, /^<svg /);
  assert.match(renderSection(section, { chartsHref: 'charts' }).markdown, /\[hol\.md\]\(hol\.md\)/);
});
