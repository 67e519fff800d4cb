'use strict';
// QUIC variable-length integers (RFC 9000 16), which HTTP/3 frames and stream types are made of:
// the two high bits of the first octet give the length (1, 2, 4 or 8 octets), the rest the
// value, big-endian. Values go up to 2^62-1; JavaScript numbers hold them exactly up to 2^53,
// which every value this engine reads or writes stays below (a larger one reads as a number
// past MAX_SAFE_INTEGER, which no length or setting check accepts).

// 2^62 - 1 is not a double: values must stay below 2^62.
const VARINT_LIMIT = 2 ** 62;

function varintLength(value) {
  if (value < 0x40) return 1;
  if (value < 0x4000) return 2;
  if (value < 0x40000000) return 4;
  return 8;
}

// Writes value at buf[offset...]; returns the offset after it.
function writeVarint(buf, offset, value) {
  if (!Number.isInteger(value) || value < 0 || value >= VARINT_LIMIT) throw new RangeError(`varint out of range: ${value}`);
  const n = varintLength(value);
  if (n === 1) {
    buf[offset] = value;
  } else if (n === 2) {
    buf.writeUInt16BE(0x4000 | value, offset);
  } else if (n === 4) {
    buf.writeUInt32BE((0x80000000 | value) >>> 0, offset);
  } else {
    const high = Math.floor(value / 2 ** 32);
    buf.writeUInt32BE((0xc0000000 | high) >>> 0, offset);
    buf.writeUInt32BE(value >>> 0, offset + 4);
  }
  return offset + n;
}

function encodeVarint(value) {
  const buf = Buffer.allocUnsafe(varintLength(value));
  writeVarint(buf, 0, value);
  return buf;
}

// The varint at buf[offset...]: its value, and `length`, the octets it took; null when buf
// ends before it does (more bytes will come).
function readVarint(buf, offset) {
  if (offset >= buf.length) return null;
  const first = buf[offset];
  const n = 1 << (first >> 6);
  if (offset + n > buf.length) return null;
  let value = first & 0x3f;
  for (let i = 1; i < n; i++) value = value * 256 + buf[offset + i];
  return { value, length: n };
}

module.exports = { encodeVarint, writeVarint, readVarint, varintLength };
