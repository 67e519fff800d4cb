'use strict';
// The native engine's DATA scheduler: streams take turns, one frame each, under the stream and
// connection send windows, the peer's frame size and the batch budget; a stream whose window
// is shut is skipped and resumes once woken.

const test = require('node:test');
const assert = require('node:assert/strict');
const { DataScheduler } = require('../../server/engines/h2/data-scheduler');

// streams: [id, octets, sendWindow, bodyEnded = true]; frames as "id:start-end", "!" for END_STREAM.
function setup(streams, window) {
  const frames = [];
  const scheduler = new DataScheduler((s, start, end, last) => frames.push(`${s.id}:${start}-${end}${last ? '!' : ''}`));
  scheduler.window = window;
  const byId = new Map();
  for (const [id, octets, sendWindow, bodyEnded = true] of streams) {
    const s = { id, chunk: Buffer.alloc(octets), offset: 0, sendWindow, bodyEnded };
    byId.set(id, s);
    scheduler.wake(s);
  }
  return { scheduler, frames, byId };
}

const BIG = 1 << 30;
const CASES = [
  {
    name: 'two streams alternate, one frame each per turn',
    streams: [[1, 40000, BIG], [3, 40000, BIG]],
    window: BIG, budget: Infinity, maxFrameSize: 16384,
    frames: ['1:0-16384', '3:0-16384', '1:16384-32768', '3:16384-32768', '1:32768-40000!', '3:32768-40000!'],
  },
  {
    name: 'frames are as large as the peer allows',
    streams: [[1, 40000, BIG], [3, 20000, BIG]],
    window: BIG, budget: Infinity, maxFrameSize: 20000,
    frames: ['1:0-20000', '3:0-20000!', '1:20000-40000!'],
  },
  {
    name: 'a stream window shorter than a frame ends that stream\'s turns',
    streams: [[1, 40000, 10000], [3, 40000, BIG]],
    window: BIG, budget: Infinity, maxFrameSize: 16384,
    frames: ['1:0-10000', '3:0-16384', '3:16384-32768', '3:32768-40000!'],
  },
  {
    name: 'the connection window bounds all streams together',
    streams: [[1, 40000, BIG], [3, 40000, BIG], [5, 40000, BIG]],
    window: 20000, budget: Infinity, maxFrameSize: 16384,
    frames: ['1:0-16384', '3:0-3616'],
  },
  {
    name: 'a stream with its window shut is skipped',
    streams: [[1, 30000, 0], [3, 30000, BIG], [5, 30000, -5]],
    window: BIG, budget: Infinity, maxFrameSize: 16384,
    frames: ['3:0-16384', '3:16384-30000!'],
  },
  {
    name: 'a stream whose body continues ends its chunk without END_STREAM',
    streams: [[1, 20000, BIG, false], [3, 100, BIG]],
    window: BIG, budget: Infinity, maxFrameSize: 16384,
    frames: ['1:0-16384', '3:0-100!', '1:16384-20000'],
  },
  {
    name: 'the batch budget (frame headers included) stops a run after the frame that reaches it',
    streams: [[1, 40000, BIG], [3, 40000, BIG]],
    window: BIG, budget: 16384 + 9 + 1, maxFrameSize: 16384,
    frames: ['1:0-16384', '3:0-16384'],
  },
];

for (const c of CASES) {
  test(`scheduler: ${c.name}`, () => {
    const { scheduler, frames } = setup(c.streams, c.window);
    const used = scheduler.run(c.budget, c.maxFrameSize);
    assert.deepEqual(frames, c.frames);
    const octets = frames.reduce((sum, f) => { const [a, b] = f.split(':')[1].split(/[-!]/).map(Number); return sum + 9 + b - a; }, 0);
    assert.equal(used, octets);
  });
}

test('scheduler: turns carry over between runs, in order', () => {
  const { scheduler, frames } = setup([[1, 40000, BIG], [3, 40000, BIG], [5, 40000, BIG]], BIG);
  scheduler.run(1, 16384);
  scheduler.run(1, 16384);
  scheduler.run(1, 16384);
  scheduler.run(1, 16384);
  assert.deepEqual(frames, ['1:0-16384', '3:0-16384', '5:0-16384', '1:16384-32768']);
});

test('scheduler: a stream resumes when woken after its WINDOW_UPDATE, the connection window after its own', () => {
  const { scheduler, frames, byId } = setup([[1, 30000, 0], [3, 30000, 10000]], 15000);
  scheduler.run(Infinity, 16384);
  assert.deepEqual(frames, ['3:0-10000']);
  assert.equal(scheduler.window, 5000);
  byId.get(1).sendWindow += 40000;
  scheduler.wake(byId.get(1));
  scheduler.run(Infinity, 16384);
  assert.deepEqual(frames, ['3:0-10000', '1:0-5000'], 'the connection window left');
  assert.equal(scheduler.waiting, 1);
  scheduler.window += 100000;
  scheduler.run(Infinity, 16384);
  assert.deepEqual(frames, ['3:0-10000', '1:0-5000', '1:5000-21384', '1:21384-30000!'], 'stream 3 stays out until woken');
  byId.get(3).sendWindow += 1;
  scheduler.wake(byId.get(3));
  scheduler.run(Infinity, 16384);
  assert.deepEqual(frames.slice(4), ['3:10000-10001']);
});

test('scheduler: a dropped stream takes no more turns, a closed one (chunk gone) neither', () => {
  const { scheduler, frames, byId } = setup([[1, 40000, BIG], [3, 40000, BIG], [5, 40000, BIG]], BIG);
  scheduler.drop(byId.get(1));
  byId.get(3).chunk = null;
  scheduler.run(Infinity, 16384);
  assert.deepEqual(frames, ['5:0-16384', '5:16384-32768', '5:32768-40000!']);
  assert.equal(scheduler.waiting, 0);
});
