'use strict';
// server/tls/der.js: the DER encodings a certificate is built from, byte for byte (X.690), and
// the reader's refusals.

const test = require('node:test');
const assert = require('node:assert/strict');
const der = require('../../server/tls/der');

const hex = (buffer) => buffer.toString('hex');

// [what, encoding, expected hex]
const ENCODINGS = [
  ['INTEGER 0', () => der.integer(0), '020100'],
  ['INTEGER 2 (v3)', () => der.integer(2), '020102'],
  ['INTEGER with the top bit set gets a 0 pad', () => der.integer(Buffer.from([0x80])), '02020080'],
  ['INTEGER drops redundant leading zeros', () => der.integer(Buffer.from([0, 0, 1])), '020101'],
  ['INTEGER keeps the zero that keeps it positive', () => der.integer(Buffer.from([0, 0, 0x80, 1])), '0203008001'],
  ['BOOLEAN TRUE', () => der.boolean(true), '0101ff'],
  ['NULL', () => der.nullValue(), '0500'],
  ['OID sha256WithRSAEncryption', () => der.oid('1.2.840.113549.1.1.11'), '06092a864886f70d01010b'],
  ['OID basicConstraints', () => der.oid('2.5.29.19'), '0603551d13'],
  ['OID serverAuth', () => der.oid('1.3.6.1.5.5.7.3.1'), '06082b06010505070301'],
  ['UTF8String with @', () => der.utf8String('a@b'), '0c03614062'],
  ['BIT STRING of whole bytes', () => der.bitString(Buffer.from([0xab])), '030200ab'],
  ['[0] EXPLICIT', () => der.explicit(0, der.integer(2)), 'a003020102'],
  ['[2] IMPLICIT (dNSName)', () => der.implicit(2, Buffer.from('ab')), '82026162'],
  ['empty SEQUENCE', () => der.sequence(), '3000'],
  ['SET of one', () => der.set(der.nullValue()), '31020500'],
  ['UTCTime to the second, in UTC', () => der.time(new Date('2026-11-27T22:43:57.999Z')), `170d${hex(Buffer.from('261127224357Z'))}`],
  ['UTCTime up to 2049', () => der.time(new Date('2049-12-31T23:59:59Z')), `170d${hex(Buffer.from('491231235959Z'))}`],
  ['GeneralizedTime from 2050', () => der.time(new Date('2050-01-01T00:00:00Z')), `180f${hex(Buffer.from('20500101000000Z'))}`],
  ['long form length, one byte', () => der.octetString(Buffer.alloc(200)).subarray(0, 3), '0481c8'],
  ['long form length, two bytes', () => der.octetString(Buffer.alloc(300)).subarray(0, 4), '0482012c'],
  ['short form up to 127', () => der.octetString(Buffer.alloc(127)).subarray(0, 2), '047f'],
];

test('DER encodings, byte for byte', () => {
  for (const [what, encode, expected] of ENCODINGS) assert.equal(hex(encode()), expected, what);
});

test('readTlv and children walk what the encoders make', () => {
  const bytes = der.sequence(der.integer(2), der.octetString(Buffer.alloc(300)), der.sequence());
  const outer = der.readTlv(bytes);
  assert.deepEqual(outer, { tag: 0x30, offset: 0, start: 4, end: bytes.length });
  assert.deepEqual(der.children(bytes, outer).map(({ tag, offset, start, end }) => [tag, offset, start, end]),
    [[0x02, 4, 6, 7], [0x04, 7, 11, 311], [0x30, 311, 313, 313]]);
});

// [what, bytes]
const REFUSED = [
  ['no length byte', [0x30]],
  ['content past the end', [0x04, 0x03, 0x00]],
  ['indefinite length', [0x30, 0x80, 0x00, 0x00]],
  ['length of more than 4 bytes', [0x04, 0x85, 0, 0, 0, 0, 1, 0]],
  ['long length past the end', [0x04, 0x82, 0x01]],
];

test('readTlv refuses truncated and indefinite lengths', () => {
  for (const [what, bytes] of REFUSED) assert.throws(() => der.readTlv(Buffer.from(bytes)), RangeError, what);
});
