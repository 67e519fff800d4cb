'use strict';
// The C floor (native/transport.js, native/transport/) over real sockets: byte-exact answers to
// Node's https client, curl and pipelined raw TLS, the handshake deadline, ALPN, head limits,
// close(), and a run under valgrind with no error or leak in the transport's code.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const https = require('node:https');
const net = require('node:net');
const tls = require('node:tls');
const path = require('node:path');
const { testCertificate, REPO_ROOT } = require('../helpers/server');
const { toolSkipReason, commandPath, runTool } = require('../helpers/tools');
const { rawExchange } = require('../helpers/floor-client');
const { memcheck } = require('../helpers/memcheck');

const ADDON = path.join(REPO_ROOT, 'build', 'Release', 'transport.node');
const skip = fs.existsSync(ADDON) ? false : `${ADDON} is not built (npx node-gyp rebuild)`;
const { floorListen } = skip ? {} : require('../../native/transport');

const HANDSHAKE_MS = 300;
const response = (body, type) => Buffer.concat([Buffer.from(
  `HTTP/1.1 200 OK\r\ncontent-type: ${type}\r\ncontent-length: ${body.length}\r\ncontent-encoding: br\r\n\r\n`, 'latin1'), body]);
// Bodies: a small page and one large enough (600 KB) that writing it fills the socket buffers
// of a client that is not reading, so the server has to wait for the socket and resume.
const SMALL = Buffer.from('<!doctype html><title>floor</title>'.repeat(20));
const LARGE = Buffer.alloc(600 * 1024, 'abcdefghijklmnopqrstuvwxyz0123456789');
const RESPONSES = new Map([['/index.html', response(SMALL, 'text/html')], ['/app.js', response(LARGE, 'text/javascript')]]);
const NOT_FOUND = Buffer.from('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n', 'latin1');
const get = (target) => `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\naccept-encoding: br\r\n\r\n`;

async function withFloor(options, fn) {
  const { cert, key } = await testCertificate();
  const server = floorListen({ cert, key, responses: RESPONSES, notFound: NOT_FOUND, handshakeTimeoutMs: HANDSHAKE_MS, ...options });
  try {
    return await fn(server, { cert, key });
  } finally {
    server.close();
  }
}

function httpsGet(agent, port, target) {
  return new Promise((resolve, reject) => {
    const req = https.get({ host: '127.0.0.1', port, path: target, agent, rejectUnauthorized: false, headers: { 'accept-encoding': 'br' } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ res, body: Buffer.concat(chunks), socket: req.socket }));
    });
    req.on('error', reject);
  });
}

test('Node\'s https client: keep-alive requests on one connection, exact bodies and header fields, ALPN http/1.1', { skip }, async () => {
  await withFloor({}, async ({ port }) => {
    const agent = new https.Agent({ keepAlive: true, maxSockets: 1, ALPNProtocols: ['http/1.1'] });
    try {
      const sockets = new Set();
      for (const [target, body, status] of [['/index.html', SMALL, 200], ['/app.js', LARGE, 200], ['/nope', Buffer.alloc(0), 404], ['/index.html', SMALL, 200]]) {
        const { res, body: got, socket } = await httpsGet(agent, port, target);
        sockets.add(socket);
        assert.equal(res.statusCode, status, target);
        assert.ok(got.equals(body), `${target}: body of ${got.length} bytes`);
        assert.equal(Number(res.headers['content-length']), body.length);
        assert.equal(socket.alpnProtocol, 'http/1.1');
      }
      assert.equal(sockets.size, 1, 'every request on one kept-alive connection');
    } finally {
      agent.destroy();
    }
  });
});

