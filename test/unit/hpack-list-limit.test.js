'use strict';
// A decoded header list comes back to JS as one string, which V8 cannot make
// longer than buffer.constants.MAX_STRING_LENGTH (about 512 MiB). Limits above
// that (up to 2^32 - 1, the largest SETTINGS_MAX_HEADER_LIST_SIZE) act as that
// cap: a list past it is ERR_HPACK_HEADER_LIST_TOO_LARGE, never a broken result.
const test = require('node:test');
const assert = require('node:assert');
const os = require('node:os');
const { spawnSync } = require('node:child_process');
const { MAX_STRING_LENGTH } = require('node:buffer').constants;
const { Decoder } = require('../../native');

const ENTRY_VALUE = 3999; // with the 1-byte name, a 4000-byte entry
const ENTRY_COST = 1 + ENTRY_VALUE + 32; // its share of the list size (RFC 7541 4.1)

// One literal with incremental indexing ('x': 3999 bytes, new name), then `refs` references
// to it (index 62, the newest dynamic entry): a small block that decodes to refs + 1 fields.
function bomb(refs) {
  const value = Buffer.alloc(ENTRY_VALUE, 'v');
  const rest = ENTRY_VALUE - 127; // the 7-bit prefix is full: two more bytes of length (RFC 7541 5.1)
  const literal = Buffer.concat([Buffer.from([0x40, 0x01, 0x78, 0x7f, 0x80 | (rest & 0x7f), rest >> 7]), value]);
  return Buffer.concat([literal, Buffer.alloc(refs, 0xbe)]);
}

test('the bomb block is what it claims: one 4000-byte entry and its references', () => {
  const fields = new Decoder({ maxHeaderListSize: 1 << 20 }).decode(bomb(3));
  assert.deepStrictEqual(fields, Array(4).fill(['x', 'v'.repeat(ENTRY_VALUE)]));
});

// The decoder holds the list's bytes until it fails: the process peaks near 1 GB.
const skip = os.totalmem() < 4 * 2 ** 30 && 'needs 4 GiB of memory (peaks near 1 GB)';

test('a list over the longest JS string fails with ERR_HPACK_HEADER_LIST_TOO_LARGE at maxHeaderListSize 2^32-1', { skip }, () => {
  const refs = 140_000; // ~564 MB decoded
  assert.ok((refs + 1) * ENTRY_COST > MAX_STRING_LENGTH);
  const decoder = new Decoder({ maxHeaderListSize: 2 ** 32 - 1, maxStringLength: 2 ** 32 - 1 });
  assert.throws(
    () => decoder.decode(bomb(refs)),
    (err) => err.constructor === Error && err.code === 'ERR_HPACK_HEADER_LIST_TOO_LARGE',
  );
});

// Measured in a process of its own: what the test before it freed (a 564 MB list) leaves
// malloc's arenas grown to sizes that depend on the runtime (Node 24 keeps more of it), and
// that is not the decoder's to give back.
const MEMORY_CHILD = `
  const { Decoder } = require(${JSON.stringify(require.resolve('../../native'))});
  const ENTRY_VALUE = ${ENTRY_VALUE};
  ${bomb.toString()}
  const decoder = new Decoder({ maxHeaderListSize: 2 ** 32 - 1 });
  gc();
  const before = process.memoryUsage().rss;
  const count = decoder.decode(bomb(50_000)).length; // the list dies with this frame
  gc();
  gc();
  // The decoder lives on and still works; the list's bytes are gone.
  const after = JSON.stringify(decoder.decode(Buffer.from([0x82])));
  process.stdout.write(JSON.stringify({ count, after, grown: process.memoryUsage().rss - before }));
`;

test('a decoder that decoded a 200 MB list does not keep that memory', { skip }, () => {
  const child = spawnSync(process.execPath, ['--expose-gc', '-e', MEMORY_CHILD], { encoding: 'utf8' });
  assert.strictEqual(child.status, 0, child.stderr);
  const { count, after, grown } = JSON.parse(child.stdout);
  assert.strictEqual(count, 50_001);
  assert.strictEqual(after, JSON.stringify([[':method', 'GET']]));
  assert.ok(grown < 64 * 2 ** 20, `RSS grew ${(grown / 2 ** 20).toFixed(0)} MiB`);
});
