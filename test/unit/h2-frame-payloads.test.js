'use strict';
// Frame payloads decoded apart from the connection (frame-payloads.js): for every frame type,
// the fields of valid payloads and the exact error (connection or stream, and its code) of
// malformed ones.

const test = require('node:test');
const assert = require('node:assert/strict');
const p = require('../../server/engines/h2/frame-payloads');
const { FLAG } = require('../../server/engines/h2/frame-types');
const { ERROR, ConnectionError, StreamError } = require('../../server/engines/h2/errors');

const hex = (s) => Buffer.from(s, 'hex');
const { PADDED, PRIORITY, ACK, END_HEADERS } = FLAG;

// What a decoder gave, comparable with deepEqual: Buffers as hex, errors as their kind and code.
function outcome(decode) {
  let result;
  try {
    result = decode();
  } catch (err) {
    if (err instanceof ConnectionError) return { connectionError: err.code };
    throw err;
  }
  const out = {};
  for (const [key, value] of Object.entries(result)) {
    if (Buffer.isBuffer(value)) out[key] = value.toString('hex');
    else if (value instanceof StreamError) out[key] = { streamError: value.code, streamId: value.streamId };
    else out[key] = value;
  }
  return out;
}

const cases = [
  // DATA (6.1)
  ['DATA', 'unpadded', () => p.decodeDataPayload(0, hex('abcd'), 1), { data: 'abcd' }],
  ['DATA', 'empty', () => p.decodeDataPayload(0, hex(''), 1), { data: '' }],
  ['DATA', 'padded', () => p.decodeDataPayload(PADDED, hex('02abcd0000'), 1), { data: 'abcd' }],
  ['DATA', 'padding only', () => p.decodeDataPayload(PADDED, hex('020000'), 1), { data: '' }],
  ['DATA', 'pad length of 0', () => p.decodeDataPayload(PADDED, hex('00ab'), 1), { data: 'ab' }],
  ['DATA', 'on stream 0', () => p.decodeDataPayload(0, hex('ab'), 0), { connectionError: ERROR.PROTOCOL_ERROR }],
  ['DATA', 'PADDED without its pad length', () => p.decodeDataPayload(PADDED, hex(''), 1), { connectionError: ERROR.PROTOCOL_ERROR }],
  ['DATA', 'pad length equal to the rest plus one', () => p.decodeDataPayload(PADDED, hex('030000'), 1), { connectionError: ERROR.PROTOCOL_ERROR }],
  ['DATA', 'pad length past the payload', () => p.decodeDataPayload(PADDED, hex('ff00'), 1), { connectionError: ERROR.PROTOCOL_ERROR }],
  // HEADERS (6.2)
  ['HEADERS', 'plain', () => p.decodeHeadersPayload(END_HEADERS, hex('8287'), 1), { fragment: '8287', priority: null, error: null }],
  ['HEADERS', 'padded', () => p.decodeHeadersPayload(PADDED, hex('0282870000'), 3), { fragment: '8287', priority: null, error: null }],
  ['HEADERS', 'with priority', () => p.decodeHeadersPayload(PRIORITY, hex('800000010f8287'), 3),
    { fragment: '8287', priority: { exclusive: true, dependency: 1, weight: 16 }, error: null }],
  ['HEADERS', 'padded with priority', () => p.decodeHeadersPayload(PADDED | PRIORITY, hex('0100000000ff8200'), 5),
    { fragment: '82', priority: { exclusive: false, dependency: 0, weight: 256 }, error: null }],
  ['HEADERS', 'empty fragment', () => p.decodeHeadersPayload(0, hex(''), 1), { fragment: '', priority: null, error: null }],
  ['HEADERS', 'depending on itself', () => p.decodeHeadersPayload(PRIORITY, hex('00000003008287'), 3),
    { fragment: '8287', priority: { exclusive: false, dependency: 3, weight: 1 }, error: { streamError: ERROR.PROTOCOL_ERROR, streamId: 3 } }],
  ['HEADERS', 'exclusive on itself', () => p.decodeHeadersPayload(PRIORITY, hex('8000000300'), 3),
    { fragment: '', priority: { exclusive: true, dependency: 3, weight: 1 }, error: { streamError: ERROR.PROTOCOL_ERROR, streamId: 3 } }],
  ['HEADERS', 'on stream 0', () => p.decodeHeadersPayload(0, hex('82'), 0), { connectionError: ERROR.PROTOCOL_ERROR }],
  ['HEADERS', 'on an even stream', () => p.decodeHeadersPayload(0, hex('82'), 2), { connectionError: ERROR.PROTOCOL_ERROR }],
  ['HEADERS', 'PADDED without its pad length', () => p.decodeHeadersPayload(PADDED, hex(''), 1), { connectionError: ERROR.PROTOCOL_ERROR }],
  ['HEADERS', 'pad length past the payload', () => p.decodeHeadersPayload(PADDED, hex('0582'), 1), { connectionError: ERROR.PROTOCOL_ERROR }],
  ['HEADERS', 'pad length of the whole rest', () => p.decodeHeadersPayload(PADDED, hex('020000'), 1), { fragment: '', priority: null, error: null }],
  ['HEADERS', 'priority cut short', () => p.decodeHeadersPayload(PRIORITY, hex('00000001'), 1), { connectionError: ERROR.PROTOCOL_ERROR }],
  ['HEADERS', 'padding eating into the priority', () => p.decodeHeadersPayload(PADDED | PRIORITY, hex('02000000010f00'), 1), { connectionError: ERROR.PROTOCOL_ERROR }],
  // PRIORITY (6.3)
  ['PRIORITY', 'valid', () => p.decodePriorityPayload(hex('0000000107'), 3), { priority: { exclusive: false, dependency: 1, weight: 8 }, error: null }],
  ['PRIORITY', 'on an idle even stream', () => p.decodePriorityPayload(hex('80000001ff'), 4), { priority: { exclusive: true, dependency: 1, weight: 256 }, error: null }],
  ['PRIORITY', 'depending on itself', () => p.decodePriorityPayload(hex('0000000507'), 5),
    { priority: { exclusive: false, dependency: 5, weight: 8 }, error: { streamError: ERROR.PROTOCOL_ERROR, streamId: 5 } }],
  ['PRIORITY', 'too short', () => p.decodePriorityPayload(hex('00000001'), 5), { priority: null, error: { streamError: ERROR.FRAME_SIZE_ERROR, streamId: 5 } }],
  ['PRIORITY', 'too long', () => p.decodePriorityPayload(hex('000000010700'), 5), { priority: null, error: { streamError: ERROR.FRAME_SIZE_ERROR, streamId: 5 } }],
  ['PRIORITY', 'on stream 0', () => p.decodePriorityPayload(hex('0000000107'), 0), { connectionError: ERROR.PROTOCOL_ERROR }],
  ['PRIORITY', 'on stream 0 and too short', () => p.decodePriorityPayload(hex(''), 0), { connectionError: ERROR.PROTOCOL_ERROR }],
  // RST_STREAM (6.4)
  ['RST_STREAM', 'valid', () => p.decodeRstStreamPayload(hex('00000008'), 1), { errorCode: ERROR.CANCEL }],
  ['RST_STREAM', 'unknown code', () => p.decodeRstStreamPayload(hex('ffffffff'), 1), { errorCode: 0xffffffff }],
  ['RST_STREAM', 'too short', () => p.decodeRstStreamPayload(hex('000008'), 1), { connectionError: ERROR.FRAME_SIZE_ERROR }],
  ['RST_STREAM', 'too long', () => p.decodeRstStreamPayload(hex('0000000800'), 1), { connectionError: ERROR.FRAME_SIZE_ERROR }],
  ['RST_STREAM', 'on stream 0', () => p.decodeRstStreamPayload(hex('00000008'), 0), { connectionError: ERROR.PROTOCOL_ERROR }],
  ['RST_STREAM', 'on stream 0 with a wrong length (length first)', () => p.decodeRstStreamPayload(hex('00'), 0), { connectionError: ERROR.FRAME_SIZE_ERROR }],
  // SETTINGS (6.5)
  ['SETTINGS', 'entries', () => p.decodeSettingsPayload(0, hex('000300000064'), 0), { ack: false }],
  ['SETTINGS', 'empty', () => p.decodeSettingsPayload(0, hex(''), 0), { ack: false }],
  ['SETTINGS', 'ACK', () => p.decodeSettingsPayload(ACK, hex(''), 0), { ack: true }],
  ['SETTINGS', 'ACK with a payload', () => p.decodeSettingsPayload(ACK, hex('000300000064'), 0), { connectionError: ERROR.FRAME_SIZE_ERROR }],
  ['SETTINGS', 'length not a multiple of 6', () => p.decodeSettingsPayload(0, hex('0003000000'), 0), { connectionError: ERROR.FRAME_SIZE_ERROR }],
  ['SETTINGS', 'on a stream', () => p.decodeSettingsPayload(0, hex('000300000064'), 1), { connectionError: ERROR.PROTOCOL_ERROR }],
  ['SETTINGS', 'on a stream with a wrong length (stream first)', () => p.decodeSettingsPayload(0, hex('00'), 1), { connectionError: ERROR.PROTOCOL_ERROR }],
  // PING (6.7)
  ['PING', 'valid', () => p.decodePingPayload(0, hex('0102030405060708'), 0), { ack: false, data: '0102030405060708' }],
  ['PING', 'ACK', () => p.decodePingPayload(ACK, hex('0102030405060708'), 0), { ack: true, data: '0102030405060708' }],
  ['PING', 'too short', () => p.decodePingPayload(0, hex('01020304050607'), 0), { connectionError: ERROR.FRAME_SIZE_ERROR }],
  ['PING', 'too long', () => p.decodePingPayload(0, hex('010203040506070809'), 0), { connectionError: ERROR.FRAME_SIZE_ERROR }],
  ['PING', 'ACK too short', () => p.decodePingPayload(ACK, hex(''), 0), { connectionError: ERROR.FRAME_SIZE_ERROR }],
  ['PING', 'on a stream', () => p.decodePingPayload(0, hex('0102030405060708'), 1), { connectionError: ERROR.PROTOCOL_ERROR }],
  ['PING', 'on a stream with a wrong length (stream first)', () => p.decodePingPayload(0, hex('01'), 1), { connectionError: ERROR.PROTOCOL_ERROR }],
  // GOAWAY (6.8)
  ['GOAWAY', 'valid', () => p.decodeGoawayPayload(hex('0000000500000000'), 0), { lastStreamId: 5, errorCode: ERROR.NO_ERROR, debugData: '' }],
  ['GOAWAY', 'debug data, reserved bit', () => p.decodeGoawayPayload(hex('800000070000000b6869'), 0),
    { lastStreamId: 7, errorCode: ERROR.ENHANCE_YOUR_CALM, debugData: '6869' }],
  ['GOAWAY', 'too short', () => p.decodeGoawayPayload(hex('00000005000000'), 0), { connectionError: ERROR.FRAME_SIZE_ERROR }],
  ['GOAWAY', 'on a stream', () => p.decodeGoawayPayload(hex('0000000500000000'), 1), { connectionError: ERROR.PROTOCOL_ERROR }],
  ['GOAWAY', 'on a stream and too short (stream first)', () => p.decodeGoawayPayload(hex(''), 1), { connectionError: ERROR.PROTOCOL_ERROR }],
  // WINDOW_UPDATE (6.9)
  ['WINDOW_UPDATE', 'on stream 0', () => p.decodeWindowUpdatePayload(hex('00001000'), 0), { increment: 4096, error: null }],
  ['WINDOW_UPDATE', 'on a stream, reserved bit', () => p.decodeWindowUpdatePayload(hex('ffffffff'), 1), { increment: 0x7fffffff, error: null }],
  ['WINDOW_UPDATE', 'increment 0 on stream 0', () => p.decodeWindowUpdatePayload(hex('00000000'), 0), { connectionError: ERROR.PROTOCOL_ERROR }],
  ['WINDOW_UPDATE', 'increment 0 (reserved bit set) on stream 0', () => p.decodeWindowUpdatePayload(hex('80000000'), 0), { connectionError: ERROR.PROTOCOL_ERROR }],
  ['WINDOW_UPDATE', 'increment 0 on a stream', () => p.decodeWindowUpdatePayload(hex('00000000'), 3),
    { increment: 0, error: { streamError: ERROR.PROTOCOL_ERROR, streamId: 3 } }],
  ['WINDOW_UPDATE', 'too short', () => p.decodeWindowUpdatePayload(hex('000010'), 0), { connectionError: ERROR.FRAME_SIZE_ERROR }],
  ['WINDOW_UPDATE', 'too long on a stream', () => p.decodeWindowUpdatePayload(hex('0000100000'), 1), { connectionError: ERROR.FRAME_SIZE_ERROR }],
];

for (const [type, name, decode, expected] of cases) {
  test(`${type}: ${name}`, () => {
    assert.deepEqual(outcome(decode), expected);
  });
}

test('an unpadded payload is handed back without a copy or a view', () => {
  const payload = hex('8287');
  assert.equal(p.decodeDataPayload(0, payload, 1).data, payload);
  assert.equal(p.decodeHeadersPayload(0, payload, 1).fragment, payload);
});
