'use strict';
// The native engine's frame reader: preface check, frames split anywhere across reads,
// the frame size limit, and that nothing is read after an error or a stop.

const test = require('node:test');
const assert = require('node:assert/strict');
const { FrameReader } = require('../../server/engines/h2/frame-reader');
const { PREFACE } = require('../../server/engines/h2/frame-types');
const { ERROR, ConnectionError } = require('../../server/engines/h2/errors');
const { frame } = require('../helpers/h2-frames');

function readAll(chunks, maxFrameSize = 16384, stopAfter = Infinity) {
  const reader = new FrameReader(maxFrameSize);
  const frames = [];
  let error = null;
  for (const chunk of chunks) {
    try {
      reader.push(chunk, (type, flags, streamId, payload) => {
        frames.push({ type, flags, streamId, payload: Buffer.from(payload).toString('hex') });
        return frames.length < stopAfter;
      });
    } catch (err) {
      error ??= err;
    }
  }
  return { frames, error };
}

const settings = frame(0x4, 0, 0, Buffer.from('000300000064', 'hex'));
const ping = frame(0x6, 0, 0, Buffer.from('0102030405060708', 'hex'));
const stream = Buffer.concat([PREFACE, settings, ping]);
const expected = [
  { type: 4, flags: 0, streamId: 0, payload: '000300000064' },
  { type: 6, flags: 0, streamId: 0, payload: '0102030405060708' },
];

test('frames come out whole however the bytes are split', () => {
  for (let cut = 0; cut <= stream.length; cut++) {
    const { frames, error } = readAll([stream.subarray(0, cut), stream.subarray(cut)]);
    assert.equal(error, null, `cut at ${cut}`);
    assert.deepEqual(frames, expected, `cut at ${cut}`);
  }
  const bytewise = readAll([...stream].map((b) => Buffer.from([b])));
  assert.deepEqual(bytewise.frames, expected);
});

test('the reserved bit of the stream identifier is ignored (4.1)', () => {
  const f = frame(0x0, 0x1, 3, Buffer.from('ab', 'hex'));
  f[5] |= 0x80;
  assert.deepEqual(readAll([PREFACE, f]).frames, [{ type: 0, flags: 1, streamId: 3, payload: 'ab' }]);
});

const bad = [
  { name: 'an HTTP/1.1 request instead of the preface', chunks: [Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n')], code: ERROR.PROTOCOL_ERROR },
  { name: 'a preface wrong in its last byte', chunks: [Buffer.concat([PREFACE.subarray(0, 23), Buffer.from('x')])], code: ERROR.PROTOCOL_ERROR },
  { name: 'a preface wrong in a later read', chunks: [PREFACE.subarray(0, 5), Buffer.from('x')], code: ERROR.PROTOCOL_ERROR },
  { name: 'a frame over SETTINGS_MAX_FRAME_SIZE', chunks: [PREFACE, frame(0x0, 0, 1, Buffer.alloc(16385))], code: ERROR.FRAME_SIZE_ERROR },
  { name: 'an oversized frame header alone', chunks: [PREFACE, Buffer.from('ffffff000000000001', 'hex')], code: ERROR.FRAME_SIZE_ERROR },
];

for (const { name, chunks, code } of bad) {
  test(`connection error for ${name}`, () => {
    const { frames, error } = readAll([...chunks, ping]);
    assert.ok(error instanceof ConnectionError);
    assert.equal(error.code, code);
    assert.deepEqual(frames, [], 'nothing is read after the error');
  });
}

test('a frame of exactly SETTINGS_MAX_FRAME_SIZE is accepted', () => {
  const { frames, error } = readAll([PREFACE, frame(0x0, 0, 1, Buffer.alloc(16384))]);
  assert.equal(error, null);
  assert.equal(frames.length, 1);
});

test('onFrame returning false stops the reader for good', () => {
  const { frames } = readAll([stream, ping], 16384, 1);
  assert.equal(frames.length, 1);
});
