'use strict';
// Header names and values are latin1 strings. A code unit above 0xFF must be
// refused, never cut to its low byte (U+010D U+010A would become CR LF), and a
// refused block must leave the encoder in step with the peer's decoder.
const test = require('node:test');
const assert = require('node:assert');
const { Encoder, Decoder } = require('../../native');

const refused = (err) => err instanceof TypeError && err.code === 'ERR_HPACK_INVALID_ARGUMENT';

const NOT_LATIN1 = [
  { what: 'euro sign in a value', headers: [['x-price', '5 €']] },
  { what: 'U+010D U+010A in a value (CR LF once truncated)', headers: [['x-a', 'ok\u010d\u010aset-cookie: evil']] },
  { what: 'dotted capital I in a name (lower-cased to i + U+0307)', headers: [['İstanbul', 'city']] },
  { what: 'U+0100 in a name', headers: [['x-\u0100', '1']] },
  { what: 'emoji (surrogate pair) in a value', headers: [['x-mood', '\u{1f600}']] },
  { what: 'non-latin1 in the last of several fields', headers: { ':status': '200', 'x-ok': 'ÿ', 'x-bad': 'Ā' } },
];

for (const { what, headers } of NOT_LATIN1) {
  test(`encode refuses ${what} and keeps the encoder in step`, () => {
    const encoder = new Encoder();
    const decoder = new Decoder();
    const first = [['x-before', 'indexed-value']];
    assert.deepStrictEqual(decoder.decode(encoder.encode(first)), first);
    assert.throws(() => encoder.encode(headers), refused);
    // The refused block changed nothing: the next one references the table as the peer has it.
    const next = [['x-before', 'indexed-value'], ['x-after', 'latin1 ÿ é']];
    assert.deepStrictEqual(decoder.decode(encoder.encode(next)), next);
  });
}

test('every latin1 character (0x00-0xFF) round-trips', () => {
  const all = String.fromCharCode(...Array.from({ length: 256 }, (_, i) => i));
  const headers = [['x-all', all]];
  assert.deepStrictEqual(new Decoder().decode(new Encoder().encode(headers)), headers);
});

test("a value's toString that encodes another block yields two blocks the peer decodes in order", () => {
  const encoder = new Encoder();
  const decoder = new Decoder();
  const inner = [['x-inner', 'inner-value']];
  let innerBlock;
  const value = {
    toString() {
      innerBlock = encoder.encode(inner);
      return 'outer-value';
    },
  };
  const outerBlock = encoder.encode([['x-before', 'b'], ['x-nested', value], ['x-after', 'a']]);
  assert.deepStrictEqual(decoder.decode(innerBlock), inner);
  assert.deepStrictEqual(decoder.decode(outerBlock), [['x-before', 'b'], ['x-nested', 'outer-value'], ['x-after', 'a']]);
  // Both tables still agree: a block made only of indexed fields decodes to the same list.
  const again = [['x-inner', 'inner-value'], ['x-before', 'b'], ['x-nested', 'outer-value'], ['x-after', 'a']];
  assert.deepStrictEqual(decoder.decode(encoder.encode(again)), again);
});

test('a getter that encodes, then a toString that throws, leave both ends in step', () => {
  const encoder = new Encoder();
  const decoder = new Decoder();
  const blocks = [];
  const headers = {
    'x-first': '1',
    get 'x-getter'() {
      blocks.push(encoder.encode([['x-from-getter', 'g']]));
      return 'got';
    },
    'x-last': { toString: () => { throw new Error('no string'); } },
  };
  assert.throws(() => encoder.encode(headers), /no string/);
  assert.strictEqual(blocks.length, 1);
  assert.deepStrictEqual(decoder.decode(blocks[0]), [['x-from-getter', 'g']]);
  const next = [['x-from-getter', 'g'], ['x-first', '1']];
  assert.deepStrictEqual(decoder.decode(encoder.encode(next)), next);
});
