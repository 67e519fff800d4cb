'use strict';
// QpackEncoder / QpackDecoder: the Node API over the C core, with both streams
// exchanged by hand so blocking, acknowledgments and eviction rules show.
const test = require('node:test');
const assert = require('node:assert');
const { QpackEncoder, QpackDecoder } = require('../../native');
const addon = require('../../native/js/addon');

const REQUEST = [
  [':method', 'GET'],
  [':scheme', 'https'],
  [':authority', 'example.com'],
  [':path', '/index.html'],
  ['user-agent', 'test-agent/1.0'],
  ['x-bytes', '\xff\x80\x00caf\xc3\xa9'],
];

test('encode reports the name and value octets it encoded, one per field of an array value', () => {
  const enc = new QpackEncoder();
  assert.strictEqual(enc.encode(0, REQUEST).fieldBytes, 7 + 3 + 7 + 5 + 10 + 11 + 5 + 11 + 10 + 14 + 7 + 8);
  assert.strictEqual(enc.encode(4, { 'Content-Type': 'text/html', 'set-cookie': ['a=1', 'b=22'], ':status': 200 }).fieldBytes, 12 + 9 + 10 + 3 + 10 + 4 + 7 + 3);
});

test('a field section round-trips, later ones reference the dynamic table', () => {
  const enc = new QpackEncoder({ maxTableCapacity: 4096, maxBlockedStreams: 100 });
  const dec = new QpackDecoder({ maxTableCapacity: 4096, maxBlockedStreams: 100 });
  const sizes = [];
  for (const streamId of [0, 4, 8]) {
    const { section, encoderStream } = enc.encode(streamId, REQUEST);
    assert.deepStrictEqual(dec.feedEncoder(encoderStream), []);
    assert.deepStrictEqual(dec.decode(streamId, section), REQUEST);
    enc.feedDecoder(dec.readDecoderStream());
    sizes.push(section.length + encoderStream.length);
  }
  assert.ok(sizes[1] < sizes[0] / 2, `second section ${sizes[1]} bytes, first ${sizes[0]}`);
  assert.strictEqual(enc.blockedStreams, 0);
  assert.strictEqual(enc.knownReceivedCount, enc.insertCount);
});

// A static file's response, the same each time (or, `fresh`, with an etag and a length of its own
// each time, as one-off files give), through one connection with every section acknowledged.
const fileResponse = (i, fresh) => [
  [':status', '200'], ['content-type', 'text/html; charset=utf-8'], ['content-encoding', 'br'], ['vary', 'accept-encoding'],
  ['etag', fresh ? `"${(0x1000 + i).toString(16)}-661483394abc7-br"` : '"c3e-661483394abc7-br"'],
  ['last-modified', 'Fri, 27 Nov 2026 10:00:00 GMT'], ['content-length', fresh ? String(700 + i) : '779'],
  ['date', 'Sat, 28 Nov 2026 04:10:00 GMT'],
];

// [case, options, fresh, section bytes of the 1st, 5th and 12th response, inserts after 12]
const LEARNING = [
  // The etag repeats: learnt, it is inserted and referenced; the fixed rule keeps it literal.
  ['a repeated file, learning (default)', {}, false, [14, 14, 14], 3],
  ['a repeated file, the fixed rule', { learnRepeats: false }, false, [32, 32, 32], 2],
  // Etags that never come back: after 4 inserts without a hit, learning stops inserting them.
  ['a new etag each time, learning', {}, true, [13, 33, 32], 6],
  ['a new etag each time, the fixed rule', { learnRepeats: false }, true, [32, 33, 32], 2],
];

for (const [what, options, fresh, sizes, inserts] of LEARNING) {
  test(`the encoder learns which fields repeat, as HPACK's does: ${what}`, () => {
    const enc = new QpackEncoder({ maxTableCapacity: 4096, maxBlockedStreams: 100, ...options });
    const dec = new QpackDecoder({ maxTableCapacity: 4096, maxBlockedStreams: 100 });
    const seen = [];
    for (let i = 0; i < 12; i++) {
      const fields = fileResponse(i, fresh);
      const { section, encoderStream } = enc.encode(4 * i, fields);
      dec.feedEncoder(encoderStream);
      assert.deepStrictEqual(dec.decode(4 * i, section), fields);
      enc.feedDecoder(dec.readDecoderStream());
      seen.push(section.length);
    }
    assert.deepStrictEqual([seen[0], seen[4], seen[11]], sizes);
    assert.strictEqual(enc.insertCount, inserts);
  });
}

