'use strict';
// server/engines/h2/stream.js: the stream state machine of RFC 9113 5.1, every event in every state.

const test = require('node:test');
const assert = require('node:assert/strict');
const { Stream, STATE } = require('../../server/engines/h2/stream');

const { OPEN, HALF_CLOSED_REMOTE: HCR, HALF_CLOSED_LOCAL: HCL, CLOSED } = STATE;
const REQUEST = { headers: {}, contentLength: -1, listSize: 0 };

// [state, event, state after or null where 5.1 allows no such change]
const TABLE = [
  [OPEN, 'recvEndStream', HCR],
  [OPEN, 'sendEndStream', HCL],
  [OPEN, 'reset', CLOSED],
  [HCR, 'recvEndStream', null],
  [HCR, 'sendEndStream', CLOSED],
  [HCR, 'reset', CLOSED],
  [HCL, 'recvEndStream', CLOSED],
  [HCL, 'sendEndStream', null],
  [HCL, 'reset', CLOSED],
  [CLOSED, 'recvEndStream', null],
  [CLOSED, 'sendEndStream', null],
  [CLOSED, 'reset', null],
];

test('a new stream is open', () => {
  const stream = new Stream(1, 65535, null, REQUEST);
  assert.deepEqual([stream.state, stream.remoteEnded, stream.closed], [OPEN, false, false]);
});

for (const [from, event, to] of TABLE) {
  test(`${event} in ${from}: ${to ?? 'refused'}`, () => {
    const stream = new Stream(3, 65535, null, REQUEST);
    stream.state = from;
    if (to === null) {
      assert.throws(() => stream.transition(event), { message: `http2 stream 3: ${event} in state ${from}` });
      assert.equal(stream.state, from);
      return;
    }
    stream.transition(event);
    assert.equal(stream.state, to);
    assert.equal(stream.remoteEnded, to === HCR || to === CLOSED);
    assert.equal(stream.closed, to === CLOSED);
  });
}

test('an unknown event is refused', () => {
  const stream = new Stream(5, 65535, null, REQUEST);
  assert.throws(() => stream.transition('push'), { message: 'http2 stream 5: push in state open' });
});
