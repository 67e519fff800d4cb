'use strict';
// server/metrics/recorder.js: what each finished response, connection, drop and scrape adds to
// the rendered metrics, exactly.

const test = require('node:test');
const assert = require('node:assert/strict');
const { EventEmitter } = require('node:events');
const { Recorder, NO_METRICS, DURATION_BUCKETS } = require('../../server/metrics/recorder');

const STATS = {
  compressCache: { hits: 0, misses: 0 },
  compressionSlots: { acquired: {}, heldMs: {} },
};

// The rendered samples that are not 0, histogram lines left out.
function nonZero(recorder) {
  return recorder.render().split('\n').filter((l) => l !== '' && !l.startsWith('#') && !l.endsWith(' 0') && !l.startsWith('negotiate_request_duration'));
}

// A descriptor as the core makes them (decision/representation.js).
function d(status, coding, { source = null, identitySize = null, reason = null } = {}) {
  return { status, headers: {}, h2: null, body: null, coding, source, identitySize, reason };
}

const CASES = [
  ['a complete 200 compressed on the fly: sent, saved against identity, a variant miss',
    'h2', d(200, 'br', { source: 'dynamic', identitySize: 1000 }), false, null, 300,
    ['negotiate_responses_total{status="2xx",protocol="h2",coding="br"} 1', 'negotiate_sent_bytes_total{coding="br"} 300',
      'negotiate_saved_bytes_total{coding="br"} 700', 'negotiate_variant_responses_total{result="miss"} 1']],
  ['a precompressed variant over HTTP/1.1: a variant hit',
    'h1', d(200, 'gzip', { source: 'precompressed', identitySize: 500 }), false, null, 100,
    ['negotiate_responses_total{status="2xx",protocol="h1",coding="gzip"} 1', 'negotiate_sent_bytes_total{coding="gzip"} 100',
      'negotiate_saved_bytes_total{coding="gzip"} 400', 'negotiate_variant_responses_total{result="hit"} 1']],
  ['identity: sent, nothing saved, no variant',
    'h2', d(200, 'identity', { source: 'identity', identitySize: 80 }), false, null, 80,
    ['negotiate_responses_total{status="2xx",protocol="h2",coding="identity"} 1', 'negotiate_sent_bytes_total{coding="identity"} 80']],
  ['HEAD: counted, nothing saved',
    'h2', d(200, 'br', { source: 'dynamic', identitySize: 1000 }), true, null, 0,
    ['negotiate_responses_total{status="2xx",protocol="h2",coding="br"} 1']],
  ['a response cut short: its bytes, nothing saved',
    'h2', d(200, 'zstd', { source: 'dynamic', identitySize: 1000 }), false, 'aborted', 50,
    ['negotiate_responses_total{status="2xx",protocol="h2",coding="zstd"} 1', 'negotiate_sent_bytes_total{coding="zstd"} 50']],
  ['a dictionary delta: a delta of its coding, saved against identity',
    'h2', d(200, 'dcz', { source: 'dictionary', identitySize: 1000 }), false, null, 40,
    ['negotiate_responses_total{status="2xx",protocol="h2",coding="dcz"} 1', 'negotiate_sent_bytes_total{coding="dcz"} 40',
      'negotiate_saved_bytes_total{coding="dcz"} 960', 'negotiate_dictionary_deltas_total{coding="dcz"} 1']],
  ['a range of a delta (no source, as partial() makes it): a delta, nothing saved',
    'h1', d(206, 'dcb'), false, null, 10,
    ['negotiate_responses_total{status="2xx",protocol="h1",coding="dcb"} 1', 'negotiate_sent_bytes_total{coding="dcb"} 10',
      'negotiate_dictionary_deltas_total{coding="dcb"} 1']],
  ['a 304 of a br representation', 'h2', d(304, 'br', { source: 'dynamic', identitySize: 1000 }), false, null, 0,
    ['negotiate_responses_total{status="3xx",protocol="h2",coding="br"} 1']],
  ['a 304 of a delta is no delta sent', 'h2', d(304, 'dcb', { source: 'dictionary', identitySize: 1000 }), false, null, 0,
    ['negotiate_responses_total{status="3xx",protocol="h2",coding="dcb"} 1']],
  ['HEAD of a delta is no delta sent', 'h2', d(200, 'dcz', { source: 'dictionary', identitySize: 1000 }), true, null, 0,
    ['negotiate_responses_total{status="2xx",protocol="h2",coding="dcz"} 1']],
  ['a 404 refusal with its reason', 'h2', d(404, null, { reason: 'ERR_NOT_FOUND' }), false, null, 10,
    ['negotiate_responses_total{status="4xx",protocol="h2",coding="none"} 1', 'negotiate_sent_bytes_total{coding="none"} 10',
      'negotiate_refusals_total{status="404",reason="ERR_NOT_FOUND"} 1']],
  ['a 406 without a reason is "other"', 'h1', d(406, null), false, null, 5,
    ['negotiate_responses_total{status="4xx",protocol="h1",coding="none"} 1', 'negotiate_sent_bytes_total{coding="none"} 5',
      'negotiate_refusals_total{status="406",reason="other"} 1']],
  ['a 500 is no refusal', 'h2', d(500, null), false, null, 0, ['negotiate_responses_total{status="5xx",protocol="h2",coding="none"} 1']],
  ['a coding outside the list is "other"', 'h2', d(200, 'x-new'), false, null, 3,
    ['negotiate_responses_total{status="2xx",protocol="h2",coding="other"} 1', 'negotiate_sent_bytes_total{coding="other"} 3']],
];

