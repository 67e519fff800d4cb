'use strict';
// server/engines/h2/stream.js: the stream state machine of RFC 9113 5.1, and where a response
// stands (response-lifecycle.js, HTTP/2's and HTTP/3's), every event in every state, and
// lifecycle.js, the convention both follow.

const test = require('node:test');
const assert = require('node:assert/strict');
const { Stream, STATE, STREAM_TRANSITIONS } = require('../../server/engines/h2/stream');
const { RESPONSE, RESPONSE_TRANSITIONS } = require('../../server/engines/response-lifecycle');
const { Lifecycle, transitions } = require('../../server/engines/lifecycle');

const { OPEN, HALF_CLOSED_REMOTE: HCR, HALF_CLOSED_LOCAL: HCL, CLOSED } = STATE;
const { WAITING, DECIDING, SENDING, DONE } = RESPONSE;
const REQUEST = { headers: {}, contentLength: -1, listSize: 0 };

// [table, state, event, state after or null where the lifecycle allows no such change]
const CASES = [
  [STREAM_TRANSITIONS, OPEN, 'recvEndStream', HCR],
  [STREAM_TRANSITIONS, OPEN, 'sendEndStream', HCL],
  [STREAM_TRANSITIONS, OPEN, 'reset', CLOSED],
  [STREAM_TRANSITIONS, HCR, 'recvEndStream', null],
  [STREAM_TRANSITIONS, HCR, 'sendEndStream', CLOSED],
  [STREAM_TRANSITIONS, HCR, 'reset', CLOSED],
  [STREAM_TRANSITIONS, HCL, 'recvEndStream', CLOSED],
  [STREAM_TRANSITIONS, HCL, 'sendEndStream', null],
  [STREAM_TRANSITIONS, HCL, 'reset', CLOSED],
  [STREAM_TRANSITIONS, CLOSED, 'recvEndStream', null],
  [STREAM_TRANSITIONS, CLOSED, 'sendEndStream', null],
  [STREAM_TRANSITIONS, CLOSED, 'reset', null],
  [STREAM_TRANSITIONS, OPEN, 'push', null],
  [RESPONSE_TRANSITIONS, WAITING, 'dispatch', DECIDING],
  [RESPONSE_TRANSITIONS, WAITING, 'respond', null],
  [RESPONSE_TRANSITIONS, WAITING, 'finish', null],
  [RESPONSE_TRANSITIONS, DECIDING, 'dispatch', null],
  [RESPONSE_TRANSITIONS, DECIDING, 'respond', SENDING],
  [RESPONSE_TRANSITIONS, DECIDING, 'finish', null],
  [RESPONSE_TRANSITIONS, SENDING, 'dispatch', null],
  [RESPONSE_TRANSITIONS, SENDING, 'respond', null],
  [RESPONSE_TRANSITIONS, SENDING, 'finish', DONE],
  [RESPONSE_TRANSITIONS, DONE, 'dispatch', null],
  [RESPONSE_TRANSITIONS, DONE, 'respond', null],
  [RESPONSE_TRANSITIONS, DONE, 'finish', null],
];

test('a new stream is open and waits for its request', () => {
  const stream = new Stream(1, 65535, null, REQUEST);
  assert.deepEqual([stream.state, stream.phase, stream.remoteEnded, stream.closed], [OPEN, WAITING, false, false]);
});

for (const [table, from, event, to] of CASES) {
  const kind = table === STREAM_TRANSITIONS ? 'stream' : 'response';
  test(`${kind}: ${event} in ${from}: ${to ?? 'refused'}`, () => {
    const lifecycle = new Lifecycle('http2 stream 3', table, from);
    if (to === null) {
      assert.throws(() => lifecycle.advance(event), (err) => err.code === 'ERR_LIFECYCLE' && err.message === `http2 stream 3: ${event} in state ${from}`);
      assert.equal(lifecycle.state, from);
      return;
    }
    assert.equal(lifecycle.advance(event), to);
    assert.equal(lifecycle.state, to);
  });
}

test('remoteEnded and closed follow the stream\'s state', () => {
  for (const [events, remoteEnded, closed] of [
    [[], false, false], [['recvEndStream'], true, false], [['sendEndStream'], false, false],
    [['sendEndStream', 'recvEndStream'], true, true], [['reset'], true, true],
  ]) {
    const stream = new Stream(7, 65535, null, REQUEST);
    for (const event of events) stream.lifecycle.advance(event);
    assert.deepEqual([stream.remoteEnded, stream.closed], [remoteEnded, closed], events.join(', '));
  }
});

test('the sink\'s finished() ends the response, and only once it was sent', () => {
  const ended = [];
  const stream = new Stream(9, 65535, { finished: (s, outcome) => ended.push(outcome) }, REQUEST);
  assert.throws(() => stream.finished(null), { code: 'ERR_LIFECYCLE' });
  assert.deepEqual(ended, []);
  stream.responseLifecycle.advance('dispatch');
  stream.responseLifecycle.advance('respond');
  stream.finished('aborted');
  assert.deepEqual([stream.phase, ended], [DONE, ['aborted']]);
});

test('a lifecycle table naming a state that does not exist is refused when it is written', () => {
  assert.throws(() => transitions({ A: 'a' }, { go: { a: 'b' } }), /go a -> b names an unknown state/);
  assert.throws(() => transitions({ A: 'a' }, { go: { c: 'a' } }), /go c -> a names an unknown state/);
  assert.ok(Object.isFrozen(transitions({ A: 'a', B: 'b' }, { go: { a: 'b' } }).go));
});
