'use strict';
// The few DER (ITU-T X.690) pieces an X.509 certificate is made of, and a reader for the ones
// the server takes back out of a certificate: enough to build and sign certificates with
// node:crypto alone. Every value is definite-length and minimal, as DER requires.

const TAG = {
  BOOLEAN: 0x01,
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OID: 0x06,
  UTF8_STRING: 0x0c,
  UTC_TIME: 0x17,
  GENERALIZED_TIME: 0x18,
  SEQUENCE: 0x30,
  SET: 0x31,
};

function lengthBytes(length) {
  if (length < 0x80) return Buffer.from([length]);
  const bytes = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** One TLV: `tag` (a byte) around `content` (a Buffer, or Buffers to concatenate). */
function tlv(tag, content) {
  const body = Array.isArray(content) ? Buffer.concat(content) : content;
  return Buffer.concat([Buffer.from([tag]), lengthBytes(body.length), body]);
}

const sequence = (...items) => tlv(TAG.SEQUENCE, items);
const set = (...items) => tlv(TAG.SET, items);
const octetString = (bytes) => tlv(TAG.OCTET_STRING, bytes);
const utf8String = (text) => tlv(TAG.UTF8_STRING, Buffer.from(text, 'utf8'));
const boolean = (value) => tlv(TAG.BOOLEAN, Buffer.from([value ? 0xff : 0x00]));
const nullValue = () => tlv(TAG.NULL, Buffer.alloc(0));
/** A BIT STRING of whole bytes (no unused bits). */
const bitString = (bytes) => tlv(TAG.BIT_STRING, [Buffer.from([0]), bytes]);
/** [n] EXPLICIT around `content`, constructed. */
const explicit = (n, content) => tlv(0xa0 | n, content);
/** [n] IMPLICIT of a primitive value. */
const implicit = (n, bytes) => tlv(0x80 | n, bytes);

/** A non-negative INTEGER from its big-endian magnitude (a Buffer) or a number below 128. */
function integer(value) {
  if (typeof value === 'number') return tlv(TAG.INTEGER, Buffer.from([value]));
  let start = 0;
  while (start < value.length - 1 && value[start] === 0 && value[start + 1] < 0x80) start++;
  const bytes = value.subarray(start);
  return tlv(TAG.INTEGER, bytes[0] >= 0x80 ? [Buffer.from([0]), bytes] : bytes);
}

/** An OBJECT IDENTIFIER from its dotted form. */
function oid(dotted) {
  const arcs = dotted.split('.').map(Number);
  const out = [40 * arcs[0] + arcs[1]];
  for (const arc of arcs.slice(2)) {
    const groups = [arc & 0x7f];
    for (let n = Math.floor(arc / 128); n > 0; n = Math.floor(n / 128)) groups.unshift(0x80 | (n & 0x7f));
    out.push(...groups);
  }
  return tlv(TAG.OID, Buffer.from(out));
}

/** RFC 5280 4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050, to the second, in UTC. */
function time(date) {
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  const digits = iso.slice(0, 19).replace(/[-:T]/g, '');
  return date.getUTCFullYear() < 2050 ? tlv(TAG.UTC_TIME, Buffer.from(`${digits.slice(2)}Z`)) : tlv(TAG.GENERALIZED_TIME, Buffer.from(`${digits}Z`));
}

/**
 * The TLV at `offset` of `bytes`: { tag, offset, start (of the content), end (past it) }; throws
 * on a truncated or indefinite length.
 */
function readTlv(bytes, offset = 0) {
  if (offset + 2 > bytes.length) throw new RangeError('DER: truncated');
  const tag = bytes[offset];
  let length = bytes[offset + 1];
  let start = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4 || start + count > bytes.length) throw new RangeError('DER: bad length');
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + bytes[start + i];
    start += count;
  }
  if (start + length > bytes.length) throw new RangeError('DER: truncated');
  return { tag, offset, start, end: start + length };
}

/** The TLVs directly inside the constructed value `outer` (a readTlv result). */
function children(bytes, outer) {
  const items = [];
  for (let offset = outer.start; offset < outer.end;) {
    const item = readTlv(bytes, offset);
    items.push(item);
    offset = item.end;
  }
  return items;
}

module.exports = {
  TAG, tlv, sequence, set, octetString, utf8String, boolean, nullValue, bitString, explicit, implicit, integer, oid, time, readTlv, children,
};
