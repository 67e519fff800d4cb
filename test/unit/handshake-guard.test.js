'use strict';
// server/engines/handshake-guard.js against a fake listener, fake sockets and a fake clock; its
// ear for the C transport's guard against fake 'handshakes' reports.

const test = require('node:test');
const assert = require('node:assert/strict');
const { EventEmitter } = require('node:events');
const { guardHandshakes, heedTransportHandshakes, maxPendingHandshakes, openFileLimit } = require('../../server/engines/handshake-guard');

class FakeSocket extends EventEmitter {
  constructor(port) {
    super();
    this.remoteAddress = '127.0.0.1';
    this.remotePort = port;
    this.destroyed = false;
  }

  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('close');
  }
}

// A clock whose timers run only when advanced.
function fakeTimers() {
  let now = 0;
  let timers = [];
  return {
    now: () => now,
    setTimeout(fn, ms) {
      const timer = { at: now + ms, fn };
      timers.push(timer);
      return timer;
    },
    clearTimeout(timer) { timers = timers.filter((t) => t !== timer); },
    advanceTo(ms) {
      now = ms;
      for (;;) {
        const due = timers.filter((t) => t.at <= now).sort((a, b) => a.at - b.at)[0];
        if (due === undefined) return;
        timers = timers.filter((t) => t !== due);
        due.fn();
      }
    },
  };
}

function guarded(options = {}) {
  const server = new EventEmitter();
  const timers = fakeTimers();
  const lines = [];
  const guard = guardHandshakes(server, { deadlineMs: 300, maxPending: 3, log: { debug: (m) => lines.push(m) }, timers, ...options });
  const arrive = (port) => {
    const socket = new FakeSocket(port);
    server.emit('connection', socket);
    return socket;
  };
  return { server, timers, guard, arrive, lines };
}

test('maxPendingHandshakes: a quarter of the descriptor limit, within [16, 768] (48 MiB at 64 KiB each); 256 when unknown', () => {
  for (const [limit, expected] of [[null, 256], [256, 64], [1024, 256], [3072, 768], [4096, 768], [40, 16], [20_000, 768], [Infinity, 768]]) {
    assert.equal(maxPendingHandshakes(limit), expected, `limit ${limit}`);
  }
});

test('openFileLimit reads the soft limit from /proc/self/limits text', () => {
  const row = (soft) => `Limit                     Soft Limit           Hard Limit           Units\nMax open files            ${soft}                 4096                 files\n`;
  for (const [text, expected] of [[row('1024'), 1024], [row('unlimited'), Infinity], ['garbage', null], [null, null]]) {
    assert.equal(openFileLimit(text), expected);
  }
});

test('each unfinished handshake is dropped at its own deadline, in arrival order', () => {
  const { timers, arrive, guard } = guarded();
  const first = arrive(1000);
  timers.advanceTo(100);
  const second = arrive(1001);
  timers.advanceTo(299);
  assert.deepEqual([first.destroyed, second.destroyed, guard.pending], [false, false, 2]);
  timers.advanceTo(300);
  assert.deepEqual([first.destroyed, second.destroyed, guard.pending], [true, false, 1]);
  timers.advanceTo(400);
  assert.deepEqual([first.destroyed, second.destroyed, guard.pending], [true, true, 0]);
});

test('a handshake that finishes is never dropped; the next one keeps its deadline', () => {
  const { server, timers, arrive, guard } = guarded();
  const done = arrive(1000);
  timers.advanceTo(50);
  const late = arrive(1001);
  server.emit('secureConnection', new FakeSocket(1000));
  assert.equal(guard.pending, 1);
  timers.advanceTo(349);
  assert.deepEqual([done.destroyed, late.destroyed], [false, false]);
  timers.advanceTo(350);
  assert.deepEqual([done.destroyed, late.destroyed], [false, true]);
});