for (const [what, protocol, desc, isHead, outcome, sent, lines] of CASES) {
  test(what, () => {
    const recorder = new Recorder(() => STATS, { now: () => 0 });
    recorder[protocol].finished(desc, isHead, outcome, sent, 0);
    assert.deepEqual(nonZero(recorder), lines);
  });
}

test('the duration goes in its bucket, by protocol', () => {
  let now = 0;
  const recorder = new Recorder(() => STATS, { now: () => now });
  now = 30; // ms after startedAt 0: 0.03 s, in le="0.05"
  recorder.h1.finished(d(200, 'identity'), false, null, 1, 0);
  const lines = recorder.render().split('\n').filter((l) => l.startsWith('negotiate_request_duration_seconds') && l.includes('"h1"'));
  assert.deepEqual(lines, [
    ...DURATION_BUCKETS.map((b) => `negotiate_request_duration_seconds_bucket{protocol="h1",le="${b}"} ${b >= 0.03 ? 1 : 0}`),
    'negotiate_request_duration_seconds_bucket{protocol="h1",le="+Inf"} 1',
    'negotiate_request_duration_seconds_sum{protocol="h1"} 0.03',
    'negotiate_request_duration_seconds_count{protocol="h1"} 1',
  ]);
});

test('open streams go up and down; connections are open until their socket closes; drops and floods are counted', () => {
  const recorder = new Recorder(() => STATS);
  const h2 = Object.assign(new EventEmitter(), { alpnProtocol: 'h2' });
  const plain = Object.assign(new EventEmitter(), { alpnProtocol: undefined });
  recorder.connectionOpened(h2);
  recorder.connectionOpened(plain);
  recorder.h2.opened();
  recorder.h2.opened();
  recorder.h2.closed();
  recorder.handshakeDropped('deadline');
  recorder.handshakeDropped('over_cap');
  recorder.handshakeDropped('over_cap');
  recorder.h2.floodClosed();
  recorder.qpackEncoded(40, 25, 120);
  recorder.qpackEncoded(6, 0, 118);
  assert.deepEqual(nonZero(recorder), [
    'negotiate_open_connections{protocol="h1"} 1', 'negotiate_open_connections{protocol="h2"} 1', 'negotiate_open_streams{protocol="h2"} 1',
    'negotiate_handshake_drops_total{reason="deadline"} 1', 'negotiate_handshake_drops_total{reason="over_cap"} 2',
    'negotiate_flood_closes_total{protocol="h2"} 1',
    'negotiate_qpack_encoded_bytes_total{stream="request"} 46', 'negotiate_qpack_encoded_bytes_total{stream="encoder"} 25',
    'negotiate_qpack_sections_total{direction="response"} 2', 'negotiate_qpack_field_bytes_total{direction="response"} 238',
  ]);
  plain.emit('close');
  assert.match(recorder.render(), /^negotiate_open_connections\{protocol="h1"\} 0$/m);
});

