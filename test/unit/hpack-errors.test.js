'use strict';
// Malformed blocks and bad arguments through the Node API: stable error codes, no crash.
const test = require('node:test');
const assert = require('node:assert');
const { huffman, Encoder, Decoder } = require('../../native');

const hex = (s) => Buffer.from(s.replace(/ /g, ''), 'hex');
const decodeFresh = (wire, options) => new Decoder(options).decode(hex(wire));
const fails = (fn, code, ErrorType = Error) => assert.throws(fn, (err) => err instanceof ErrorType && err.code === code);

test('each malformed class has its code', () => {
  fails(() => decodeFresh('80'), 'ERR_HPACK_INDEX');
  fails(() => decodeFresh('be'), 'ERR_HPACK_INDEX');
  fails(() => decodeFresh('7e 01 61'), 'ERR_HPACK_INDEX');
  fails(() => decodeFresh('ff ff ff ff ff 0f'), 'ERR_HPACK_INTEGER');
  fails(() => decodeFresh('82 41 0f 77 77'), 'ERR_HPACK_TRUNCATED');
  fails(() => decodeFresh('3f e2 1f'), 'ERR_HPACK_TABLE_SIZE');
  fails(() => decodeFresh('82 20'), 'ERR_HPACK_TABLE_SIZE');
  fails(() => decodeFresh('00 01 61 04 62 63 64 65', { maxStringLength: 3 }), 'ERR_HPACK_STRING_TOO_LONG');
  fails(() => decodeFresh('82 82', { maxHeaderListSize: 50 }), 'ERR_HPACK_HEADER_LIST_TOO_LARGE');
  fails(() => decodeFresh('00 81 ff 01 61'), 'ERR_HPACK_HUFFMAN');
  fails(() => huffman.decode(Buffer.from([0x00])), 'ERR_HPACK_HUFFMAN');
});

test('a cut of a valid block decodes exactly the fields before it when it falls between fields, else is truncated', () => {
  const fields = [[':method', 'GET'], ['x-long', 'v'.repeat(300)], ['user-agent', 'node']];
  const block = new Encoder().encode(fields);
  // Where each field's representation ends: the same encoder state, one field a block.
  const perField = new Encoder();
  const ends = [];
  let at = 0;
  for (const field of fields) ends.push((at += perField.encode([field]).length));
  assert.strictEqual(at, block.length);
  for (let cut = 0; cut < block.length; cut++) {
    const whole = cut === 0 ? 0 : ends.indexOf(cut) + 1;
    if (whole > 0 || cut === 0) {
      assert.deepStrictEqual(new Decoder().decode(block.subarray(0, cut)), fields.slice(0, whole), `cut at ${cut}`);
    } else {
      fails(() => new Decoder().decode(block.subarray(0, cut)), 'ERR_HPACK_TRUNCATED');
    }
  }
});

test('a decoder that failed stays poisoned', () => {
  const decoder = new Decoder();
  assert.deepStrictEqual(decoder.decode(hex('82')), [[':method', 'GET']]);
  fails(() => decoder.decode(hex('80')), 'ERR_HPACK_INDEX');
  fails(() => decoder.decode(hex('82')), 'ERR_HPACK_POISONED');
});

test('bad arguments are TypeError / RangeError with a code', () => {
  const code = 'ERR_HPACK_INVALID_ARGUMENT';
  fails(() => new Encoder({ indexing: 'dynamic' }), code, RangeError);
  fails(() => new Encoder({ tableSize: -1 }), code, RangeError);
  fails(() => new Encoder({ tableSize: '4096' }), code, TypeError);
  fails(() => new Encoder({ sensitive: 'cookie' }), code, TypeError);
  fails(() => new Encoder('linear'), code, TypeError);
  fails(() => new Encoder().encode('x: 1'), code, TypeError);
  fails(() => new Encoder().encode([['x']]), code, TypeError);
  fails(() => new Encoder().encode({ x: undefined }), code, TypeError);
  fails(() => new Encoder().setTableSize(2 ** 40), code, RangeError);
  fails(() => new Decoder({ maxHeaderListSize: 1.5 }), code, RangeError);
  fails(() => new Decoder().decode('82'), code, TypeError);
  fails(() => new Decoder().setTableSize(NaN), code, RangeError);
  fails(() => huffman.encode(42), code, TypeError);
});

test('random bytes never crash the decoder: an error has an HPACK code, a success is string pairs the encoder round-trips', () => {
  let seed = 1;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
  let decoded = 0;
  for (let i = 0; i < 2000; i++) {
    const block = Buffer.alloc(1 + (next() % 40), 0).map(next);
    let fields;
    try {
      fields = new Decoder().decode(block);
    } catch (err) {
      assert.match(err.code, /^ERR_HPACK_/);
      continue;
    }
    decoded++;
    assert.ok(fields.every((f) => f.length === 2 && typeof f[0] === 'string' && typeof f[1] === 'string'), block.toString('hex'));
    assert.deepStrictEqual(new Decoder().decode(new Encoder().encode(fields)), fields, block.toString('hex'));
  }
  assert.ok(decoded > 0 && decoded < 2000, `${decoded} of 2000 random blocks decoded`);
});