test('past maxPending the oldest unfinished handshake is dropped at once', () => {
  const { arrive, guard, lines } = guarded();
  const sockets = [1000, 1001, 1002, 1003].map(arrive);
  assert.deepEqual(sockets.map((s) => s.destroyed), [true, false, false, false]);
  assert.equal(guard.pending, 3);
  assert.deepEqual(lines, ['tls handshake from 127.0.0.1|1000 dropped: more than 3 handshakes unfinished']);
});

test('a TLS client error destroys the TLS socket and forgets the connection', () => {
  const { server, arrive, guard, lines } = guarded();
  arrive(1000);
  const tlsSocket = new FakeSocket(1000);
  server.emit('tlsClientError', new Error('wrong version number'), tlsSocket);
  assert.deepEqual([tlsSocket.destroyed, guard.pending, lines], [true, 0, ['tls error: wrong version number']]);
});

test('a connection closed by its peer is forgotten; one already gone is never tracked', () => {
  const { server, arrive, guard } = guarded();
  arrive(1000).emit('close');
  assert.equal(guard.pending, 0);
  server.emit('connection', new FakeSocket(undefined));
  assert.equal(guard.pending, 0);
});

test('each drop is told to the metrics with its reason: over_cap at once, deadline when due, a TLS error by its code', () => {
  const reasons = [];
  const { server, arrive, timers } = guarded({ metrics: { handshakeDropped: (reason) => reasons.push(reason) } });
  for (const port of [1, 2, 3, 4]) arrive(port);
  assert.deepEqual(reasons, ['over_cap']);
  timers.advanceTo(300);
  assert.deepEqual(reasons, ['over_cap', 'deadline', 'deadline', 'deadline']);
  server.emit('tlsClientError', Object.assign(new Error('timed out'), { code: 'ERR_TLS_HANDSHAKE_TIMEOUT' }), arrive(5));
  server.emit('tlsClientError', new Error('wrong version number'), arrive(6));
  assert.deepEqual(reasons.slice(4), ['deadline', 'tls_error']);
});

test('memory is given back once, a second after a surge of 64 unfinished handshakes has gone, not after 63', () => {
  for (const [surge, expected] of [[64, 1], [63, 0]]) {
    let released = 0;
    const { timers, arrive, guard } = guarded({ maxPending: 1000, release: () => { released++; return true; } });
    const sockets = Array.from({ length: surge }, (_, i) => arrive(2000 + i));
    timers.advanceTo(100);
    for (const socket of sockets) socket.destroy();
    assert.equal(guard.pending, 0);
    timers.advanceTo(1099);
    assert.equal(released, 0, `${surge}: not before the delay`);
    timers.advanceTo(1100);
    assert.equal(released, expected, `surge of ${surge}`);
  }
});

// The C transport reports per turn of its loop: drops by reason, the most pending since the last
// report, and how many now. A surge is its peak, even when it rose and fell between two reports.
test('C transport reports: drops counted by reason; memory given back a second after a surge of 64 ends, not 63', () => {
  for (const [peak, expected] of [[64, 1], [63, 0]]) {
    const server = new EventEmitter();
    const timers = fakeTimers();
    const drops = [];
    let released = 0;
    heedTransportHandshakes(server, {
      metrics: { handshakeDropped: (reason, count) => drops.push([reason, count]) },
      release: () => { released++; return true; },
      timers,
    });
    server.emit('handshakes', { dropped: { deadline: 2, over_cap: 0, tls_error: 1 }, peak: 10, pending: 8 });
    assert.deepEqual(drops, [['deadline', 2], ['tls_error', 1]]);
    server.emit('handshakes', { dropped: { deadline: 0, over_cap: 5, tls_error: 0 }, peak, pending: 0 });
    assert.deepEqual(drops.at(-1), ['over_cap', 5]);
    timers.advanceTo(999);
    assert.equal(released, 0, `${peak}: not before the delay`);
    timers.advanceTo(1000);
    assert.equal(released, expected, `surge of ${peak}`);
  }
});