test('a QPACK decoder meter counts sections, octets, fields, and how long and how much waited for inserts', () => {
  let now = 1000;
  const recorder = new Recorder(() => STATS, { now: () => now });
  const one = recorder.qpackDecoder();
  const two = recorder.qpackDecoder();
  one.section(0, 30, [[':method', 'GET'], [':path', '/index.html']]);
  one.section(4, 12, null);
  now += 20;
  one.section(8, 9, null);
  two.section(0, 40, null);
  one.cancelled(12); // a stream with nothing waiting
  now += 5;
  one.encoderStream(50, [{ streamId: 4, headers: [['a', 'bc']] }]);
  one.encoderStream(7, []);
  now += 250;
  one.cancelled(8);
  two.encoderStream(3, [{ streamId: 0, headers: [['x-long', 'v'.repeat(100)]] }]);
  // At most 21 octets held at once on the first connection (then 35), 40 on the second: the mark is 40.
  one.section(16, 35, null);
  assert.deepEqual(nonZero(recorder), [
    'negotiate_qpack_decoded_bytes_total{stream="request"} 126', 'negotiate_qpack_decoded_bytes_total{stream="encoder"} 60',
    'negotiate_qpack_sections_total{direction="request"} 5', 'negotiate_qpack_field_bytes_total{direction="request"} 135',
    'negotiate_qpack_blocked_sections_total 4', 'negotiate_qpack_blocked_seconds_total 0.28',
    'negotiate_qpack_blocked_bytes_max 40',
  ]);
  one.section(20, 6, null);
  assert.ok(nonZero(recorder).includes('negotiate_qpack_blocked_bytes_max 41'), 'the first connection now holds 35 + 6');
});

test('the compression cache and budget are read from the core\'s stats at each scrape', () => {
  const stats = { compressCache: { hits: 5, misses: 2 }, compressionSlots: { acquired: { cache: 2, stream: 1 }, heldMs: { cache: 1500, stream: 250 } } };
  const recorder = new Recorder(() => stats);
  assert.deepEqual(nonZero(recorder), [
    'negotiate_compress_cache_requests_total{result="hit"} 5', 'negotiate_compress_cache_requests_total{result="miss"} 2',
    'negotiate_compressions_total{use="cache"} 2', 'negotiate_compressions_total{use="stream"} 1',
    'negotiate_compression_slot_seconds_total{use="cache"} 1.5', 'negotiate_compression_slot_seconds_total{use="stream"} 0.25',
  ]);
  stats.compressCache.hits = 6;
  assert.ok(nonZero(recorder).includes('negotiate_compress_cache_requests_total{result="hit"} 6'));
});

test('NO_METRICS has every hook, each doing nothing', () => {
  const socket = new EventEmitter();
  NO_METRICS.connectionOpened(socket);
  NO_METRICS.handshakeDropped('deadline');
  NO_METRICS.qpackEncoded(40, 25, 120);
  const decoder = NO_METRICS.qpackDecoder();
  decoder.section(4, 10, null);
  decoder.encoderStream(5, [{ streamId: 4, headers: [] }]);
  decoder.cancelled(4);
  for (const meter of [NO_METRICS.h1, NO_METRICS.h2]) {
    meter.opened();
    meter.closed();
    meter.finished(d(200, 'br'), false, null, 1, 0);
    meter.floodClosed();
  }
  assert.equal(socket.listenerCount('close'), 0);
});
