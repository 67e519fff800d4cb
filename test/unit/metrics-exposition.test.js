'use strict';
// server/metrics/exposition.js: the Prometheus text format 0.0.4, escaping and values exactly.

const test = require('node:test');
const assert = require('node:assert/strict');
const { escapeLabelValue, escapeHelp, formatValue, labelPairs, render, CONTENT_TYPE } = require('../../server/metrics/exposition');

test('the content type names the format version', () => {
  assert.equal(CONTENT_TYPE, 'text/plain; version=0.0.4; charset=utf-8');
});

for (const [value, escaped] of [
  ['plain', 'plain'],
  ['a"b', 'a\\"b'],
  ['back\\slash', 'back\\\\slash'],
  ['two\nlines', 'two\\nlines'],
  ['\\"\n', '\\\\\\"\\n'],
  ['tab\there', 'tab\there'],
  ['é', 'é'],
  [404, '404'],
]) {
  test(`label value ${JSON.stringify(value)} is written ${JSON.stringify(escaped)}`, () => {
    assert.equal(escapeLabelValue(value), escaped);
  });
}

for (const [text, escaped] of [
  ['Bytes "saved"', 'Bytes "saved"'],
  ['a\\b', 'a\\\\b'],
  ['one\ntwo', 'one\\ntwo'],
]) {
  test(`HELP text ${JSON.stringify(text)} is written ${JSON.stringify(escaped)} (quotes stay)`, () => {
    assert.equal(escapeHelp(text), escaped);
  });
}

for (const [n, written] of [[0, '0'], [42, '42'], [0.25, '0.25'], [-1.5, '-1.5'], [NaN, 'NaN'], [Infinity, '+Inf'], [-Infinity, '-Inf'], [1e21, '1e+21']]) {
  test(`value ${n} is written ${written}`, () => {
    assert.equal(formatValue(n), written);
  });
}

test('label pairs keep the names\' order; no labels are empty', () => {
  assert.equal(labelPairs(['status', 'coding'], ['2xx', 'b"r']), 'status="2xx",coding="b\\"r"');
  assert.equal(labelPairs([], []), '');
});

test('families render HELP, TYPE and their series; histograms cumulative with +Inf, _sum and _count', () => {
  const text = render([
    { name: 'x_total', help: 'X.', type: 'counter', series: new Map([['a="1"', { labels: 'a="1"', value: 3 }], ['a="2"', { labels: 'a="2"', value: 0 }]]) },
    { name: 'g', help: 'G\nline', type: 'gauge', series: new Map([['', { labels: '', value: -2 }]]) },
    { name: 'empty_total', help: 'None yet.', type: 'counter', series: new Map() },
    { name: 'd_seconds', help: 'D.', type: 'histogram', bounds: [0.1, 1], series: new Map([['p="h2"', { labels: 'p="h2"', counts: [1, 2, 1], sum: 3.5, count: 4 }]]) },
    { name: 'u_seconds', help: 'U.', type: 'histogram', bounds: [1], series: new Map([['', { labels: '', counts: [0, 0], sum: 0, count: 0 }]]) },
  ]);
  assert.equal(text, [
    '# HELP x_total X.',
    '# TYPE x_total counter',
    'x_total{a="1"} 3',
    'x_total{a="2"} 0',
    '# HELP g G\\nline',
    '# TYPE g gauge',
    'g -2',
    '# HELP empty_total None yet.',
    '# TYPE empty_total counter',
    '# HELP d_seconds D.',
    '# TYPE d_seconds histogram',
    'd_seconds_bucket{p="h2",le="0.1"} 1',
    'd_seconds_bucket{p="h2",le="1"} 3',
    'd_seconds_bucket{p="h2",le="+Inf"} 4',
    'd_seconds_sum{p="h2"} 3.5',
    'd_seconds_count{p="h2"} 4',
    '# HELP u_seconds U.',
    '# TYPE u_seconds histogram',
    'u_seconds_bucket{le="1"} 0',
    'u_seconds_bucket{le="+Inf"} 0',
    'u_seconds_sum 0',
    'u_seconds_count 0',
    '',
  ].join('\n'));
});
