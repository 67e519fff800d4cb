'use strict';
// Under descriptor pressure the native listener closes the connections idle longest
// (server/engines/idle-shedding.js): only past the limit, a batch at a time, never a busy one,
// and never one it already closed and is still lingering.

const test = require('node:test');
const assert = require('node:assert/strict');
const { EventEmitter } = require('node:events');
const { IdleShedder, maxOpenConnections } = require('../../server/engines/idle-shedding');

class FakeConnection extends EventEmitter {
  constructor(name, idle) {
    super();
    this.name = name;
    this.idle = idle;
    this.closed = false;
  }

  idleMs() { return this.closed ? -1 : this.idle; }
  close() { this.closed = true; }
}

const silent = { debug() {} };

// idles: each connection's idleMs() (-1 busy), in opening order, named a, b, c, ...
function shed(max, idles) {
  const connections = new Set(idles.map((ms, i) => new FakeConnection(String.fromCharCode(97 + i), ms)));
  const shedder = new IdleShedder(max, silent);
  shedder.opened(connections);
  return { shedder, connections, closed: [...connections].filter((c) => c.closed).map((c) => c.name) };
}

const CASES = [
  ['at the limit: none', 4, [10, 20, 30, 40], []],
  ['one past the limit of 4 (batch 1): the idle longest', 4, [10, 50, 30, 40, 0], ['b']],
  ['busy connections are never chosen', 4, [-1, -1, -1, -1, 5], ['e']],
  ['all busy: none, whatever the excess', 2, [-1, -1, -1, -1], []],
  ['just active (0) counts as busy', 2, [0, 0, 0], []],
];

for (const [name, max, idles, expected] of CASES) {
  test(`idle shedding: ${name}`, () => {
    assert.deepEqual(shed(max, idles).closed, expected);
  });
}

test('idle shedding: 2 past a limit of 32 (batch 2) close 3, the idle longest, to go below it', () => {
  const idles = [...Array(30).fill(1), 9, 5, 7, 8];
  const closed = [...shed(32, idles).connections].filter((c) => c.closed).map((c) => c.idle);
  assert.deepEqual(closed.sort(), [7, 8, 9]);
});

test('idle shedding: connections it closed no longer count while they linger, and count again once gone', () => {
  const { shedder, connections } = shed(4, [10, 20, 30, 40, 50]);
  assert.deepEqual([...connections].filter((c) => c.closed).map((c) => c.name), ['e']);
  // Still in the set (lingering): 4 open, at the limit, so a new one past it sheds one more.
  connections.add(new FakeConnection('f', 1));
  assert.equal(shedder.opened(connections), 1);
  assert.deepEqual([...connections].filter((c) => c.closed).map((c) => c.name), ['d', 'e']);
  for (const c of [...connections]) if (c.closed) { connections.delete(c); c.emit('close'); }
  assert.equal(shedder.opened(connections), 0);
});

const LIMITS = [
  ['256 descriptors', 256, 160],
  ['unknown: as the handshake guard assumes, 256', null, 160],
  ['unlimited', Infinity, Infinity],
  ['1 descriptor: still 1', 1, 1],
];

for (const [name, fdLimit, expected] of LIMITS) {
  test(`max open connections: ${name}`, () => {
    assert.equal(maxOpenConnections(fdLimit), expected);
  });
}
