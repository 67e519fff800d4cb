'use strict';
// send-out.js against a fake sink that records what it is asked to do: each row gives a
// descriptor, the sink's behaviour and what happens to the body, and expects the exact calls,
// the outcome, the octet count and whether the body was released.

const test = require('node:test');
const assert = require('node:assert/strict');
const { Readable } = require('node:stream');
const { sendOut, statusHasBody } = require('../../server/engines/send-out');

const tick = () => new Promise((resolve) => setImmediate(resolve));

// takes(call, n): what start/write return (n counts the calls that carry content).
function fakeSink(takes = () => true) {
  const sink = {
    calls: [],
    sending: null,
    outcome: undefined,
    sent: undefined,
    contentCalls: 0,
    start(d, bytes, ends) {
      sink.calls.push(`start ${d.status} ${bytes === null ? 'null' : bytes.toString()} ${ends}`);
      return bytes === null ? true : takes('start', sink.contentCalls++);
    },
    write(chunk) {
      sink.calls.push(`write ${chunk}`);
      return takes('write', sink.contentCalls++);
    },
    end() { sink.calls.push('end'); },
    abort(err) { sink.calls.push(`abort ${err.code ?? err.message}`); },
    listen(sending) { sink.sending = sending; },
    finished(outcome, sent) {
      assert.equal(sink.outcome, undefined, 'finished() is called once');
      sink.calls.push('finished');
      sink.outcome = outcome;
      sink.sent = sent;
    },
  };
  return sink;
}

function stream() {
  return new Readable({ read() {} });
}

function descriptor(status, body, length) {
  const headers = length === undefined ? {} : { 'content-length': String(length) };
  return { status, headers, h2: null, body, coding: null };
}

