'use strict';
// listen-h3.js with a stand-in QUIC module: the one log line when HTTP/3 cannot run (the addon
// missing, support() false, the UDP port taken), and when it runs: the listener's options,
// connections served and counted as h3, the certificate reload, close() and destroy().

const test = require('node:test');
const assert = require('node:assert/strict');
const { listenHttp3 } = require('../../server/engines/listen-h3');
const { Recorder } = require('../../server/metrics/recorder');
const { TIMEOUTS } = require('../../server/config/limits');
const { FakeConnection } = require('../helpers/fake-quic');

function recordingLog() {
  const lines = [];
  const log = { debug() {}, info: (m) => lines.push(['info', m]), warn: (m) => lines.push(['warn', m]), error: (m) => lines.push(['error', m]) };
  return { log, lines };
}

const TLS = { cert: 'CERT', key: 'KEY' };
const base = (quic, log) => ({ tls: TLS, host: '::', port: 8443, timeouts: TIMEOUTS, core: {}, log, isClosing: () => false, metrics: new Recorder(() => ({ compressCache: { hits: 0, misses: 0 }, compressionSlots: { acquired: {}, heldMs: {} } })), quic });

test('without the QUIC module, or where it cannot run, one line says why', () => {
  const missing = recordingLog();
  assert.equal(listenHttp3(base(null, missing.log)), null);
  assert.deepEqual(missing.lines, [['info', 'HTTP/3 off: the QUIC addon is not built']]);
  const old = recordingLog();
  assert.equal(listenHttp3(base({ support: () => ({ ok: false, reason: 'needs Node 22.20+ or 24' }) }, old.log)), null);
  assert.deepEqual(old.lines, [['info', 'HTTP/3 off: needs Node 22.20+ or 24']]);
});

test('a UDP port in use is a warning, not a failed start', () => {
  const { log, lines } = recordingLog();
  const quic = {
    support: () => ({ ok: true }),
    listen() { throw Object.assign(new Error('bind failed'), { code: 'ERR_QUIC_LISTEN', errno: 'EADDRINUSE', syscall: 'bind' }); },
  };
  assert.equal(listenHttp3(base(quic, log)), null);
  assert.deepEqual(lines, [['warn', 'HTTP/3 off: udp :::8443: EADDRINUSE bind failed']]);
});

test('when it runs: h3 on the same host and port, connections served and counted, reloads and close', async () => {
  const { log, lines } = recordingLog();
  let options = null;
  const contexts = [];
  const listener = {
    port: 8443,
    address: '::',
    onclose: null,
    closed: false,
    setSecureContext: (pair) => contexts.push(pair),
    close() { this.closed = true; this.onclose(); },
    destroy() { this.onclose(); },
  };
  const quic = { support: () => ({ ok: true }), listen: (o) => { options = o; return listener; } };
  const args = base(quic, log);
  const h3 = listenHttp3(args);
  assert.deepEqual(lines, [['info', 'HTTP/3 runs on udp :::8443']]);
  assert.deepEqual({ ...options, onconnection: typeof options.onconnection }, {
    host: '::', port: 8443, cert: Buffer.from('CERT'), key: Buffer.from('KEY'), alpn: ['h3'],
    idleTimeoutMs: TIMEOUTS.http2IdleTimeout, handshakeTimeoutMs: TIMEOUTS.handshakeTimeout, onconnection: 'function',
  });
  const conn = new FakeConnection();
  options.onconnection(conn);
  assert.match(args.metrics.render(), /negotiate_open_connections\{protocol="h3"\} 1/);
  h3.secure.setSecureContext({ cert: 'NEW', key: 'NEWKEY', ticketKeys: undefined });
  assert.deepEqual(contexts, [{ cert: Buffer.from('NEW'), key: Buffer.from('NEWKEY') }]);
  await h3.close();
  assert.equal(listener.closed, true);
  assert.equal(conn.closed.code, 0x100, 'an idle connection closes at once after its GOAWAY');
  assert.match(args.metrics.render(), /negotiate_open_connections\{protocol="h3"\} 0/);
});
