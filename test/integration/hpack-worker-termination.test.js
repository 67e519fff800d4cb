'use strict';
// Terminating a worker thread that is loading or using the addon must end that
// worker only. The addon runs in a child process, so an abort shows up as its
// exit code instead of killing the test runner.
const test = require('node:test');
const assert = require('node:assert');
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const TERMINATIONS = 150;

// Worker modes: 'require' loads the addon over and over (dropping native/ and
// the addon from the require cache, so that each load runs its init again:
// defining the HPACK and QPACK classes and setting exports); 'hpack' encodes,
// decodes and Huffman-codes, and 'qpack' encodes, decodes and exchanges both
// instruction streams, each with throws every round, so termination lands
// inside calls that unwrap, create and throw. Each says 'ready' once it has
// loaded the addon and starts its loop.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { index, nativeDir, addon, mode } = workerData;
const { Encoder, Decoder, huffman, QpackEncoder, QpackDecoder } = require(index);
parentPort.postMessage('ready');
if (mode === 'require') {
  for (;;) {
    for (const key of Object.keys(require.cache)) {
      if (key.startsWith(nativeDir) || key === addon) delete require.cache[key];
    }
    require(index);
  }
}
const headers = [[':method', 'GET'], [':path', '/a'], ['user-agent', 'x'.repeat(200)]];
if (mode === 'hpack') {
  const encoder = new Encoder();
  const decoder = new Decoder();
  for (;;) {
    decoder.decode(encoder.encode(headers));
    huffman.decode(huffman.encode('www.example.com'));
    try { new Decoder().decode(Buffer.from([0x80])); } catch {}
    try { new Encoder().encode([['x', '\\u20ac']]); } catch {}
  }
}
const settings = { maxTableCapacity: 4096, maxBlockedStreams: 10 };
const encoder = new QpackEncoder(settings);
const decoder = new QpackDecoder(settings);
for (let i = 0; ; i = (i + 1) % 1024) {
  const { section, encoderStream } = encoder.encode(4 * i, [...headers, ['x-round', String(i)]]);
  decoder.feedEncoder(encoderStream);
  decoder.decode(4 * i, section);
  encoder.feedDecoder(decoder.readDecoderStream());
  try { new QpackDecoder().decode(0, Buffer.from([0x00, 0x00, 0xff, 0x24])); } catch {}
  try { encoder.encode(0, [['x', '\\u20ac']]); } catch {}
}`;

const PARENT = `
const { Worker } = require('node:worker_threads');
const [index, nativeDir, addon, count] = [process.argv[1], process.argv[2], process.argv[3], Number(process.argv[4])];
(async () => {
  let terminated = 0;
  for (let i = 0; i < count; i++) {
    const mode = ['require', 'hpack', 'qpack'][Math.floor(i / 2) % 3];
    const worker = new Worker(${JSON.stringify(WORKER)}, { eval: true, workerData: { index, nativeDir, addon, mode } });
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
  const nativeDir = path.join(__dirname, '..', '..', 'native') + path.sep;
  const index = path.join(nativeDir, 'index.js');
  // The binary native/js/addon.js loads: build/Release, else the prebuild.
  const addon = require('node-gyp-build').resolve(path.join(__dirname, '..', '..'));
  const child = spawnSync(process.execPath, ['-e', PARENT, index, nativeDir, addon, String(TERMINATIONS)], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.strictEqual(child.stderr, '');
  assert.strictEqual(child.stdout, `terminated ${TERMINATIONS}\n`);
  assert.strictEqual(child.status, 0);
});
