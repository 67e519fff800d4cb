'use strict';
// The byte budget and the compression spool on their own: reservations granted in order, a
// spool's bytes coming back in order whether they went through memory or its temporary file,
// and no fd or budget left behind when it ends or is destroyed.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const { openSpoolFiles } = require('../helpers/server');
const { pipeline } = require('node:stream/promises');
const { Readable, Writable } = require('node:stream');
const { ByteBudget } = require('../../server/files/byte-budget');
const { Spool, MEMORY_BYTES } = require('../../server/files/spool');

const KiB = 1024;
// Disk for every spool of these tests; each test checks it is all given back.
const disk = new ByteBudget(64 * 1024 * KiB);

test('ByteBudget grants in order, never over its limit', async (tc) => {
  // Each row: operations on a budget of 100; `granted` lists acquire() ids granted so far.
  const rows = [
    { name: 'fits at once', ops: [['acquire', 'a', 60], ['acquire', 'b', 40]], granted: ['a', 'b'], used: 100 },
    { name: 'waits when full', ops: [['acquire', 'a', 60], ['acquire', 'b', 50]], granted: ['a'], used: 60 },
    { name: 'a release wakes the waiter', ops: [['acquire', 'a', 60], ['acquire', 'b', 50], ['release', 60]], granted: ['a', 'b'], used: 50 },
    { name: 'first come first served: a small request waits behind a big one', ops: [['acquire', 'a', 90], ['acquire', 'b', 50], ['acquire', 'c', 5]], granted: ['a'], used: 90 },
    { name: 'tryAcquire never jumps the queue', ops: [['acquire', 'a', 90], ['acquire', 'b', 50], ['try', 5]], granted: ['a'], used: 90 },
    { name: 'tryAcquire takes what fits', ops: [['try', 70], ['try', 40]], granted: [], used: 70 },
    { name: 'one release wakes several', ops: [['acquire', 'a', 100], ['acquire', 'b', 30], ['acquire', 'c', 30], ['release', 100]], granted: ['a', 'b', 'c'], used: 60 },
  ];
  for (const row of rows) {
    await tc.test(row.name, () => {
      const budget = new ByteBudget(100);
      const granted = [];
      for (const [op, a, b] of row.ops) {
        if (op === 'acquire') budget.acquire(b, () => granted.push(a));
        else if (op === 'try') budget.tryAcquire(a);
        else budget.release(a);
      }
      assert.deepEqual(granted, row.granted);
      assert.equal(budget.used, row.used);
      assert.ok(budget.peak <= 100);
    });
  }
});

// Writes `chunks` into a spool as fast as it accepts them, then reads it back waiting `pauseMs`
// before each read. Resolves the bytes read and how many spool files were open once writing finished.
async function roundTrip(budget, chunks, pauseMs) {
  const spool = new Spool(budget, disk);
  await pipeline(Readable.from(chunks), new Writable({
    write(chunk, _enc, done) { if (!spool.write(chunk)) spool.once('drain', done); else done(); },
    final(done) { spool.end(); done(); },
  }));
  const fdsWhileHeld = openSpoolFiles();
  const closed = new Promise((resolve) => spool.once('close', resolve));
  const out = [];
  for await (const chunk of spool) {
    out.push(chunk);
    if (pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  await closed;
  return { bytes: Buffer.concat(out), fdsWhileHeld };
}

const SIZES = [
  { name: 'in memory only', chunks: 8, size: 16 * KiB },
  { name: 'spilling to the temporary file', chunks: 64, size: 16 * KiB },
  { name: 'odd chunk sizes across the memory limit', chunks: 50, size: 12_345 },
];

for (const { name, chunks, size } of SIZES) {
  test(`a spool returns every byte in order: ${name}`, async () => {
    const budget = new ByteBudget(64 * 1024 * KiB);
    const input = Array.from({ length: chunks }, () => crypto.randomBytes(size));
    const before = openSpoolFiles();
    const { bytes, fdsWhileHeld } = await roundTrip(budget, input, 1);
    assert.ok(bytes.equals(Buffer.concat(input)));
    const spilled = chunks * size > MEMORY_BYTES;
    assert.equal(fdsWhileHeld - before, spilled ? 1 : 0, 'a temporary file exactly when memory overflowed');
    assert.equal(openSpoolFiles(), before, 'the temporary file is closed at the end');
    assert.equal(budget.used, 0);
    assert.equal(disk.used, 0);
  });
}

test('a spool larger than its disk budget flows, emptying its file as the reader drains it', async () => {
  const budget = new ByteBudget(64 * 1024 * KiB);
  const small = new ByteBudget(128 * KiB);
  const input = Array.from({ length: 96 }, () => crypto.randomBytes(16 * KiB)); // 1.5 MiB
  const spool = new Spool(budget, small);
  const closed = new Promise((resolve) => spool.once('close', resolve));
  const read = (async () => { const out = []; for await (const chunk of spool) out.push(chunk); return Buffer.concat(out); })();
  for (const chunk of input) if (!spool.write(chunk)) await new Promise((resolve) => spool.once('drain', resolve));
  spool.end();
  assert.ok((await read).equals(Buffer.concat(input)));
  await closed;
  assert.ok(small.peak <= 128 * KiB);
  assert.equal(small.used, 0);
  assert.equal(openSpoolFiles(), 0);
});

test('a spool whose budget is spent goes to its file, and a destroyed spool leaves nothing', async () => {
  const budget = new ByteBudget(64 * KiB);
  assert.equal(budget.tryAcquire(64 * KiB), true);
  const before = openSpoolFiles();
  const spool = new Spool(budget, disk);
  for (let i = 0; i < 4; i++) await new Promise((resolve) => spool.write(crypto.randomBytes(16 * KiB), resolve));
  assert.equal(openSpoolFiles() - before, 1, 'no memory to spare: straight to the file');
  budget.release(64 * KiB);
  const first = await new Promise((resolve) => spool.once('readable', () => resolve(spool.read())));
  assert.equal(first.length, 64 * KiB);
  assert.equal(budget.used, 64 * KiB, 'the chunk handed out is charged');
  await new Promise((resolve) => { spool.once('close', resolve); spool.destroy(); });
  assert.equal(openSpoolFiles(), before);
  assert.equal(budget.used, 0);
  assert.equal(disk.used, 0);
});
