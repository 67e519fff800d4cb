'use strict';
// The HTTP/3 engine's pure codecs: varints (RFC 9000 16 and its A.1 examples), frames read
// across every chunk boundary with their limits (RFC 9114 7), and SETTINGS (7.2.4).

const test = require('node:test');
const assert = require('node:assert/strict');
const { encodeVarint, readVarint, varintLength } = require('../../server/engines/h3/varint');
const { FRAME, FrameReader, encodeFrame, frameHeader, frameKind } = require('../../server/engines/h3/frames');
const { encodeSettings, decodeSettings } = require('../../server/engines/h3/settings');
const { errorName } = require('../../server/engines/h3/errors');

// RFC 9000 A.1, plus each length's bounds.
const VARINTS = [
  ['c2197c5eff14e88c', 151288809941952652],
  ['9d7f3e7d', 494878333],
  ['7bbd', 15293],
  ['25', 37],
  ['00', 0],
  ['3f', 63],
  ['4040', 64],
  ['7fff', 16383],
  ['80004000', 16384],
  ['bfffffff', 2 ** 30 - 1],
  ['c000000040000000', 2 ** 30],
  ['c01fffffffffffff', Number.MAX_SAFE_INTEGER],
];

for (const [hex, value] of VARINTS) {
  test(`varint ${value} <-> ${hex}`, () => {
    const bytes = Buffer.from(hex, 'hex');
    assert.deepEqual(readVarint(bytes, 0), { value, length: bytes.length });
    if (value <= Number.MAX_SAFE_INTEGER && hex !== 'c2197c5eff14e88c') assert.equal(encodeVarint(value).toString('hex'), hex);
    assert.equal(varintLength(value), bytes.length);
    for (let cut = 0; cut < bytes.length; cut++) assert.equal(readVarint(bytes.subarray(0, cut), 0), null);
  });
}

test('varints out of range are refused', () => {
  for (const bad of [-1, 2 ** 62, 1.5]) assert.throws(() => encodeVarint(bad), RangeError);
});

test('the two-octet encoding of 37 (A.1) reads as 37', () => {
  assert.deepEqual(readVarint(Buffer.from('4025', 'hex'), 0), { value: 37, length: 2 });
});

// Reads `bytes` split at every pair of points; returns what the handler saw.
function readAll(bytes, cuts, maxLength = () => 1000) {
  const seen = [];
  const reader = new FrameReader(maxLength);
  const handler = {
    frame: (type, payload) => seen.push(['frame', type, payload.toString('hex')]),
    dataStart: (length) => seen.push(['data', length]),
    data: (piece) => { const last = seen.at(-1); if (last[0] === 'bytes') last[1] += piece.toString('hex'); else seen.push(['bytes', piece.toString('hex')]); },
    skipped: (type, length) => seen.push(['skip', type, length]),
  };
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    reader.push(bytes.subarray(at, cut), handler);
    at = cut;
  }
  return { seen, midFrame: reader.midFrame };
}

test('frames read the same across every chunk boundary', () => {
  const bytes = Buffer.concat([
    encodeFrame(FRAME.HEADERS, Buffer.from('abc')),
    encodeFrame(FRAME.DATA, Buffer.from('0123456789')),
    encodeFrame(0x21, Buffer.from('grease')),
    encodeFrame(FRAME.DATA, Buffer.alloc(0)),
    encodeFrame(FRAME.SETTINGS, Buffer.alloc(0)),
    encodeFrame(0x1234567, Buffer.from('z')),
  ]);
  const whole = readAll(bytes, []);
  assert.deepEqual(whole.seen, [
    ['frame', FRAME.HEADERS, '616263'],
    ['data', 10], ['bytes', Buffer.from('0123456789').toString('hex')],
    ['skip', 0x21, 6],
    ['data', 0],
    ['frame', FRAME.SETTINGS, ''],
    ['skip', 0x1234567, 1],
  ]);
  assert.equal(whole.midFrame, false);
  for (let i = 0; i <= bytes.length; i++) {
    for (let j = i; j <= bytes.length; j++) assert.deepEqual(readAll(bytes, [i, j]).seen, whole.seen, `cut at ${i}, ${j}`);
  }
  assert.equal(readAll(bytes.subarray(0, 3), []).midFrame, true);
  assert.equal(readAll(bytes.subarray(0, 1), []).midFrame, true);
});

test('frame kinds: HTTP/2-only types refused, reserved and unknown ones skipped', () => {
  assert.deepEqual([0x0, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xd, 0x21, 0x40].map(frameKind),
    ['data', 'whole', 'refused', 'whole', 'whole', 'whole', 'refused', 'whole', 'refused', 'refused', 'whole', 'skipped', 'skipped']);
  for (const type of [0x2, 0x6, 0x8, 0x9]) {
    assert.throws(() => readAll(encodeFrame(type, Buffer.alloc(1)), []), (err) => errorName(err.code) === 'H3_FRAME_UNEXPECTED');
  }
});

test('a whole frame past its bound is H3_EXCESSIVE_LOAD before its payload is buffered; DATA has no bound', () => {
  assert.throws(() => readAll(frameHeader(FRAME.HEADERS, 101), [], () => 100), (err) => errorName(err.code) === 'H3_EXCESSIVE_LOAD');
  assert.deepEqual(readAll(encodeFrame(FRAME.HEADERS, Buffer.alloc(100)), [], () => 100).seen.length, 1);
  assert.deepEqual(readAll(frameHeader(FRAME.DATA, 2 ** 40), [], () => 100).seen, [['data', 2 ** 40]]);
});

test('SETTINGS: ours round-trip; defaults for what is left out; reserved ids ignored', () => {
  const ours = { qpackMaxTableCapacity: 4096, qpackBlockedStreams: 16, maxFieldSectionSize: 32768 };
  assert.deepEqual(decodeSettings(encodeSettings(ours)), ours);
  assert.deepEqual(decodeSettings(Buffer.alloc(0)), { qpackMaxTableCapacity: 0, qpackBlockedStreams: 0, maxFieldSectionSize: Infinity });
  assert.deepEqual(decodeSettings(Buffer.concat([encodeVarint(0x21 + 0x1f * 9), encodeVarint(5), encodeVarint(0x33), encodeVarint(1)])).qpackBlockedStreams, 0);
});

const BAD_SETTINGS = [
  ['ENABLE_PUSH (HTTP/2)', '0200', 'H3_SETTINGS_ERROR'],
  ['MAX_CONCURRENT_STREAMS (HTTP/2)', '0320', 'H3_SETTINGS_ERROR'],
  ['INITIAL_WINDOW_SIZE (HTTP/2)', '0401', 'H3_SETTINGS_ERROR'],
  ['MAX_FRAME_SIZE (HTTP/2)', '0501', 'H3_SETTINGS_ERROR'],
  ['a duplicate', '06010602', 'H3_SETTINGS_ERROR'],
  ['a duplicate unknown id', '21002100', 'H3_SETTINGS_ERROR'],
  ['an id without its value', '01', 'H3_FRAME_ERROR'],
  ['a value cut short', '0140', 'H3_FRAME_ERROR'],
];

for (const [what, hex, code] of BAD_SETTINGS) {
  test(`SETTINGS with ${what} -> ${code}`, () => {
    assert.throws(() => decodeSettings(Buffer.from(hex, 'hex')), (err) => errorName(err.code) === code);
  });
}
