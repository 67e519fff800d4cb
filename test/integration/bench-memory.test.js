'use strict';
// `npm run bench:memory` end to end at a tiny size: both loads reach the server (the file is
// looked up, every request answered, every flood connection cut by ENHANCE_YOUR_CALM) and every
// round reports each memory layer. The figures themselves are the benchmark's, not asserted.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { execFile } = require('node:child_process');

const RUN = path.join(__dirname, '..', '..', 'bench', 'memory', 'run.js');

function bench(args) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [RUN, ...args, '--settle-ms', '100', '--json'], { timeout: 90_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

function assertLayers(round) {
  for (const when of ['before', 'afterGc', 'settled']) {
    for (const key of ['rssMiB', 'hwmMiB', 'anonMiB', 'heapUsedMiB', 'heapTotalMiB', 'externalMiB', 'arrayBuffersMiB', 'threadArenasMiB']) {
      assert.ok(Number.isFinite(round[when][key]) && round[when][key] >= 0, `${when}.${key}: ${round[when][key]}`);
    }
    assert.ok(round[when].rssMiB >= round[when].anonMiB && round[when].threads >= 1);
  }
}

test('bench:memory rapid-reset: every connection is cut by ENHANCE_YOUR_CALM, every round measured', { timeout: 120_000 }, async () => {
  const result = await bench(['rapid-reset', '--rounds', '1', '--connections', '2', '--streams', '1200']);
  assert.equal(result.mode, 'rapid-reset');
  assert.deepEqual(result.rounds.map((r) => r.round), [0, 1]);
  for (const round of result.rounds) assertLayers(round);
  for (const round of result.rounds.slice(1)) {
    assert.deepEqual(round.load.endings, { 'GOAWAY ENHANCE_YOUR_CALM': 2 });
    assert.equal(round.caches.fileCache.entries, 1);
  }
});

test('bench:memory accept-encoding: each round sends values no round before sent, each answered', { timeout: 120_000 }, async () => {
  const result = await bench(['accept-encoding', '--rounds', '2', '--requests', '20', '--concurrency', '4', '--read', 'headers']);
  assert.deepEqual(result.rounds.map((r) => r.round), [0, 1, 2]);
  for (const round of result.rounds) assertLayers(round);
  assert.deepEqual(result.rounds.slice(1).map((r) => r.load.distinctValues), ['0..19', '20..39']);
  for (const round of result.rounds.slice(1)) {
    assert.deepEqual(round.load.statuses, { 200: 20 });
    assert.equal(Object.values(round.load.codings).reduce((a, b) => a + b, 0), 20);
  }
});

test('bench/memory/pending-handshakes.js: every connection is held pending while measured, then none', { timeout: 120_000 }, async () => {
  const script = path.join(__dirname, '..', '..', 'bench', 'memory', 'pending-handshakes.js');
  const result = await new Promise((resolve, reject) => {
    execFile(process.execPath, [script, '--connections', '20', '--settle-ms', '100', '--json'], { timeout: 90_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout));
    });
  });
  assert.equal(result.stillOpen, 20);
  for (const when of ['idle', 'held', 'after']) assertLayers(result[when]);
  assert.equal(result.held.resources.TCPSocketWrap, 20);
  assert.equal(result.after.resources.TCPSocketWrap, undefined);
});
