'use strict';
// Cutting zstd data at its frames' ends (server/compression/zstd-frames.js), from the headers.

const test = require('node:test');
const assert = require('node:assert/strict');
const { splitFrames } = require('../../server/compression/zstd-frames');

const hex = (s) => Buffer.from(s.replace(/\s/g, ''), 'hex');
// Frames written by hand from RFC 8878 3.1.1: magic, descriptor, then the fields it announces.
const FRAMES = {
  // single segment, 1-byte content size 3, one last raw block of 3 bytes ("abc")
  raw: hex('28b52ffd 20 03  190000 616263'),
  // window descriptor, no content size, one last RLE block (size 5, one byte), a checksum
  rleChecksum: hex('28b52ffd 04 00  2b0000 78  01020304'),
  // a 2-byte dictionary id and 2-byte content size, a raw block then a last empty raw block
  dictId: hex('28b52ffd 42 00 3412 0500  100000 6162 010000'),
  skippable: hex('502a4d18 02000000 aabb'),
};

const CASES = [
  ['one frame', [FRAMES.raw], [FRAMES.raw]],
  ['frames and a skippable frame one after the other', [FRAMES.skippable, FRAMES.raw, FRAMES.rleChecksum, FRAMES.dictId],
    [FRAMES.skippable, FRAMES.raw, FRAMES.rleChecksum, FRAMES.dictId]],
  ['a truncated last frame: one last piece', [FRAMES.raw, FRAMES.rleChecksum.subarray(0, 9)], [FRAMES.raw, FRAMES.rleChecksum.subarray(0, 9)]],
  ['a frame cut inside its checksum', [FRAMES.rleChecksum.subarray(0, 12)], [FRAMES.rleChecksum.subarray(0, 12)]],
  ['trailing bytes that are no frame', [FRAMES.raw, Buffer.from('garbage!!')], [FRAMES.raw, Buffer.from('garbage!!')]],
  ['a reserved block type stops the cutting', [FRAMES.raw, hex('28b52ffd 20 03 1f0000 616263')], [FRAMES.raw, hex('28b52ffd 20 03 1f0000 616263')]],
  ['empty input: no piece', [], []],
];

for (const [name, parts, expected] of CASES) {
  test(name, () => {
    assert.deepEqual(splitFrames(Buffer.concat(parts)).map((b) => b.toString('hex')), expected.map((b) => b.toString('hex')));
  });
}
