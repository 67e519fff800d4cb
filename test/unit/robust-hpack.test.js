'use strict';
// The HPACK decoder against hostile header blocks, through the Node API: decompression
// bombs (RFC 7541 7.3, the "HPACK bomb" advisories), lengths that lie, limits exceeded.
// Every block must fail with its stable ERR_HPACK_* code, in bounded memory, and leave
// the decoder poisoned.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { Decoder, huffman } = require('../../native');

const MiB = 1024 * 1024;

// RFC 7541 5.1: value with an n-bit prefix, the byte's other bits from `flags`.
function int(n, flags, value) {
  const max = (1 << n) - 1;
  if (value < max) return [flags | value];
  const out = [flags | max];
  for (value -= max; value >= 128; value = Math.floor(value / 128)) out.push((value % 128) | 128);
  out.push(value);
  return out;
}

// A plain string literal (RFC 7541 5.2) with its length prefix; `length` may lie.
function str(bytes, length = bytes.length) {
  return Buffer.concat([Buffer.from(int(7, 0x00, length)), bytes]);
}

function huffmanStr(text) {
  const coded = huffman.encode(text);
  return Buffer.concat([Buffer.from(int(7, 0x80, coded.length)), coded]);
}

// Literal with incremental indexing, new name (RFC 7541 6.2.1).
function insert(name, value) {
  return Buffer.concat([Buffer.from([0x40]), str(Buffer.from(name)), value]);
}

// The first dynamic entry (index 62), referenced `times` times.
function references(times) {
  return Buffer.alloc(times, 0x80 | 62);
}

function sizeUpdate(size) {
  return Buffer.from(int(5, 0x20, size));
}

function assertFails(decoder, block, code) {
  assert.throws(() => decoder.decode(block), (err) => err.code === code || assert.fail(`${err.code}: ${err.message}`));
  assert.throws(() => decoder.decode(Buffer.from([0x82])), { code: 'ERR_HPACK_POISONED' });
}

function memory() {
  const { rss, arrayBuffers } = process.memoryUsage();
  return { rss, arrayBuffers };
}

test('bomb: one 4000-byte entry referenced 4 Mi times fails at maxHeaderListSize in bounded memory', () => {
  // Decoded in full this block would be 16 GiB of header list.
  const block = Buffer.concat([insert('x', str(Buffer.alloc(4000, 'a'))), references(4 * MiB)]);
  const before = memory();
  for (let i = 0; i < 20; i++) {
    assertFails(new Decoder({ maxHeaderListSize: 64 * 1024 }), block, 'ERR_HPACK_HEADER_LIST_TOO_LARGE');
  }
  const after = memory();
  assert.ok(after.rss - before.rss < 64 * MiB, `RSS grew ${after.rss - before.rss} bytes`);
  assert.ok(after.arrayBuffers - before.arrayBuffers < 16 * MiB, `arrayBuffers grew ${after.arrayBuffers - before.arrayBuffers} bytes`);
});

test('bomb through static entries: a block of indexed static fields stops at the list limit', () => {
  // index 16 is accept-encoding: gzip, deflate (15 + 13 + 32 = 60 bytes each).
  assertFails(new Decoder({ maxHeaderListSize: 16 * 1024 }), Buffer.alloc(MiB, 0x80 | 16), 'ERR_HPACK_HEADER_LIST_TOO_LARGE');
});

test('the list limit counts name + value + 32 per field, as RFC 9113 does', () => {
  const field = insert('x', str(Buffer.alloc(67, 'a'))); // 1 + 67 + 32 = 100
  assert.equal(new Decoder({ maxHeaderListSize: 300 }).decode(Buffer.concat([field, references(2)])).length, 3);
  assertFails(new Decoder({ maxHeaderListSize: 299 }), Buffer.concat([field, references(2)]), 'ERR_HPACK_HEADER_LIST_TOO_LARGE');
});

test('a string longer than the rest of the block is ERR_HPACK_TRUNCATED', () => {
  assertFails(new Decoder(), insert('x', str(Buffer.alloc(10, 'a'), 100)), 'ERR_HPACK_TRUNCATED');
  assertFails(new Decoder(), Buffer.concat([Buffer.from([0x40]), str(Buffer.alloc(3, 'n'), 4)]), 'ERR_HPACK_TRUNCATED');
  // The block ends inside the length prefix itself.
  assertFails(new Decoder(), Buffer.from([0x40, 0x7f, 0x80]), 'ERR_HPACK_TRUNCATED');
});