test('a section that arrives before its inserts waits and comes out of feedEncoder', () => {
  const enc = new QpackEncoder({ maxTableCapacity: 4096, maxBlockedStreams: 2 });
  const dec = new QpackDecoder({ maxTableCapacity: 4096, maxBlockedStreams: 2 });
  const a = enc.encode(4, REQUEST);
  const b = enc.encode(8, [...REQUEST, ['x-more', 'yes']]);
  assert.strictEqual(enc.blockedStreams, 2);
  assert.strictEqual(dec.decode(8, b.section), null);
  assert.strictEqual(dec.decode(4, a.section), null);
  const out = dec.feedEncoder(Buffer.concat([a.encoderStream, b.encoderStream]));
  assert.deepStrictEqual(out, [
    { streamId: 8, headers: [...REQUEST, ['x-more', 'yes']] },
    { streamId: 4, headers: REQUEST },
  ]);
  // Two Section Acknowledgments: streams 8 and 4.
  const acks = dec.readDecoderStream();
  assert.deepStrictEqual([...acks], [0x88, 0x84]);
  enc.feedDecoder(acks);
  assert.strictEqual(enc.blockedStreams, 0);
});

test('the encoder blocks no more streams than SETTINGS_QPACK_BLOCKED_STREAMS allows', () => {
  const enc = new QpackEncoder({ maxTableCapacity: 4096, maxBlockedStreams: 1 });
  const first = enc.encode(4, REQUEST);
  assert.notStrictEqual(first.section[0], 0, 'the first section references its inserts');
  // The entries are not acknowledged: a second stream may not reference them.
  const second = enc.encode(8, REQUEST);
  assert.strictEqual(second.section[0], 0, 'Required Insert Count 0');
  assert.strictEqual(enc.blockedStreams, 1);
  const none = new QpackEncoder({ maxTableCapacity: 4096, maxBlockedStreams: 0 });
  for (const id of [0, 4, 8]) assert.strictEqual(none.encode(id, REQUEST).section[0], 0);
});

test('the encoder never evicts an entry an unacknowledged section references', () => {
  // Room for about two entries: the second stream's fields would evict the first's.
  const enc = new QpackEncoder({ maxTableCapacity: 128, maxBlockedStreams: 10 });
  const dec = new QpackDecoder({ maxTableCapacity: 128, maxBlockedStreams: 10 });
  const first = enc.encode(4, [['x-one', 'aaaaaaaaaaaaaaaaaaaa']]);
  const second = enc.encode(8, [['x-two', 'bbbbbbbbbbbbbbbbbbbb'], ['x-three', 'cccccccccccccccccccc']]);
  const third = enc.encode(12, [['x-four', 'dddddddddddddddddddd']]);
  dec.feedEncoder(Buffer.concat([first.encoderStream, second.encoderStream, third.encoderStream]));
  // Had x-one been evicted, decoding stream 4 now would fail with QPACK_DECOMPRESSION_FAILED.
  assert.deepStrictEqual(dec.decode(4, first.section), [['x-one', 'aaaaaaaaaaaaaaaaaaaa']]);
  assert.deepStrictEqual(dec.decode(8, second.section), [['x-two', 'bbbbbbbbbbbbbbbbbbbb'], ['x-three', 'cccccccccccccccccccc']]);
  assert.deepStrictEqual(dec.decode(12, third.section), [['x-four', 'dddddddddddddddddddd']]);
});

