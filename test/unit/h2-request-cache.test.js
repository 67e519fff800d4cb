'use strict';
// The native engine's cache of requests by header block: only blocks of indexed fields are
// kept, any other block empties it, and it holds a bounded number of blocks.

const test = require('node:test');
const assert = require('node:assert/strict');
const { RequestCache, indexedOnly } = require('../../server/engines/h2/request-cache');

const hex = (s) => Buffer.from(s.replace(/ /g, ''), 'hex');

const BLOCKS = [
  ['indexed fields', '82 87 84 be', true],
  ['an index of 127 and more (continuation octets)', '82 ff 00 ff 81 01 bf', true],
  ['literal with incremental indexing', '82 44 01 2f', false],
  ['literal without indexing', '82 04 01 2f', false],
  ['literal never indexed', '82 14 01 2f', false],
  ['dynamic table size update', '20 82', false],
  ['empty block', '', false],
  ['a literal after a multi-octet index', 'ff 81 01 44 01 2f', false],
];

for (const [name, bytes, expected] of BLOCKS) {
  test(`indexedOnly: ${name}`, () => assert.equal(indexedOnly(hex(bytes)), expected));
}

test('cache: an indexed block is found by its octets, not by its buffer', () => {
  const cache = new RequestCache();
  const request = { headers: {}, contentLength: -1, listSize: 100 };
  const block = hex('82 87 84 be');
  cache.decoded(block, request);
  block[3] = 0xbf; // the read buffer is reused: the cache kept a copy
  assert.equal(cache.get(hex('82 87 84 be')), request);
  assert.equal(cache.get(hex('82 87 84 bf')), undefined);
  assert.equal(cache.get(hex('82 87 84')), undefined);
});

test('cache: a block that is not indexed-only is not kept and empties the cache', () => {
  const cache = new RequestCache();
  const request = { headers: {} };
  cache.decoded(hex('82 87 84 be'), request);
  cache.decoded(hex('82 44 01 2f'), { headers: {} });
  assert.equal(cache.get(hex('82 44 01 2f')), undefined);
  assert.equal(cache.get(hex('82 87 84 be')), undefined);
});

test('cache: an indexed block not kept (trailers, malformed) leaves the entries', () => {
  const cache = new RequestCache();
  const request = { headers: {} };
  cache.decoded(hex('82 87 84 be'), request);
  cache.decoded(hex('bf'), null);
  assert.equal(cache.get(hex('82 87 84 be')), request);
  assert.equal(cache.get(hex('bf')), undefined);
});

test('cache: past 8 blocks the oldest entry is replaced', () => {
  const cache = new RequestCache();
  const requests = [];
  for (let i = 0; i < 9; i++) {
    requests.push({ i });
    cache.decoded(Buffer.from([0x82, 0xbe + i]), requests[i]);
  }
  assert.equal(cache.get(Buffer.from([0x82, 0xbe])), undefined);
  for (let i = 1; i < 9; i++) assert.equal(cache.get(Buffer.from([0x82, 0xbe + i])), requests[i]);
});