test('a string over maxStringLength is ERR_HPACK_STRING_TOO_LONG, plain or Huffman-coded', () => {
  const limits = { maxHeaderListSize: MiB, maxStringLength: 100 };
  assertFails(new Decoder(limits), insert('x', str(Buffer.alloc(101, 'a'))), 'ERR_HPACK_STRING_TOO_LONG');
  // 101 'a's are 64 coded bytes: only decoding shows the string is too long.
  assertFails(new Decoder(limits), insert('x', huffmanStr('a'.repeat(101))), 'ERR_HPACK_STRING_TOO_LONG');
  // A length prefix claiming 2 GiB is refused before waiting for the bytes.
  assertFails(new Decoder(limits), insert('x', str(Buffer.alloc(0), 2 ** 31)), 'ERR_HPACK_STRING_TOO_LONG');
  assert.equal(new Decoder(limits).decode(insert('x', huffmanStr('a'.repeat(100))))[0][1].length, 100);
});

test('a table size update above the negotiated maximum is ERR_HPACK_TABLE_SIZE', () => {
  assertFails(new Decoder({ tableSize: 4096 }), sizeUpdate(4097), 'ERR_HPACK_TABLE_SIZE');
  assertFails(new Decoder({ tableSize: 0 }), sizeUpdate(1), 'ERR_HPACK_TABLE_SIZE');
  assert.deepEqual(new Decoder({ tableSize: 4096 }).decode(Buffer.concat([sizeUpdate(4096), Buffer.from([0x82])])), [[':method', 'GET']]);
});

test('a size update after a field is ERR_HPACK_TABLE_SIZE', () => {
  assertFails(new Decoder(), Buffer.concat([Buffer.from([0x82]), sizeUpdate(0)]), 'ERR_HPACK_TABLE_SIZE');
});

test('a lowered table limit must be acknowledged by a size update before any field', () => {
  const d = new Decoder({ tableSize: 4096 });
  d.decode(insert('x', str(Buffer.from('y'))));
  d.setTableSize(0);
  assertFails(d, Buffer.from([0x82]), 'ERR_HPACK_TABLE_SIZE');
});

test('an integer past 32 bits is ERR_HPACK_INTEGER', () => {
  assertFails(new Decoder(), Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]), 'ERR_HPACK_INTEGER');
  assertFails(new Decoder(), Buffer.from([0xff, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00]), 'ERR_HPACK_INTEGER');
});

test('an index past both tables is ERR_HPACK_INDEX', () => {
  assertFails(new Decoder(), Buffer.from([0x80 | 62]), 'ERR_HPACK_INDEX');
  assertFails(new Decoder(), Buffer.from([0x80]), 'ERR_HPACK_INDEX');
});

// RFC 7541 4.2 allows a block to start with at most two size updates (the smallest
// since the last block, then the final one); a block of only updates carries no fields.
test('a block of thousands of table size updates is refused', () => {
  assertFails(new Decoder(), Buffer.concat(Array.from({ length: 10_000 }, () => sizeUpdate(0))), 'ERR_HPACK_TABLE_SIZE');
});

test('two size updates at the start of a block are accepted, a third is not', () => {
  assert.deepEqual(new Decoder().decode(Buffer.concat([sizeUpdate(0), sizeUpdate(4096), Buffer.from([0x82])])), [[':method', 'GET']]);
  assertFails(new Decoder(), Buffer.concat([sizeUpdate(0), sizeUpdate(0), sizeUpdate(4096)]), 'ERR_HPACK_TABLE_SIZE');
});

test('invalid Huffman strings are ERR_HPACK_HUFFMAN', () => {
  // EOS (30 ones) inside the string, and padding that is not all ones.
  assertFails(new Decoder(), insert('x', Buffer.from([0x84, 0xff, 0xff, 0xff, 0xff])), 'ERR_HPACK_HUFFMAN');
  assertFails(new Decoder(), insert('x', Buffer.from([0x81, 0x00])), 'ERR_HPACK_HUFFMAN');
});