test('curl: two requests on one connection, the exact bytes', { skip: skip || toolSkipReason('curl', 'curl') }, async () => {
  await withFloor({}, async ({ port }) => {
    const url = `https://127.0.0.1:${port}/index.html`;
    const { code, stdout, stderr } = await runTool(commandPath('curl'), ['-sSk', '--http1.1', '-H', 'accept-encoding: br',
      '-w', '|%{http_code},%{num_connects},%{size_download}|', url, url]);
    assert.equal(code, 0, stderr);
    const tail = `|200,${1},${SMALL.length}|`;
    assert.ok(stdout.equals(Buffer.concat([SMALL, Buffer.from(tail), SMALL, Buffer.from(`|200,0,${SMALL.length}|`)])),
      stdout.toString('latin1').slice(-80));
  });
});

test('pipelined requests over raw TLS: answered in order in one stream of exact bytes, thousands of them, a head split over writes', { skip }, async () => {
  await withFloor({}, async ({ port }) => {
    const expected = Buffer.concat([RESPONSES.get('/index.html'), NOT_FOUND, RESPONSES.get('/app.js'), RESPONSES.get('/index.html')]);
    const pipelined = get('/index.html') + get('/missing') + get('/app.js') + get('/index.html');
    const whole = await rawExchange({ port, writes: [pipelined], want: expected.length });
    assert.equal(whole.alpn, 'http/1.1');
    assert.ok(whole.bytes.equals(expected), `${whole.bytes.length} bytes, expected ${expected.length}`);
    // 3,000 pipelined heads (150 KB, more than one read) whose answers (8 MB) are far more than
    // a connection may have waiting: answered in order, the rest of the heads held back meanwhile.
    const targets = Array.from({ length: 3000 }, (_, i) => (i % 500 === 7 ? '/app.js' : '/index.html'));
    const flood = Buffer.concat(targets.map((t) => RESPONSES.get(t)));
    const many = await rawExchange({ port, writes: [targets.map(get).join('')], want: flood.length });
    assert.ok(many.bytes.equals(flood), `${many.bytes.length} bytes, expected ${flood.length}`);
    // Byte by byte: "\r\n\r\n" found across reads, nothing answered before the head is complete.
    const split = await rawExchange({ port, writes: [...get('/index.html')], want: RESPONSES.get('/index.html').length });
    assert.ok(split.bytes.equals(RESPONSES.get('/index.html')));
  });
});

test('handshake deadline: a silent TCP connection is closed at the deadline, a connection past its handshake is not', { skip }, async () => {
  await withFloor({}, async ({ port }) => {
    const silent = await rawExchange({ port, writes: [], plain: true });
    assert.equal(silent.closed, true);
    assert.equal(silent.bytes.length, 0);
    assert.ok(silent.elapsedMs >= HANDSHAKE_MS - 20 && silent.elapsedMs < HANDSHAKE_MS + 2000, `closed after ${silent.elapsedMs} ms`);
    // Handshake done, then idle for twice the deadline before the request: still answered.
    const later = await new Promise((resolve, reject) => {
      const s = tls.connect({ port, host: '127.0.0.1', rejectUnauthorized: false }, () => {
        setTimeout(() => s.write(get('/index.html')), HANDSHAKE_MS * 2);
      });
      const chunks = [];
      s.on('data', (c) => {
        chunks.push(c);
        if (Buffer.concat(chunks).length >= RESPONSES.get('/index.html').length) { s.destroy(); resolve(Buffer.concat(chunks)); }
      });
      s.on('error', reject);
      s.on('close', () => reject(new Error('closed before the answer')));
    });
    assert.ok(later.equals(RESPONSES.get('/index.html')));
  });
});

test('TLS 1.3 and 1.2; ALPN: a client offering only h2 gets no_application_protocol, one offering none is served', { skip }, async () => {
  await withFloor({}, async ({ port }) => {
    for (const maxVersion of ['TLSv1.3', 'TLSv1.2']) {
      const res = await rawExchange({ port, writes: [get('/index.html')], want: RESPONSES.get('/index.html').length, maxVersion });
      assert.deepEqual([res.protocol, res.alpn, res.bytes.equals(RESPONSES.get('/index.html'))], [maxVersion, 'http/1.1', true]);
    }
    await assert.rejects(rawExchange({ port, writes: [get('/index.html')], ALPNProtocols: ['h2'] }),
      { code: 'ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL' });
    const none = await rawExchange({ port, writes: [get('/index.html')], want: RESPONSES.get('/index.html').length, ALPNProtocols: [] });
    assert.equal(none.alpn, false);
    assert.ok(none.bytes.equals(RESPONSES.get('/index.html')));
  });
});