test('sensitive fields and credentials are never inserted and go out as never-indexed literals', () => {
  const enc = new QpackEncoder({ maxTableCapacity: 4096, maxBlockedStreams: 100, sensitive: ['x-secret'], huffman: false });
  const fields = [['x-secret', 'hunter2-hunter2'], ['authorization', 'Bearer abcdefghij']];
  for (const id of [0, 4]) {
    const { section, encoderStream } = enc.encode(id, fields);
    assert.strictEqual(encoderStream.length, 0);
    assert.ok(section.includes('hunter2-hunter2') && section.includes('Bearer abcdefghij'));
    // x-secret: literal name with N (001N H...); authorization: static name reference 84 with N (01NT).
    assert.strictEqual(section[2] & 0xf0, 0x30);
    const auth = section.indexOf('Bearer') - 3; // 0x7f 0x45 (84 in a 4-bit prefix), length
    assert.strictEqual(section[auth] & 0xf0, 0x70);
  }
  assert.strictEqual(enc.insertCount, 0);
});

test('RFC 9204 section 6 errors carry their codes; the decoder is poisoned after one', () => {
  const dec = new QpackDecoder({ maxTableCapacity: 220, maxBlockedStreams: 1 });
  assert.throws(() => dec.decode(0, Buffer.from([0x00, 0x00, 0xff, 0x24])), {
    code: 'ERR_QPACK_DECOMPRESSION_FAILED', h3Code: 0x200, message: /static index past the table/,
  });
  assert.throws(() => dec.decode(4, Buffer.from([0x00, 0x00, 0xd1])), { code: 'ERR_QPACK_POISONED' });
  const dec2 = new QpackDecoder({ maxTableCapacity: 220 });
  assert.throws(() => dec2.feedEncoder(Buffer.from([0x3f, 0xbe, 0x01])), {
    code: 'ERR_QPACK_ENCODER_STREAM_ERROR', h3Code: 0x201,
  });
  const enc = new QpackEncoder({ maxTableCapacity: 220 });
  assert.throws(() => enc.feedDecoder(Buffer.from([0x84])), { code: 'ERR_QPACK_DECODER_STREAM_ERROR', h3Code: 0x202 });
  // A section over the size limit is a stream error: the decoder goes on.
  const small = new QpackDecoder({ maxFieldSectionSize: 40 });
  assert.throws(() => small.decode(0, Buffer.from([0, 0, 0xc1, 0xc1])), { code: 'ERR_QPACK_FIELD_SECTION_TOO_LARGE' });
  assert.deepStrictEqual(small.decode(4, Buffer.from([0, 0, 0xc1])), [[':path', '/']]);
});

test('cancelStream drops a waiting section and sends Stream Cancellation', () => {
  const enc = new QpackEncoder({ maxTableCapacity: 4096, maxBlockedStreams: 10 });
  const dec = new QpackDecoder({ maxTableCapacity: 4096, maxBlockedStreams: 10 });
  const { section, encoderStream } = enc.encode(4, REQUEST);
  assert.strictEqual(dec.decode(4, section), null);
  dec.cancelStream(4);
  assert.deepStrictEqual(dec.feedEncoder(encoderStream), []);
  const out = dec.readDecoderStream();
  assert.strictEqual(out[0], 0x44); // Stream Cancellation, stream 4
  enc.feedDecoder(out);
  assert.strictEqual(enc.blockedStreams, 0);
});

test('arguments are checked with ERR_QPACK_INVALID_ARGUMENT', () => {
  const enc = new QpackEncoder({ maxTableCapacity: 100 });
  const dec = new QpackDecoder();
  const cases = [
    [() => enc.encode(-1, REQUEST), RangeError],
    [() => enc.encode(2 ** 32, REQUEST), RangeError],
    [() => enc.encode(0, [['x', 'caf\u00e9\u20ac']]), TypeError],
    [() => enc.encode(0, 'x: y'), TypeError],
    [() => new QpackEncoder({ maxTableCapacity: 100, tableCapacity: 200 }), RangeError],
    [() => dec.decode(0, 'not bytes'), TypeError],
    [() => dec.feedEncoder(null), TypeError],
    // The addon's own checks, below the JS ones.
    [() => addon.QpackEncoder(0, 0, 0, 0), TypeError],
    [() => new addon.QpackEncoder(100, 200, 0, 0), RangeError],
    [() => new addon.QpackDecoder(2 ** 24 + 1, 0, 0, 0, 0), RangeError],
    [() => new addon.QpackEncoder(0, 0, 0, 0).encode(0, 'ab', new Int32Array([1, 2, 0]), 1, Buffer.alloc(64), 0), RangeError],
    [() => new addon.QpackDecoder(0, 0, 0, 0, 0).readDecoderStream(Buffer.alloc(8), 9), RangeError],
  ];
  for (const [fn, type] of cases) assert.throws(fn, (err) => err instanceof type && err.code === 'ERR_QPACK_INVALID_ARGUMENT');
});

