'use strict';
// Where each frame of zstd data ends (RFC 8878 3.1), read from the frame and block headers
// alone. A zstd body may be several frames one after the other (RFC 8878 3: "one or more
// frames"), and node:zlib's decoder stops after the first, so zstd-zlib.js decodes them one by one.

const MAGIC = 0xfd2fb528;
// Skippable frames: magic 0x184D2A50 to 0x184D2A5F, a 4-byte size, then that many bytes.
const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE = 0x184d2a50;
const DICT_ID_BYTES = [0, 1, 2, 4];
const FCS_BYTES = [0, 2, 4, 8];
const BLOCK_HEADER = 3;
const CHECKSUM = 4;
const RLE_BLOCK = 1;
const RESERVED_BLOCK = 3;

/** The length of the frame at `offset`, or null when it is not whole and well formed there. */
function frameLength(buf, offset) {
  if (buf.length - offset < 8) return null;
  const magic = buf.readUInt32LE(offset);
  if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE) return 8 + buf.readUInt32LE(offset + 4);
  if (magic !== MAGIC) return null;
  const descriptor = buf[offset + 4];
  const singleSegment = (descriptor & 0x20) !== 0;
  const fcsFlag = descriptor >> 6;
  let pos = offset + 5 + (singleSegment ? 0 : 1) + DICT_ID_BYTES[descriptor & 3] +
    (fcsFlag === 0 && singleSegment ? 1 : FCS_BYTES[fcsFlag]);
  for (;;) {
    if (pos + BLOCK_HEADER > buf.length) return null;
    const header = buf.readUIntLE(pos, BLOCK_HEADER);
    const type = (header >> 1) & 3;
    if (type === RESERVED_BLOCK) return null;
    pos += BLOCK_HEADER + (type === RLE_BLOCK ? 1 : header >> 3);
    if (header & 1) break;
  }
  if ((descriptor & 4) !== 0) pos += CHECKSUM;
  return pos <= buf.length ? pos - offset : null;
}

/**
 * `input` cut at its frames' ends: whole, well-formed frames one piece each; whatever follows
 * the last of them (a truncated or malformed frame) one last piece, for the decoder to refuse;
 * no piece for empty input (no frame, no bytes, as zstd-napi's decoder reads it).
 * @param {Buffer} input
 * @returns {Buffer[]}
 */
function splitFrames(input) {
  const pieces = [];
  let offset = 0;
  while (offset < input.length) {
    const length = frameLength(input, offset);
    if (length === null || offset + length > input.length) break;
    pieces.push(input.subarray(offset, offset + length));
    offset += length;
  }
  if (offset < input.length) pieces.push(input.subarray(offset));
  return pieces;
}

module.exports = { splitFrames };
