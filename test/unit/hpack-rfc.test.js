'use strict';
// RFC 7541 Appendix C through the Node API: each example's blocks share one
// encoder and one decoder, and both must match the RFC byte for byte.
const test = require('node:test');
const assert = require('node:assert');
const { Encoder, Decoder, huffman } = require('../../native');

const appendixC = require('../fixtures/rfc7541-appendix-c.json');

for (const { section, title, tableSize, huffman: useHuffman, blocks } of appendixC.examples) {
  test(`RFC 7541 ${section} ${title}`, () => {
    // The RFC's examples index every field, set-cookie included.
    const encoder = new Encoder({ tableSize, huffman: useHuffman, indexVolatileFields: true });
    const decoder = new Decoder({ tableSize });
    blocks.forEach(({ headers, wire }, i) => {
      assert.strictEqual(encoder.encode(headers).toString('hex'), wire, `encoder, block ${i + 1}`);
      assert.deepStrictEqual(decoder.decode(Buffer.from(wire, 'hex')), headers, `decoder, block ${i + 1}`);
    });
  });
}

test('RFC 7541 C.2 field representations decode', () => {
  assert.strictEqual(appendixC.representations.length, 4);
  for (const { section, wire, headers } of appendixC.representations) {
    assert.deepStrictEqual(new Decoder().decode(Buffer.from(wire, 'hex')), headers, section);
  }
});

test('RFC 7541 C.4 and C.6 Huffman strings', () => {
  for (const [plain, hex] of appendixC.huffmanStrings) {
    assert.strictEqual(huffman.encode(plain).toString('hex'), hex, plain);
    assert.strictEqual(huffman.decode(Buffer.from(hex, 'hex')).toString('latin1'), plain, hex);
  }
});

test('C.2.3: a sensitive name is sent never-indexed', () => {
  const encoder = new Encoder({ huffman: false, sensitive: ['Password'] });
  assert.strictEqual(encoder.encode([['password', 'secret']]).toString('hex'), '100870617373776f726406736563726574');
});

test('object input, array values and latin1 bytes round-trip', () => {
  const encoder = new Encoder();
  const decoder = new Decoder();
  const headers = { ':status': 200, 'Set-Cookie': ['a=1', 'b=2'], 'x-bytes': '\u00e9\u00ff\u0001' };
  assert.deepStrictEqual(decoder.decode(encoder.encode(headers)), [
    [':status', '200'], ['set-cookie', 'a=1'], ['set-cookie', 'b=2'], ['x-bytes', '\u00e9\u00ff\u0001'],
  ]);
});