// As for HPACK (test/unit/hpack-latin1.test.js): a code unit above 0xFF has no byte,
// and cutting it to its low byte would turn U+010D U+010A into CR LF.
const NOT_LATIN1 = [
  ['U+010D U+010A in a value', [['x-a', 'ok\u010d\u010aset-cookie: evil']], 'field 0 value has U+010D'],
  ['dotted capital I in a name', [['x-ok', '1'], ['\u0130stanbul', 'city']], 'field 1 name has U+0307'],
  ['emoji in a value', { ':path': '/', 'x-mood': '\u{1f600}' }, 'field 1 value has U+D83D'],
];

for (const [what, headers, message] of NOT_LATIN1) {
  test(`encode refuses ${what} and leaves the encoder as it was`, () => {
    const enc = new QpackEncoder({ maxTableCapacity: 4096, maxBlockedStreams: 10 });
    const dec = new QpackDecoder({ maxTableCapacity: 4096, maxBlockedStreams: 10 });
    const first = enc.encode(0, [['x-before', 'indexed-value']]);
    dec.feedEncoder(first.encoderStream);
    assert.deepStrictEqual(dec.decode(0, first.section), [['x-before', 'indexed-value']]);
    const before = [enc.insertCount, enc.blockedStreams];
    assert.throws(() => enc.encode(4, headers), (err) =>
      err instanceof TypeError && err.code === 'ERR_QPACK_INVALID_ARGUMENT' && err.message.startsWith(message));
    assert.deepStrictEqual([enc.insertCount, enc.blockedStreams], before);
    const next = [['x-before', 'indexed-value'], ['x-after', 'latin1 \xff \xe9']];
    const { section, encoderStream } = enc.encode(8, next);
    dec.feedEncoder(encoderStream);
    assert.deepStrictEqual(dec.decode(8, section), next);
  });
}

test("a value's toString that encodes another section yields two sections the peer decodes", () => {
  const enc = new QpackEncoder({ maxTableCapacity: 4096, maxBlockedStreams: 10 });
  const dec = new QpackDecoder({ maxTableCapacity: 4096, maxBlockedStreams: 10 });
  let inner;
  const value = { toString: () => ((inner = enc.encode(4, [['x-inner', 'i']])), 'outer') };
  const outer = enc.encode(8, [['x-outer', value]]);
  assert.deepStrictEqual(dec.feedEncoder(Buffer.concat([inner.encoderStream, outer.encoderStream])), []);
  assert.deepStrictEqual(dec.decode(4, inner.section), [['x-inner', 'i']]);
  assert.deepStrictEqual(dec.decode(8, outer.section), [['x-outer', 'outer']]);
});

test('a section or encoder stream larger than half the output slab gets its own memory', () => {
  const opts = { maxTableCapacity: 65536, maxBlockedStreams: 10 };
  const enc = new QpackEncoder({ ...opts, huffman: false, sensitive: ['x-secret'] });
  const dec = new QpackDecoder(opts);
  const fields = [
    [['x-big', 'v'.repeat(20000)]], // inserted: a large encoder stream
    [['x-secret', 's'.repeat(20000)]], // never inserted: a large section
    [[':method', 'GET']],
  ];
  const out = fields.map((headers, i) => enc.encode(4 * i, headers));
  const large = [out[0].encoderStream, out[1].section];
  assert.deepStrictEqual(large.map((b) => b.length > 20000 && b.buffer.byteLength === b.length), [true, true]);
  assert.strictEqual(out[2].section.buffer.byteLength, 8192); // native/js/slab.js
  for (const { encoderStream } of out) dec.feedEncoder(encoderStream);
  out.forEach(({ section }, i) => assert.deepStrictEqual(dec.decode(4 * i, section), fields[i]));
});
