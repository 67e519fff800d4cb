'use strict';
// Terminating a worker thread that is loading or using the addon must end that
// worker only. The addon runs in a child process, so an abort shows up as its
// exit code instead of killing the test runner.
const test = require('node:test');
const assert = require('node:assert');
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const TERMINATIONS = 150;

// Worker modes: 'require' loads the addon over and over (dropping it from the
// require cache, so that each load runs its init again: defining classes and
// setting exports); 'codec' encodes, decodes and Huffman-codes, with a throw
// every round, so termination lands inside calls that unwrap, create and throw.
// Each says 'ready' once it has loaded the addon and starts its loop.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { index, addon, mode } = workerData;
const { Encoder, Decoder, huffman } = require(index);
parentPort.postMessage('ready');
if (mode === 'require') {
  for (;;) {
    delete require.cache[index];
    delete require.cache[addon];
    require(index);
  }
}
const encoder = new Encoder();
const decoder = new Decoder();
const headers = [[':method', 'GET'], [':path', '/a'], ['user-agent', 'x'.repeat(200)]];
for (;;) {
  decoder.decode(encoder.encode(headers));
  huffman.decode(huffman.encode('www.example.com'));
  try { new Decoder().decode(Buffer.from([0x80])); } catch {}
  try { new Encoder().encode([['x', '\\u20ac']]); } catch {}
}`;

const PARENT = `
const { Worker } = require('node:worker_threads');
const [index, addon, count] = [process.argv[1], process.argv[2], Number(process.argv[3])];
(async () => {
  let terminated = 0;
  for (let i = 0; i < count; i++) {
    const mode = i % 4 < 2 ? 'require' : 'codec';
    const worker = new Worker(${JSON.stringify(WORKER)}, { eval: true, workerData: { index, addon, mode } });
    worker.on('error', () => {});
    // Half right away (while the worker starts or first loads the addon), half
    // once its loop runs: a worker takes longer to start than the longest wait.
    if (i % 2) await new Promise((resolve) => worker.once('message', resolve));
    await new Promise((resolve) => setTimeout(resolve, i % 11));
    await worker.terminate();
    terminated++;
  }
  console.log('terminated', terminated);
})();`;

test(`${TERMINATIONS} worker terminations while loading or using the addon leave the process alive`, () => {
  const index = path.join(__dirname, '..', 'native', 'index.js');
  const addon = path.join(__dirname, '..', 'build', 'Release', 'hpack.node');
  const child = spawnSync(process.execPath, ['-e', PARENT, index, addon, String(TERMINATIONS)], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.strictEqual(child.stderr, '');
  assert.strictEqual(child.stdout, `terminated ${TERMINATIONS}\n`);
  assert.strictEqual(child.status, 0);
});
