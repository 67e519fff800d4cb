'use strict';
// The one send-out path on every engine: a response the client gives up mid-body releases its
// body and writes one access-log line that says so, over HTTP/1.1 and HTTP/2 alike (the native
// HTTP/1.1 engine used to log nothing for it).

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const http2 = require('node:http2');
const tls = require('node:tls');
const { forEachEngine, startTestServer } = require('../helpers/server');

const MiB = 1024 * 1024;
const LARGE = crypto.randomBytes(4 * MiB);
const READ_BEFORE_ABORT = 128 * 1024;

async function until(check) {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(check(), 'condition not reached in 5 s');
}

forEachEngine((engine) => {
  const lines = [];
  let t;
  before(async () => {
    const logger = {
      enabled: (level) => level !== 'debug',
      info: (msg) => lines.push(msg), debug() {}, warn() {}, error: (msg) => lines.push(`error ${msg}`),
      drain: async () => {},
    };
    // Over bufferLimit: streamed from its fd, a chunk at a time.
    t = await startTestServer({ engine, files: { 'large.bin': LARGE }, bufferLimit: MiB, logger });
  });
  after(() => t.close());

  test('HTTP/1.1: a client that closes mid-body gets one "aborted" log line', async () => {
    lines.length = 0;
    const socket = tls.connect({ port: t.port, host: '127.0.0.1', rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] });
    let received = 0;
    await new Promise((resolve, reject) => {
      socket.on('error', reject);
      socket.on('secureConnect', () => socket.write('GET /large.bin HTTP/1.1\r\nHost: localhost\r\n\r\n'));
      socket.on('data', (chunk) => {
        received += chunk.length;
        if (received >= READ_BEFORE_ABORT) {
          socket.destroy();
          resolve();
        }
      });
    });
    await until(() => lines.length === 1);
    assert.match(lines[0], /^GET \/large\.bin 200 aborted identity \d+ [0-9.]+ms$/);
  });

  test('HTTP/2: a stream the client cancels mid-body gets one log line that says so', async () => {
    lines.length = 0;
    const client = http2.connect(`https://127.0.0.1:${t.port}`, { rejectUnauthorized: false });
    try {
      const req = client.request({ ':path': '/large.bin' });
      let received = 0;
      await new Promise((resolve, reject) => {
        req.on('error', reject);
        req.on('data', (chunk) => {
          received += chunk.length;
          if (received >= READ_BEFORE_ABORT) {
            req.close(http2.constants.NGHTTP2_CANCEL);
            resolve();
          }
        });
      });
      await until(() => lines.length === 1);
      // Node's stream reports a peer reset as an error without its code.
      const outcome = engine === 'native' ? 'reset by peer \\(CANCEL\\)' : 'aborted';
      assert.match(lines[0], new RegExp(`^GET /large\\.bin 200 ${outcome} identity \\d+ [0-9.]+ms$`));
    } finally {
      client.close();
    }
  });
});
