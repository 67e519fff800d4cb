'use strict';
// Results are cut from a shared output slab: one larger than the slab, then small ones, must all
// come back whole and independent of each other.
const test = require('node:test');
const assert = require('node:assert');
const { huffman, Encoder, Decoder } = require('../native');

test('a Huffman result larger than the output slab does not break the next calls', () => {
  const big = Buffer.alloc(20000, 'abcdefghij');
  const encodedBig = huffman.encode(big);
  assert.strictEqual(encodedBig.length, huffman.encodedLength(big));
  const small = huffman.encode('www.example.com');
  assert.deepStrictEqual(small, Buffer.from('f1e3c2e5f23a6ba0ab90f4ff', 'hex'));
  assert.deepStrictEqual(huffman.decode(encodedBig), big);
  assert.strictEqual(huffman.decode(small).toString(), 'www.example.com');
});

test('an encoded block larger than the output slab does not break the next blocks', () => {
  const encoder = new Encoder({ huffman: false });
  const decoder = new Decoder({ maxHeaderListSize: 1 << 20 });
  const blocks = [
    [['x-big', 'v'.repeat(12000)]],
    [[':method', 'GET'], [':path', '/']],
    [['x-big-2', 'w'.repeat(9000)], ['accept', '*/*']],
  ];
  const wires = blocks.map((headers) => encoder.encode(headers));
  // Every earlier result stays intact after later calls reuse the slab.
  wires.forEach((wire, i) => assert.deepStrictEqual(decoder.decode(wire), blocks[i]));
});
