'use strict';
// The C connection transport (native/transport.js transportListen, native/transport/conn.c) on
// its own, below the engines: the idle timer after the handshake, a connection closed past
// maxPending, calls on a closed connection, renegotiation refused (with what is written at
// RENEGOTIATION sent before the alert), the handshake guard's drops reported in batches by
// reason, argument errors, and a run
// under valgrind with no error or leak in the transport's code
// (test/helpers/transport-exercise.js).

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const tls = require('node:tls');
const net = require('node:net');
const { testCertificate, REPO_ROOT } = require('../helpers/server');
const { waitFor } = require('../helpers/poll');
const { toolSkipReason } = require('../helpers/tools');
const { memcheck } = require('../helpers/memcheck');

const ADDON = path.join(REPO_ROOT, 'build', 'Release', 'transport.node');
const skip = fs.existsSync(ADDON) ? false : `${ADDON} is not built (npx node-gyp rebuild)`;
const { transportListen, EVENT, CONTROL } = skip ? {} : require('../../native/transport');

const BASE = { alpn: ['h2', 'http/1.1'], handshakeTimeoutMs: 2000, maxHandshakes: 16, idleTimeoutMs: 0, highWater: 16384, maxPending: 1 << 20 };

// A transport whose events are recorded as [type, id, ...args], HANDSHAKES apart as { dropped,
// peak, pending } in reports; stop() closes all and waits for FREED.
async function listen(options) {
  const { cert, key } = await testCertificate();
  const events = [];
  const reports = [];
  let freed;
  const gone = new Promise((resolve) => { freed = resolve; });
  const transport = transportListen({
    ...BASE, cert, key, ...options,
    onEvent: (type, id, ...args) => {
      if (type === EVENT.HANDSHAKES) reports.push({ dropped: args[0], peak: args[1], pending: args[2] });
      else events.push([type, id, ...args]);
      options.onEvent?.(transport, type, id, ...args);
      if (type === EVENT.FREED) freed();
    },
  });
  return { transport, events, reports, stop: () => { transport.stop(true); return gone; } };
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

test('a TLS 1.2 client asking to renegotiate: RENEGOTIATION, what it writes arrives, then a fatal no_renegotiation', { skip }, async () => {
  const { transport, events, stop } = await listen({
    onEvent: (t, type, id) => {
      if (type !== EVENT.RENEGOTIATION) return;
      assert.equal(t.write(id, Buffer.from('goodbye')), 0);
      assert.equal(t.control(id, CONTROL.END), 0, 'the FIN waits for the alert');
    },
  });
  try {
    const socket = await new Promise((resolve, reject) => {
      const s = tls.connect({ port: transport.port, host: '127.0.0.1', rejectUnauthorized: false, maxVersion: 'TLSv1.2' }, () => resolve(s));
      s.once('error', reject);
    });
    let received = '';
    socket.on('data', (chunk) => { received += chunk; });
    const error = new Promise((resolve) => socket.once('error', resolve));
    assert.equal(socket.renegotiate({}, () => {}), true);
    assert.equal((await error).code, 'ERR_SSL_TLSV1_ALERT_NO_RENEGOTIATION');
    await closed(socket);
    assert.equal(received, 'goodbye');
    await waitFor(() => events.some(([type]) => type === EVENT.CLOSE));
    assert.deepEqual(events.map(([type]) => type), [EVENT.OPEN, EVENT.RENEGOTIATION, EVENT.CLOSE]);
    assert.equal(events.find(([type]) => type === EVENT.CLOSE)[2], true, 'closed as an error');
  } finally {
    await stop();
  }
});

// Three silent connections past a cap of 2 (the oldest dropped at once, the others at the
// deadline), then one that sends no TLS: every drop counted once, by reason, in reports that
// come per turn of the loop, not per drop.
test('handshake drops: HANDSHAKES reports counts by reason, the most pending at once, and none left', { skip }, async () => {
  const { transport, reports, stop } = await listen({ handshakeTimeoutMs: 300, maxHandshakes: 2 });
  const open = (bytes) => new Promise((resolve) => {
    const socket = net.connect(transport.port, '127.0.0.1', () => { if (bytes) socket.write(bytes); });
    socket.on('error', () => {});
    socket.resume();
    socket.once('close', resolve);
  });
  const totals = () => reports.reduce((sum, r) => sum.map((n, i) => n + r.dropped[i]), [0, 0, 0]);
  try {
    await Promise.all([open(), open(), open()]);
    await waitFor(() => totals()[0] === 2, { what: () => `two deadline drops in ${JSON.stringify(reports)}` });
    await open('GET / HTTP/1.1\r\n\r\n');
    await waitFor(() => totals()[2] === 1, { what: () => `a TLS error in ${JSON.stringify(reports)}` });
    assert.deepEqual(totals(), [2, 1, 1]); // deadline, over_cap, tls_error
    assert.equal(Math.max(...reports.map((r) => r.peak)), 3);
    assert.equal(reports.at(-1).pending, 0);
    assert.ok(reports.length <= 4, `${reports.length} reports`);
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
