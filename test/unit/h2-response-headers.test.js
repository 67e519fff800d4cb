'use strict';
// server/engines/h2/response-headers.js: the peer's SETTINGS_HEADER_TABLE_SIZE values, in the
// order they came, and the dynamic table size updates (RFC 7541 4.2, 6.3) that start the next
// header block; then repeated responses shrinking to indexed fields, decoded by a decoder
// that follows the same settings.

const test = require('node:test');
const assert = require('node:assert/strict');
const { Decoder } = require('../../native');
const { ResponseHeaders } = require('../../server/engines/h2/response-headers');

const headers = { 'content-type': 'text/html; charset=utf-8', etag: '"da-1-br"', 'cache-control': 'public, max-age=0', 'content-length': '779' };
const d = { status: 200, headers, h2: { ':status': 200, ...headers } };
const DATE = Object.freeze({ second: 1795817927, text: 'Fri, 27 Nov 2026 22:18:47 GMT' });
const clock = () => DATE;

function block(rh, descriptor = d) {
  const out = Buffer.alloc(4096);
  const n = rh.encodeInto(rh.list(descriptor), out, 0);
  return out.subarray(0, n);
}

// [case, SETTINGS_HEADER_TABLE_SIZE values since the last block, how the next block starts]
const CASES = [
  ['no setting: no update', [], '88'],
  ['the initial 4096 again: no update', [4096], '88'],
  ['more than 4096: ours stays 4096, no update', [65536], '88'],
  ['0: an update to 0', [0], '2088'],
  ['64', [64], '3f2188'],
  ['0 then 4096 (one SETTINGS frame or two): the smallest, then the final', [0, 4096], '203fe11f88'],
  ['100 then 200: 100, then 200', [100, 200], '3f453fa90188'],
  ['8192 then 0: 0 only', [8192, 0], '2088'],
];

for (const [name, sizes, start] of CASES) {
  // The encoder is made for the first block: sizes set before it are owed as well.
  for (const first of [false, true]) {
    test(`peer table sizes ${first ? 'before the first block' : 'after a block'}: ${name}`, () => {
      const rh = new ResponseHeaders();
      const decoder = new Decoder({ tableSize: 4096 });
      if (!first) decoder.decode(block(rh));
      for (const size of sizes) rh.setPeerTableSize(size);
      // The decoder takes the smallest limit the peer set; once acknowledged, the final one.
      if (sizes.length) decoder.setTableSize(Math.min(4096, ...sizes));
      const next = block(rh);
      assert.equal(next.subarray(0, start.length / 2).toString('hex'), start);
      if (sizes.length) decoder.setTableSize(Math.min(4096, sizes[sizes.length - 1]));
      assert.deepEqual(decoder.decode(next)[0], [':status', '200']);
      // Signalled once: the block after starts with its fields.
      assert.equal(block(rh)[0], 0x88);
      rh.close();
    });
  }
}

test('closed: its table is freed, also when no block was made', () => {
  const used = new ResponseHeaders();
  block(used);
  used.close();
  assert.throws(() => block(used), { code: 'ERR_HPACK_INVALID_ARGUMENT', message: 'the encoder is closed' });
  const unused = new ResponseHeaders();
  unused.close();
  assert.throws(() => block(unused), /response headers after the connection closed/);
});

test('a repeated response is indexed fields and the length; a table of 0 sends literals only', () => {
  const rh = new ResponseHeaders(clock);
  const decoder = new Decoder();
  const first = block(rh);
  const again = block(rh);
  const fields = decoder.decode(first);
  assert.deepEqual(decoder.decode(again), fields);
  assert.deepEqual(fields, [[':status', '200'], ...Object.entries(headers), ['date', DATE.text]]);
  // :status 200 static, three dynamic entries, content-length 779 not indexed (0f0d, a length
  // octet and 3 of Huffman), date dynamic.
  assert.equal(again.length, 1 + 3 + 6 + 1);
  assert.equal(again.subarray(4, 6).toString('hex'), '0f0d');
  assert.ok(block(rh).equals(again), 'the same block while nothing changed');

  const none = new ResponseHeaders(clock);
  none.setPeerTableSize(0);
  const noTable = new Decoder({ tableSize: 0 });
  const literal = block(none);
  assert.deepEqual(noTable.decode(literal).map(([n]) => n), fields.map(([n]) => n));
  assert.ok(block(none).equals(literal.subarray(1)), 'the same literals, without the size update');
  rh.close();
  none.close();
});

test('set-cookie is never indexed; a response without prebuilt fields is encoded too', () => {
  const rh = new ResponseHeaders();
  const decoder = new Decoder();
  const cookie = { status: 404, headers: { 'set-cookie': 'session=secret-value-1234' }, h2: null };
  const first = block(rh, cookie);
  const second = block(rh, cookie);
  assert.deepEqual(decoder.decode(first).slice(0, 2), [[':status', '404'], ['set-cookie', 'session=secret-value-1234']]);
  decoder.decode(second);
  // Never indexed, with the name from static entry 55: 0001 1111, 55 - 15.
  assert.equal(second.subarray(1, 3).toString('hex'), '1f28');
  rh.close();
});
