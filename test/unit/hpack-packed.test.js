'use strict';
// PackedHeaders and Encoder#encodeInto (native/index.js): a list packed once encodes as its
// fields do, into a caller's buffer; a block is copied rather than encoded again only while the
// encoder's state has not changed (hpack_encoder_changes), so it is always the block the encoder
// would write; close() frees the table.

const test = require('node:test');
const assert = require('node:assert/strict');
const { Encoder, Decoder, PackedHeaders } = require('../../native');

const A = [[':status', '200'], ['content-type', 'text/css'], ['etag', '"a-1"'], ['content-length', '12']];
const B = [[':status', '200'], ['content-type', 'text/javascript'], ['etag', '"b-2"'], ['content-length', '340']];
const C = [[':status', '404'], ['x-request', 'one-off']];
const LISTS = { A, B, C };

function into(enc, list) {
  const out = Buffer.alloc(512);
  const n = enc.encodeInto(list, out, 0);
  return out.subarray(0, n);
}

// [case, steps: a list name or a table size]: the same steps on an encoder given plain fields
// (encode) and on one given packed lists (encodeInto) write the same bytes, which decode.
const SEQUENCES = [
  ['one list repeated', ['A', 'A', 'A', 'A']],
  ['two lists in turn', ['A', 'B', 'A', 'B', 'A', 'B']],
  ['a one-off list between repeats', ['A', 'A', 'C', 'A', 'C', 'A']],
  ['table emptied and restored between repeats', ['A', 'A', 0, 'A', 'A', 4096, 'A', 'A']],
  ['a table too small for the entries', [64, 'A', 'B', 'A', 'B', 'A']],
];

for (const [name, steps] of SEQUENCES) {
  test(`encodeInto writes what encode does: ${name}`, () => {
    const plain = new Encoder();
    const packed = new Encoder();
    const decoder = new Decoder();
    const lists = Object.fromEntries(Object.entries(LISTS).map(([k, v]) => [k, new PackedHeaders(v)]));
    for (const [i, step] of steps.entries()) {
      if (typeof step === 'number') {
        plain.setTableSize(step);
        packed.setTableSize(step);
        decoder.setTableSize(step);
        continue;
      }
      const expected = plain.encode(LISTS[step]);
      const got = into(packed, lists[step]);
      assert.equal(got.toString('hex'), expected.toString('hex'), `step ${i} (${step})`);
      assert.deepEqual(decoder.decode(got), LISTS[step]);
    }
  });
}

test('encodeInto: too little room writes nothing and changes nothing', () => {
  const enc = new Encoder();
  const list = new PackedHeaders(A);
  const small = Buffer.alloc(8, 0xee);
  const room = enc.encodeInto(list, small, 0);
  assert.ok(room > small.length);
  assert.ok(small.equals(Buffer.alloc(8, 0xee)));
  const first = into(enc, list);
  assert.equal(first.toString('hex'), new Encoder().encode(A).toString('hex'));
  // A repeat (a copy from the second on) is refused the same way.
  const again = into(enc, list);
  assert.equal(enc.encodeInto(list, small, 4), again.length);
  assert.ok(again.length > 4);
  assert.ok(into(enc, list).equals(again));
  assert.ok(small.equals(Buffer.alloc(8, 0xee)));
});

test('PackedHeaders: sensitive names, latin1 only; encode takes one too; close()', () => {
  const list = new PackedHeaders({ 'Set-Cookie': 'a=secret-cookie-value' }, { sensitive: ['set-cookie'] });
  const enc = new Encoder();
  // Never indexed, name from static entry 55.
  assert.equal(enc.encode(list).subarray(0, 2).toString('hex'), '1f28');
  assert.throws(() => new PackedHeaders({ x: 'č' }), { code: 'ERR_HPACK_INVALID_ARGUMENT', name: 'TypeError', message: /header 0 value has U\+010D/ });
  assert.throws(() => enc.encodeInto({ bytes: Buffer.alloc(0), fields: new Int32Array(0), count: 0 }, Buffer.alloc(8), 0), { code: 'ERR_HPACK_INVALID_ARGUMENT' });
  enc.close();
  assert.throws(() => enc.encodeInto(list, Buffer.alloc(64), 0), { code: 'ERR_HPACK_INVALID_ARGUMENT', message: 'the encoder is closed' });
  assert.throws(() => enc.encode(A), { code: 'ERR_HPACK_INVALID_ARGUMENT', message: 'the encoder is closed' });
  assert.throws(() => enc.setTableSize(0), { code: 'ERR_HPACK_INVALID_ARGUMENT', message: 'the encoder is closed' });
});
