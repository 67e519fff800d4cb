'use strict';
// server/metrics/registry.js: families, cells made once, histogram buckets, scrape hooks, and
// the names Prometheus refuses.

const test = require('node:test');
const assert = require('node:assert/strict');
const { Registry } = require('../../server/metrics/registry');

test('a cell is made once per label values and changed in place', () => {
  const r = new Registry();
  const c = r.counter('hits_total', 'Hits.', ['result']);
  const hit = c.cell('hit');
  assert.equal(c.cell('hit'), hit);
  hit.value += 2;
  c.cell('miss').value++;
  const g = r.gauge('open', 'Open.');
  g.cell().value = 5;
  g.cell().value--;
  assert.equal(r.render(), [
    '# HELP hits_total Hits.', '# TYPE hits_total counter', 'hits_total{result="hit"} 2', 'hits_total{result="miss"} 1',
    '# HELP open Open.', '# TYPE open gauge', 'open 4', '',
  ].join('\n'));
});

for (const [value, bucket] of [[0, 0], [0.1, 0], [0.10001, 1], [1, 1], [1.5, 2], [1e9, 2]]) {
  test(`an observation of ${value} falls in bucket ${bucket} of [0.1, 1] (le is inclusive)`, () => {
    const cell = new Registry().histogram('d_seconds', 'D.', [], [0.1, 1]).cell();
    cell.observe(value);
    assert.deepEqual({ counts: cell.counts, sum: cell.sum, count: cell.count }, { counts: [0, 1, 2].map((i) => Number(i === bucket)), sum: value, count: 1 });
  });
}

test('scrape hooks run before each render, in order', () => {
  const r = new Registry();
  const cell = r.counter('read_total', 'Read elsewhere.').cell();
  let source = 7;
  r.onScrape(() => { cell.value = source; });
  assert.match(r.render(), /^read_total 7$/m);
  source = 9;
  assert.match(r.render(), /^read_total 9$/m);
});

for (const [what, define, message] of [
  ['a counter without _total', (r) => r.counter('hits', 'H.'), /must end in _total/],
  ['a metric name with a dash', (r) => r.gauge('open-conns', 'O.'), /is not \[a-zA-Z_:\]/],
  ['a metric name starting with a digit', (r) => r.gauge('1x', 'O.'), /is not \[a-zA-Z_:\]/],
  ['a reserved label name', (r) => r.gauge('g', 'G.', ['__name']), /label name "__name"/],
  ['a label name with a dot', (r) => r.gauge('g', 'G.', ['a.b']), /label name "a.b"/],
  ['le on a histogram', (r) => r.histogram('h_seconds', 'H.', ['le'], [1]), /label name "le"/],
  ['decreasing buckets', (r) => r.histogram('h_seconds', 'H.', [], [1, 0.5]), /finite and increasing/],
  ['no buckets', (r) => r.histogram('h_seconds', 'H.', [], []), /finite and increasing/],
  ['an infinite bucket', (r) => r.histogram('h_seconds', 'H.', [], [Infinity]), /finite and increasing/],
  ['a name defined twice', (r) => { r.gauge('g', 'G.'); r.gauge('g', 'G.'); }, /defined twice/],
  ['too few label values', (r) => r.gauge('g', 'G.', ['a', 'b']).cell('x'), /2 label values expected, got 1/],
]) {
  test(`refused: ${what}`, () => {
    assert.throws(() => define(new Registry()), message);
  });
}
