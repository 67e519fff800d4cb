'use strict';
// The HOL benchmark's page (bench/results/hol.md) and its section of
// bench/results/README.md (bench/lib/results-readme.js calls renderSection
// for the newest "hol" section). Everything shown comes from the section.
const { markdownTable } = require('../../tools/report/markdown-table');
const { groupedBarChart } = require('../../tools/report/svg-chart');
const { FIGURES, SEED } = require('./seed-figures');

const title = 'Head-of-line blocking: HPACK against QPACK over a simulated lossy link';
const PAGE = 'hol.md';

const pct = (loss) => `${Number((loss * 100).toPrecision(3))}%`;
const table = (columns, rows) => markdownTable(columns, rows).trimEnd();
const right = (t) => ({ title: t, align: 'right' });

// Where the seed's model (kept here) is simplistic, and what a better one would change.
const CAVEATS = [
  'Losses are independent per packet (Bernoulli). Real loss is bursty (a Gilbert–Elliott model is the usual next step): a burst takes out'
    + ' several consecutive blocks at once, which for HPACK means fewer but longer stalls (similar mean, heavier tail), and for QPACK often'
    + ' loses an insert together with the section that needs it, which then waits for its own bytes rather than being HOL-blocked.',
  'A lost packet arrives 1.1–2 RTT late and its retransmission is never lost. QUIC (RFC 9002) declares loss after 3 later packets or 9/8 RTT'
    + ' and retransmits, so recovery is about 1.1–1.5 RTT when traffic follows, but a tail loss waits for a PTO (≈ RTT + 4·rttvar +'
    + ' max_ack_delay) and at 5–10% loss some retransmissions are lost again: both lengthen the tails (max, p95), for HPACK most.',
  'No bandwidth, congestion control or pacing: a loss does not shrink the congestion window, which in reality delays every later packet of'
    + ' the connection for HPACK and QPACK alike. That delay is not caused by header compression, so a transport model would add the same'
    + ' time to both and shrink the relative gap, not close it.',
  'Each header block, encoder-stream chunk and acknowledgment travels in packets of its own. A real sender coalesces a section with the'
    + ' inserts it needs into one packet, so they are lost together and QPACK blocks even less than here.',
  'HPACK is modelled as the seed does (only header blocks in order). Over TCP (HTTP/2) every byte after a loss waits, bodies included,'
    + ' so HTTP/2\'s real cost is larger than the header-only figure.',
  'The stories carry no timestamps: requests are evenly spaced, where a real page load has bursts (more requests behind one loss) and idle'
    + ' gaps (none). The acknowledgments\' timing sets QPACK\'s ratio, so it changes with RTT and spacing.',
];

// A figure needing a grid point the run did not have (--quick) shows as not run.
class MissingPoint extends Error {}

function lookup(section) {
  return (schemeId, at) => {
    if (!at) return section.grid[schemeId];
    const point = section.points.find((p) => p.rttMs === at.rttMs && p.loss === at.loss);
    if (!point) throw new MissingPoint();
    return point.schemes[schemeId];
  };
}

function oursOrNotRun(figure, get) {
  try {
    return figure.ours(get);
  } catch (err) {
    if (err instanceof MissingPoint) return 'not in this grid';
    throw err;
  }
}

function modelText(section) {
  return [
    `${section.stories} hpack-test-case stories (\`raw-data/story_*.json\`, ${section.requests} requests; each story is one connection),`
      + ` requests issued ${section.spacingMs} ms apart from t = 0; RTT ${section.rtts.join(', ')} ms × loss ${section.losses.map(pct).join(', ')}`
      + ` × ${section.seeds} seeds per point (${section.runsPerPoint} runs of each scheme per point). Tables of ${section.tableCapacity} bytes for both codecs;`
      + ' HPACK is our encoder (`linear`, Huffman), QPACK our `QpackEncoder` with the blocked-streams setting shown.',
    '',
    `Network (the seed's model): every chunk arrives RTT/2 after it is sent; it travels in packets of ≤ ${section.packetBytes} bytes, each lost with`
      + ' probability p, and a lost packet arrives 1.1–2 RTT later (uniform). Header blocks, encoder-stream chunks and decoder-stream'
      + ' acknowledgments each travel in packets of their own. HPACK blocks are decoded in order (one is decoded when it and every block before it'
      + ' arrived). A QPACK section is decoded when its bytes and the inserts it references have arrived; the encoder stream and the decoder stream'
      + ' are in order; the encoder learns of acknowledgments only when they arrive. The QPACK decoder really decodes in that order (blocked'
      + ' sections wait inside it) and every decoded section is compared with its input.',
    '',
    'HOL delay of a request = decode time − arrival of its own bytes; cumulative = its sum over a story. Ratio = bytes sent (blocks; sections +'
      + ' encoder stream) / bytes of names and values. Peak buffer = most compressed bytes held at once that had arrived but could not be decoded'
      + ' (blocked blocks or sections, encoder-stream chunks behind a lost one).',
    '',
    'A rerun gives the same figures, except that QPACK with 0 blocked streams moves by up to 0.2% in ratio (and its packet draws with it):'
      + ' our QPACK encoder seeds its reverse-index hash with its own address (against collision flooding), and the 256-slot memory that'
      + ' decides its speculative inserts ("seen before") collides differently from one encoder to the next.',
  ].join('\n');
}