const rows = [
  {
    name: 'no body: the head alone, complete at once',
    d: () => descriptor(204, null),
    calls: ['start 204 null true', 'finished'], outcome: null, sent: 0,
  },
  {
    name: 'a Buffer goes with the head, complete at once',
    d: () => descriptor(200, Buffer.from('abc'), 3),
    calls: ['start 200 abc true', 'finished'], outcome: null, sent: 3,
  },
  {
    name: 'HEAD: the head alone, a streamed body released',
    d: () => descriptor(200, stream(), 3), isHead: true,
    calls: ['start 200 null true', 'finished'], outcome: null, sent: 0, released: true,
  },
  {
    name: '304: no content whatever the descriptor carries',
    d: () => descriptor(304, Buffer.from('abc')),
    calls: ['start 304 null true', 'finished'], outcome: null, sent: 0,
  },
  {
    name: 'a Buffer the sink holds back completes on its drain()',
    d: () => descriptor(200, Buffer.from('abc'), 3), takes: () => false,
    async run(body, sink) {
      assert.deepEqual(sink.calls, ['start 200 abc true']);
      sink.sending.drain();
    },
    calls: ['start 200 abc true', 'finished'], outcome: null, sent: 3,
  },
  {
    name: 'a Readable: head, chunks, end',
    d: () => descriptor(200, stream(), 4),
    async run(body) {
      body.push('ab');
      body.push('cd');
      body.push(null);
    },
    calls: ['start 200 null false', 'write ab', 'write cd', 'end', 'finished'], outcome: null, sent: 4, released: true,
  },
  {
    name: 'backpressure: nothing more is read until the sink drains',
    d: () => descriptor(200, stream()), takes: (call, n) => n !== 0,
    async run(body, sink) {
      body.push('ab');
      body.push('cd');
      await tick();
      assert.deepEqual(sink.calls, ['start 200 null false', 'write ab']);
      assert.equal(body.isPaused(), true);
      sink.sending.drain();
      body.push(null);
    },
    calls: ['start 200 null false', 'write ab', 'write cd', 'end', 'finished'], outcome: null, sent: 4, released: true,
  },
  {
    name: 'the peer gone mid-stream: the body is released, no end',
    d: () => descriptor(200, stream()),
    async run(body, sink) {
      body.push('ab');
      await tick();
      sink.sending.close('reset by peer (CANCEL)');
      body.push('cd');
    },
    calls: ['start 200 null false', 'write ab', 'finished'], outcome: 'reset by peer (CANCEL)', sent: 2, released: true,
  },
  {
    name: 'a read error mid-stream aborts the response',
    d: () => descriptor(200, stream(), 10),
    async run(body) {
      body.push('ab');
      await tick();
      body.destroy(new Error('EIO'));
    },
    calls: ['start 200 null false', 'write ab', 'abort EIO', 'finished'], outcome: 'aborted', sent: 2, released: true,
  },
  {
    name: 'a body shorter than its content-length aborts instead of ending',
    d: () => descriptor(200, stream(), 10),
    async run(body) {
      body.push('ab');
      body.push(null);
    },
    calls: ['start 200 null false', 'write ab', 'abort body of 2 octets, not its content-length 10', 'finished'], outcome: 'aborted', sent: 2, released: true,
  },
  {
    name: 'no progress for sendTimeout: aborted as a stall',
    d: () => descriptor(200, stream()), takes: () => false, sendTimeout: 20,
    async run(body, sink) {
      body.push('ab');
      while (sink.outcome === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    },
    calls: ['start 200 null false', 'write ab', 'abort ERR_SEND_TIMEOUT', 'finished'], outcome: 'timed out', sent: 2, released: true,
  },
];

// A metrics meter (metrics/recorder.js) that records what it is told.
function fakeMeter() {
  const meter = {
    open: 0,
    opens: 0,
    counted: [],
    opened() { meter.open++; meter.opens++; },
    closed() { meter.open--; },
    finished(d, isHead, outcome, sent, startedAt) { meter.counted.push({ d, isHead, outcome, sent, startedAt }); },
    floodClosed() {},
  };
  return meter;
}

const STARTED_AT = 1234.5;

for (const row of rows) {
  test(`sendOut: ${row.name}`, async () => {
    const d = row.d();
    const sink = fakeSink(row.takes);
    const meter = fakeMeter();
    const isHead = row.isHead === true;
    sendOut(d, sink, isHead, row.sendTimeout ?? 0, meter, STARTED_AT);
    if (row.run) await row.run(d.body, sink);
    await tick();
    await tick();
    assert.deepEqual(sink.calls, row.calls);
    assert.equal(sink.outcome, row.outcome);
    assert.equal(sink.sent, row.sent);
    if (d.body !== null && !Buffer.isBuffer(d.body)) assert.equal(d.body.destroyed, row.released === true);
    // Counted once, as the sink was told; open while the body went on after start().
    assert.deepEqual(meter.counted, [{ d, isHead, outcome: row.outcome, sent: row.sent, startedAt: STARTED_AT }]);
    assert.equal(meter.open, 0);
  });
}

test('sendOut: a response is an open stream of its meter while its body goes on after start(), not when it went whole', async () => {
  const meter = fakeMeter();
  sendOut(descriptor(200, Buffer.from('abc'), 3), fakeSink(), false, 0, meter, STARTED_AT);
  assert.equal(meter.opens, 0);
  const d = descriptor(200, stream(), 2);
  sendOut(d, fakeSink(), false, 0, meter, STARTED_AT);
  assert.deepEqual([meter.open, meter.counted.length], [1, 1]);
  d.body.push('ab');
  d.body.push(null);
  await tick();
  assert.deepEqual([meter.open, meter.opens, meter.counted.length], [0, 1, 2]);
});

test('sendOut: a sink that refuses the head of a streamed body leaves the body released and the throw to the caller', () => {
  const d = descriptor(200, stream());
  const sink = { ...fakeSink(), start() { throw new Error('refusing to send header'); } };
  assert.throws(() => sendOut(d, sink, false, 0), /refusing to send header/);
  assert.equal(d.body.destroyed, true);
});

test('statusHasBody: 1xx, 204 and 304 never carry content', () => {
  assert.deepEqual([100, 200, 204, 206, 304, 404].map(statusHasBody), [false, true, false, true, false, true]);
});
