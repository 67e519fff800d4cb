'use strict';
// Terminating a worker thread that is loading or using the addon must end that
// worker only. The addon runs in a child process, so an abort shows up as its
// exit code instead of killing the test runner.
const test = require('node:test');
const assert = require('node:assert');
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const TERMINATIONS = 150;

// Worker modes: 'require' loads the addon over and over (each load runs its
// init again); 'codec' encodes, decodes and Huffman-codes, with a throw every
// round, so termination lands inside calls that create and throw errors.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { index, mode } = workerData;
if (mode === 'require') {
  for (;;) {
    delete require.cache[index];
    require(index);
  }
}
const { Encoder, Decoder, huffman } = require(index);
parentPort.postMessage('ready');
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
const [index, count] = [process.argv[1], Number(process.argv[2])];
(async () => {
  let terminated = 0;
  for (let i = 0; i < count; i++) {
    const mode = i % 3 === 0 ? 'require' : 'codec';
    const worker = new Worker(${JSON.stringify(WORKER)}, { eval: true, workerData: { index, mode } });
    worker.on('error', () => {});
    // Some right away (inside the first require), some once the codec runs.
    if (mode === 'codec' && i % 2) await new Promise((resolve) => worker.once('message', resolve));
    await new Promise((resolve) => setTimeout(resolve, i % 11));
    await worker.terminate();
    terminated++;
  }
  console.log('terminated', terminated);
})();`;

test(`${TERMINATIONS} worker terminations while loading or using the addon leave the process alive`, () => {
  const index = path.join(__dirname, '..', 'native', 'index.js');
  const child = spawnSync(process.execPath, ['-e', PARENT, index, String(TERMINATIONS)], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.strictEqual(child.stderr, '');
  assert.strictEqual(child.stdout, `terminated ${TERMINATIONS}\n`);
  assert.strictEqual(child.status, 0);
});
