'use strict';
// Results are cut from a shared output slab: one larger than the slab, then small ones, must all
// come back whole and independent of each other.
const test = require('node:test');
const assert = require('node:assert');
const { huffman, Encoder, Decoder } = require('../../native');

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

test('a large result gets its own memory, and later small results stay on a small slab', () => {
  const SLAB_SIZE = 8192; // native/js/slab.js
  const big = Buffer.alloc(10 << 20, 'abcdefghij');
  const encoded = huffman.encode(big);
  // Decoding reserves room for the bound (8/5 of the input), far more than these 10 MiB.
  const decoded = huffman.decode(encoded);
  const block = new Encoder({ huffman: false }).encode([['x-big', 'v'.repeat(1 << 20)]]);
  const small = [huffman.encode('a'), huffman.decode(huffman.encode('abc')), new Encoder().encode([[':method', 'GET']])];
  for (const large of [encoded, decoded, block]) {
    assert.strictEqual(large.byteOffset, 0);
    assert.strictEqual(large.buffer.byteLength, large.length);
  }
  assert.deepStrictEqual(decoded, big);
  for (const result of small) assert.strictEqual(result.buffer.byteLength, SLAB_SIZE);
});
