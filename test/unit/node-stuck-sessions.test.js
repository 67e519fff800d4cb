'use strict';
// The node engine's sweep for HTTP/2 sessions nghttp2 stopped serving
// (server/engines/node/stuck-sessions.js): destroyed at the second sweep in a row that finds
// frames queued in nghttp2, nothing queued in the socket and no byte written since the sweep
// before; never a session that writes, waits on its socket, or has nothing to send.

const test = require('node:test');
const assert = require('node:assert/strict');
const { sweepStuckSessions } = require('../../server/engines/node/stuck-sessions');

class FakeSession {
  constructor() {
    this.destroyed = false;
    this.socket = { bytesWritten: 100, writableLength: 0 };
    this.state = { outboundQueueSize: 0 };
  }

  destroy() { this.destroyed = true; }
}

// steps: per sweep, the session's { queued (nghttp2 frames), socketQueued, wrote (bytes since
// the sweep before) }; returns the sweep (1-based) that destroyed it, or null.
function run(steps) {
  const session = new FakeSession();
  const sessions = new Map([[session, {}]]);
  for (const [i, { queued = 0, socketQueued = 0, wrote = 0 }] of steps.entries()) {
    session.state.outboundQueueSize = queued;
    session.socket.writableLength = socketQueued;
    session.socket.bytesWritten += wrote;
    if (sweepStuckSessions(sessions) === 1) {
      assert.equal(session.destroyed, true);
      return i + 1;
    }
  }
  return null;
}

const STUCK = { queued: 1 };
const CASES = [
  ['frames queued, nothing written: destroyed at the third sweep (the first only records)', [STUCK, STUCK, STUCK], 3],
  ['nothing to send: never', [{}, {}, {}, {}], null],
  ['frames queued but bytes going out: never', [STUCK, { queued: 1, wrote: 10 }, { queued: 1, wrote: 10 }, { queued: 1, wrote: 1 }], null],
  ['waiting on a slow reader (bytes queued in the socket): never', [{ queued: 1, socketQueued: 5 }, { queued: 1, socketQueued: 5 }, { queued: 1, socketQueued: 5 }], null],
  ['a write in between starts the count again', [STUCK, STUCK, { queued: 1, wrote: 1 }, STUCK, STUCK], 5],
  ['the queue emptied in between starts it again', [STUCK, STUCK, {}, STUCK, STUCK], 5],
];

for (const [name, steps, expected] of CASES) {
  test(`stuck sessions: ${name}`, () => {
    assert.equal(run(steps), expected);
  });
}

test('stuck sessions: a destroyed session is left alone', () => {
  const session = new FakeSession();
  session.destroyed = true;
  session.state.outboundQueueSize = 1;
  const sessions = new Map([[session, {}]]);
  assert.deepEqual([sweepStuckSessions(sessions), sweepStuckSessions(sessions), sweepStuckSessions(sessions)], [0, 0, 0]);
});