test('a head longer than 8 KB without its blank line closes the connection, unanswered', { skip }, async () => {
  await withFloor({}, async ({ port }) => {
    const long = `GET /index.html HTTP/1.1\r\nx-long: ${'a'.repeat(9000)}\r\n`;
    const res = await rawExchange({ port, writes: [long] });
    assert.deepEqual([res.closed, res.bytes.length], [true, 0]);
  });
});

test('close(): open connections are closed and the port no longer accepts; bad arguments are clear errors', { skip }, async () => {
  const { cert, key } = await testCertificate();
  const server = floorListen({ cert, key, responses: RESPONSES, notFound: NOT_FOUND });
  const open = rawExchange({ port: server.port, writes: [get('/index.html')], want: Infinity });
  await new Promise((r) => setTimeout(r, 200));
  server.close();
  const res = await open;
  assert.equal(res.closed, true);
  assert.ok(res.bytes.equals(RESPONSES.get('/index.html')));
  await assert.rejects(new Promise((resolve, reject) => net.connect(server.port, '127.0.0.1', resolve).on('error', reject)), { code: 'ECONNREFUSED' });
  server.close(); // twice: nothing happens

  await withFloor({}, async ({ port }) => {
    assert.throws(() => floorListen({ port, cert, key, responses: RESPONSES, notFound: NOT_FOUND }), { code: 'EADDRINUSE' });
  });
  assert.throws(() => floorListen({ cert: 'not a pem', key, responses: RESPONSES, notFound: NOT_FOUND }), { code: 'ERR_TRANSPORT_TLS' });
  const other = (await import('node:crypto')).generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' });
  assert.throws(() => floorListen({ cert, key: other, responses: RESPONSES, notFound: NOT_FOUND }), { code: 'ERR_TRANSPORT_TLS', message: /does not match/ });
  const tooMany = new Map(Array.from({ length: 65 }, (_, i) => [`/${i}`, NOT_FOUND]));
  for (const [bad, message] of [
    [{ host: 'localhost' }, /host must be an IP address/],
    [{ port: 65536 }, /port must be 0-65535/],
    [{ port: 1.5 }, /port must be 0-65535/],
    [{ handshakeTimeoutMs: 0 }, /handshakeTimeoutMs must be a positive integer/],
    [{ responses: tooMany }, /at most 64 responses/],
    [{ notFound: undefined }, /notFound must be a Buffer or a string/],
    [{ cert: 42 }, /cert must be a Buffer or a string/],
    [{ responses: { '/x': 7 } }, /the response for \/x must be a Buffer or a string/],
  ]) {
    assert.throws(() => floorListen({ cert, key, responses: RESPONSES, notFound: NOT_FOUND, ...bad }),
      { code: 'ERR_TRANSPORT_INVALID_ARGUMENT', message }, JSON.stringify(bad));
  }
});

// The exercise (test/helpers/floor-exercise.js) under memcheck: every error and every
// definitely or indirectly lost block whose stack passes through transport.node fails the test
// (the rest are Node's and OpenSSL's own, such as per-thread state of its key generation).
test('valgrind: no memory error or leak in the transport over handshakes, pipelining, deadlines and close', {
  skip: skip || toolSkipReason('valgrind', 'valgrind'), timeout: 300_000,
}, async () => {
  const { code, stdout, reports } = await memcheck(path.join(__dirname, '..', 'helpers', 'floor-exercise.js'), { timeoutMs: 280_000 });
  assert.equal(code, 0);
  assert.match(stdout, /^exercised \d+ exchanges\n$/);
  assert.deepEqual(reports, [], 'valgrind reports that involve the transport');
});
