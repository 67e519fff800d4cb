'use strict';
// The C connection transport (native/transport.js transportListen, native/transport/conn.c) on
// its own, below the engines: the idle timer after the handshake, a connection closed past
// maxPending, calls on a closed connection, renegotiation refused, argument errors, and a run
// under valgrind with no error or leak in the transport's code
// (test/helpers/transport-exercise.js).

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const tls = require('node:tls');
const { testCertificate, REPO_ROOT } = require('../helpers/server');
const { toolSkipReason } = require('../helpers/tools');
const { memcheck } = require('../helpers/memcheck');

const ADDON = path.join(REPO_ROOT, 'build', 'Release', 'transport.node');
const skip = fs.existsSync(ADDON) ? false : `${ADDON} is not built (npx node-gyp rebuild)`;
const { transportListen, EVENT, CONTROL } = skip ? {} : require('../../native/transport');

const BASE = { alpn: ['h2', 'http/1.1'], handshakeTimeoutMs: 2000, maxHandshakes: 16, idleTimeoutMs: 0, highWater: 16384, maxPending: 1 << 20 };

// A transport whose events are recorded as [type, id, ...args]; stop() closes all and waits for FREED.
async function listen(options) {
  const { cert, key } = await testCertificate();
  const events = [];
  let freed;
  const gone = new Promise((resolve) => { freed = resolve; });
  const transport = transportListen({
    ...BASE, cert, key, ...options,
    onEvent: (type, id, ...args) => {
      events.push([type, id, ...args]);
      options.onEvent?.(transport, type, id, ...args);
      if (type === EVENT.FREED) freed();
    },
  });
  return { transport, events, stop: () => { transport.stop(true); return gone; } };
}

function connect(port) {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ port, host: '127.0.0.1', rejectUnauthorized: false, ALPNProtocols: ['h2'] }, () => resolve(socket));
    socket.once('error', reject);
  });
}

const closed = (socket) => new Promise((resolve) => socket.once('close', resolve));

test('the idle timer closes a connection quiet after its handshake, after TIMEOUT', { skip }, async () => {
  const { transport, events, stop } = await listen({ idleTimeoutMs: 200 });
  try {
    const socket = await connect(transport.port);
    socket.on('error', () => {});
    const started = performance.now();
    await closed(socket);
    const ms = performance.now() - started;
    assert.ok(ms >= 150 && ms < 2000, `closed after ${ms} ms`);
    assert.deepEqual(events.map(([type]) => type), [EVENT.OPEN, EVENT.TIMEOUT, EVENT.CLOSE]);
    assert.equal(events[0][2], 'h2');
  } finally {
    await stop();
  }
});

test('a write past maxPending closes the connection; calls on a closed id answer -1', { skip }, async () => {
  let id = null;
  const { transport, events, stop } = await listen({
    maxPending: 64 * 1024,
    onEvent: (t, type, connId) => { if (type === EVENT.OPEN) id = connId; },
  });
  try {
    const socket = await connect(transport.port);
    socket.on('error', () => {});
    socket.pause(); // reads nothing: the socket buffers fill and the rest stays pending in C
    await new Promise((r) => setTimeout(r, 50));
    let pending = 0;
    for (let i = 0; i < 200 && pending >= 0; i++) pending = transport.write(id, Buffer.alloc(256 * 1024));
    assert.equal(pending, -1);
    await closed(socket.resume());
    assert.equal(events.at(-1)[0], EVENT.CLOSE);
    assert.equal(events.at(-1)[2], true, 'closed as an error');
    assert.equal(transport.write(id, Buffer.from('x')), -1);
    assert.equal(transport.pending(id), -1);
    assert.equal(transport.control(id, CONTROL.END), -1);
  } finally {
    await stop();
  }
});

test('a TLS 1.2 client asking to renegotiate is refused with no_renegotiation', { skip }, async () => {
  const { transport, stop } = await listen({});
  try {
    const socket = await new Promise((resolve, reject) => {
      const s = tls.connect({ port: transport.port, host: '127.0.0.1', rejectUnauthorized: false, maxVersion: 'TLSv1.2' }, () => resolve(s));
      s.once('error', reject);
    });
    const error = new Promise((resolve) => socket.once('error', resolve));
    assert.equal(socket.renegotiate({}, () => {}), true);
    assert.equal((await error).code, 'ERR_SSL_NO_RENEGOTIATION');
    await closed(socket);
  } finally {
    await stop();
  }
});

test('argument errors name what is wrong', { skip }, async () => {
  const { cert, key } = await testCertificate();
  const args = { ...BASE, cert, key, onEvent() {} };
  assert.throws(() => transportListen({ ...args, host: 'localhost' }), { code: 'ERR_TRANSPORT_INVALID_ARGUMENT', message: /IP address/ });
  assert.throws(() => transportListen({ ...args, maxPending: 10 }), { code: 'ERR_TRANSPORT_INVALID_ARGUMENT', message: /maxPending/ });
  assert.throws(() => transportListen({ ...args, alpn: [''] }), { code: 'ERR_TRANSPORT_INVALID_ARGUMENT', message: /ALPN/ });
  assert.throws(() => transportListen({ ...args, key: 'not a key' }), { code: 'ERR_TRANSPORT_TLS' });
  assert.throws(() => transportListen({ ...args, onEvent: null }), { code: 'ERR_TRANSPORT_INVALID_ARGUMENT' });
});

test('valgrind: no memory error or leak in the transport over handshakes, backpressure, timers and close', {
  skip: skip || toolSkipReason('valgrind', 'valgrind'), timeout: 600_000,
}, async () => {
  const { code, stdout, reports } = await memcheck(path.join(__dirname, '..', 'helpers', 'transport-exercise.js'), { timeoutMs: 580_000 });
  assert.equal(code, 0);
  assert.match(stdout, /^exercised \d+ exchanges\n$/);
  assert.deepEqual(reports, [], 'valgrind reports that involve the transport');
});
