'use strict';
// RFC 7541 Appendix C through the Node API: each example's blocks share one
// encoder and one decoder, and both must match the RFC byte for byte.
const test = require('node:test');
const assert = require('node:assert');
const { Encoder, Decoder } = require('../../native');

const req1 = [[':method', 'GET'], [':scheme', 'http'], [':path', '/'], [':authority', 'www.example.com']];
const req2 = [...req1, ['cache-control', 'no-cache']];
const req3 = [[':method', 'GET'], [':scheme', 'https'], [':path', '/index.html'], [':authority', 'www.example.com'], ['custom-key', 'custom-value']];
const date1 = ['date', 'Mon, 21 Oct 2013 20:13:21 GMT'];
const date2 = ['date', 'Mon, 21 Oct 2013 20:13:22 GMT'];
const location = ['location', 'https://www.example.com'];
const res1 = [[':status', '302'], ['cache-control', 'private'], date1, location];
const res2 = [[':status', '307'], ['cache-control', 'private'], date1, location];
const res3 = [[':status', '200'], ['cache-control', 'private'], date2, location, ['content-encoding', 'gzip'],
  ['set-cookie', 'foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1']];

const examples = {
  'C.3 requests without Huffman': { tableSize: 4096, huffman: false, blocks: [
    [req1, '828684410f7777772e6578616d706c652e636f6d'],
    [req2, '828684be58086e6f2d6361636865'],
    [req3, '828785bf400a637573746f6d2d6b65790c637573746f6d2d76616c7565'],
  ] },
  'C.4 requests with Huffman': { tableSize: 4096, huffman: true, blocks: [
    [req1, '828684418cf1e3c2e5f23a6ba0ab90f4ff'],
    [req2, '828684be5886a8eb10649cbf'],
    [req3, '828785bf408825a849e95ba97d7f8925a849e95bb8e8b4bf'],
  ] },
  'C.5 responses without Huffman, table size 256': { tableSize: 256, huffman: false, blocks: [
    [res1, '4803333032580770726976617465611d4d6f6e2c203231204f637420323031332032303a31333a323120474d546e'
      + '1768747470733a2f2f7777772e6578616d706c652e636f6d'],
    [res2, '4803333037c1c0bf'],
    [res3, '88c1611d4d6f6e2c203231204f637420323031332032303a31333a323220474d54c05a04677a69707738666f6f3d'
      + '4153444a4b48514b425a584f5157454f50495541585157454f49553b206d61782d6167653d333630303b207665'
      + '7273696f6e3d31'],
  ] },
  'C.6 responses with Huffman, table size 256': { tableSize: 256, huffman: true, blocks: [
    [res1, '488264025885aec3771a4b6196d07abe941054d444a8200595040b8166e082a62d1bff6e919d29ad171863c78f0b97c8'
      + 'e9ae82ae43d3'],
    [res2, '4883640effc1c0bf'],
    [res3, '88c16196d07abe941054d444a8200595040b8166e084a62d1bffc05a839bd9ab77ad94e7821dd7f2e6c7b335dfdfcd5b'
      + '3960d5af27087f3672c1ab270fb5291f9587316065c003ed4ee5b1063d5007'],
  ] },
};

for (const [name, { tableSize, huffman, blocks }] of Object.entries(examples)) {
  test(`RFC 7541 ${name}`, () => {
    // The RFC's examples index every field, set-cookie included.
    const encoder = new Encoder({ tableSize, huffman, indexVolatileFields: true });
    const decoder = new Decoder({ tableSize });
    blocks.forEach(([headers, wire], i) => {
      assert.strictEqual(encoder.encode(headers).toString('hex'), wire, `encoder, block ${i + 1}`);
      assert.deepStrictEqual(decoder.decode(Buffer.from(wire, 'hex')), headers, `decoder, block ${i + 1}`);
    });
  });
}

test('RFC 7541 C.2 field representations decode', () => {
  const cases = [
    ['400a637573746f6d2d6b65790d637573746f6d2d686561646572', [['custom-key', 'custom-header']]],
    ['040c2f73616d706c652f70617468', [[':path', '/sample/path']]],
    ['100870617373776f726406736563726574', [['password', 'secret']]],
    ['82', [[':method', 'GET']]],
  ];
  for (const [wire, headers] of cases) assert.deepStrictEqual(new Decoder().decode(Buffer.from(wire, 'hex')), headers);
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