function seedTable(section) {
  const get = lookup(section);
  return table([{ title: `seed (${SEED.source})` }, { title: 'seed figure' }, { title: 'ours' }, { title: 'why they differ' }],
    FIGURES.map((f) => [f.claim, f.seed, oursOrNotRun(f, get), f.why]));
}

function pointTable(section, schemes) {
  const rows = [];
  for (const p of section.points) {
    for (const s of schemes) {
      const r = p.schemes[s.id];
      rows.push([`${p.rttMs} ms`, pct(p.loss), s.label, r.perRequest.mean, r.perRequest.p95, r.perRequest.max,
        Math.round(r.cumulative.mean), Math.round(r.cumulative.p95), Math.round(r.cumulative.max),
        `${Math.round(r.zeroRuns * 100)}%`, r.ratio.toFixed(3), r.peakBuffered.median, r.peakBuffered.max]);
    }
  }
  return table([
    { title: 'RTT' }, right('loss'), { title: 'scheme' },
    right('per request mean ms'), right('p95'), right('max'),
    right('cumulative per story mean ms'), right('p95'), right('max'),
    right('runs without HOL'), right('ratio'), right('peak buffer median B'), right('max B'),
  ], rows);
}

function delayChart(section, rttMs) {
  const points = section.points.filter((p) => p.rttMs === rttMs);
  return groupedBarChart({
    title: `Mean HOL delay per request, RTT ${rttMs} ms (whiskers: 0 – p95)`,
    yLabel: 'ms per request',
    xLabel: 'packet loss',
    categories: points.map((p) => pct(p.loss)),
    series: section.schemes.map((s) => ({
      name: s.label,
      values: points.map((p) => ({ value: p.schemes[s.id].perRequest.mean, min: 0, max: p.schemes[s.id].perRequest.p95 })),
    })),
  });
}

function byRttChart(section, loss, { title: chartTitle, yLabel, value, format }) {
  const points = section.points.filter((p) => p.loss === loss);
  return groupedBarChart({
    title: chartTitle,
    yLabel,
    xLabel: 'RTT',
    categories: points.map((p) => `${p.rttMs} ms`),
    series: section.schemes.map((s) => ({ name: s.label, values: points.map((p) => ({ value: value(p.schemes[s.id]) })) })),
    format,
  });
}

function charts(section) {
  const out = {};
  for (const rtt of section.rtts) out[`hol-delay-${rtt}ms.svg`] = delayChart(section, rtt);
  const loss = section.losses.includes(0.02) ? 0.02 : section.losses[section.losses.length - 1];
  out['hol-ratio.svg'] = byRttChart(section, loss, {
    title: `Compression ratio at ${pct(loss)} loss (wire / name+value bytes, lower is better)`,
    yLabel: 'ratio',
    value: (r) => r.ratio,
    format: (n) => n.toFixed(2),
  });
  out['hol-buffer.svg'] = byRttChart(section, loss, {
    title: `Decoder's peak buffered bytes at ${pct(loss)} loss (max over runs)`,
    yLabel: 'bytes',
    value: (r) => r.peakBuffered.max,
  });
  return out;
}

// The whole page: model, comparison with the seed, every grid point, charts.
function renderPage(section, { chartsHref }) {
  const rendered = charts(section);
  const img = (name, alt) => `![${alt}](${chartsHref}/${name})`;
  const md = [
    `# ${title}`,
    '',
    `Generated by \`${section.command}\` on ${section.finishedAt}; data in the results JSON (section \`hol\`). Do not edit by hand.`,
    '',
    '## Model',
    '',
    modelText(section),
    '',
    '## Beside the seed\'s figures',
    '',
    seedTable(section),
    '',
    '## Where the model is simplistic',
    '',
    CAVEATS.map((c) => `- ${c}`).join('\n'),
    '',
    '## Charts',
    '',
    ...section.rtts.map((rtt) => img(`hol-delay-${rtt}ms.svg`, `mean HOL delay per request at ${rtt} ms`)),
    img('hol-ratio.svg', 'compression ratio by RTT'),
    img('hol-buffer.svg', 'decoder peak buffer by RTT'),
    '',
    '## Every grid point',
    '',
    pointTable(section, section.schemes),
  ];
  return { markdown: `${md.join('\n')}\n`, charts: rendered };
}

// README section: the comparison with the seed and a link to the full page.
function renderSection(section, { chartsHref }) {
  const headline = section.rtts.includes(200) ? 200 : section.rtts[0];
  const md = [
    `Simulated with the seed's network model (RTT/2 one way, lost packets 1.1–2 RTT late, acknowledgments over the same link); `
      + `${section.stories} stories × ${section.rtts.length} RTTs × ${section.losses.length} loss rates × ${section.seeds} seeds. `
      + `Model, every grid point and all charts: [${PAGE}](${PAGE}).`,
    '',
    seedTable(section),
    '',
    `![mean HOL delay per request at ${headline} ms](${chartsHref}/hol-delay-${headline}ms.svg)`,
  ];
  return { markdown: `${md.join('\n')}\n`, charts: charts(section) };
}

module.exports = { title, renderSection, renderPage, renderSeedTable: seedTable, PAGE };
