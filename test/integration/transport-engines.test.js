'use strict';
// The native engine on both TLS transports (--transport node and c), one suite per transport
// (forEachTransport): exact bodies over HTTP/1.1, HTTP/1.0 and h2 with curl, Node's https and
// http2 clients, ALPN in the server's order, connections that go quiet after their handshake,
// and a client that never reads. h2spec runs on both in h2spec.test.js, the handshake guard in
// tls-handshake-guard.test.js.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const tls = require('node:tls');
const { startTestServer, forEachTransport, compressibleText } = require('../helpers/server');
const { curlSkipReason } = require('../helpers/clients');
const { waitFor, countOpenFds, isFileOrSocket } = require('../helpers/poll');

// A page, and a body large enough (3 MB) that writing it fills the socket buffers: the server
// waits for the socket, and HTTP/2 for WINDOW_UPDATE.
const PAGE = '<!doctype html><title>transport</title>\n'.repeat(30);
const LARGE = Buffer.from(compressibleText(3_000_000, 'large'));
const FILES = { 'index.html': PAGE, 'large.txt': LARGE };
const HEADERS_TIMEOUT_MS = 300;

/** A TLS connection; resolves { socket, closed (Promise of ms from the handshake to the server's close) }. */
function connect(t, ALPNProtocols) {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ port: t.port, host: '127.0.0.1', ca: t.server.certificate, servername: 'localhost', ALPNProtocols }, () => {
      const started = performance.now();
      resolve({ socket, closed: new Promise((done) => socket.once('close', () => done(performance.now() - started))) });
    });
    socket.once('error', reject);
  });
}

forEachTransport((transport) => {
  let t;
  before(async () => {
    t = await startTestServer({ engine: 'native', transport, files: FILES });
  });
  after(() => t.close());

  test('Node https: identity bodies byte for byte on HTTP/1.1', async () => {
    for (const [target, body] of [['/index.html', PAGE], ['/large.txt', LARGE]]) {
      const res = await t.h1(target, { headers: { 'accept-encoding': 'identity' } });
      assert.equal(res.status, 200);
      assert.equal(res.alpn, 'http/1.1');
      assert.ok(res.body.equals(Buffer.from(body)), `${target}: ${res.body.length} bytes`);
      assert.equal(Number(res.headers['content-length']), Buffer.byteLength(body));
    }
  });

  test('Node http2: concurrent streams on one session, exact bodies', async () => {
    const results = await Promise.all(['/index.html', '/large.txt', '/index.html', '/missing'].map((p) => t.h2(p, { headers: { 'accept-encoding': 'identity' } })));
    assert.deepEqual(results.map((r) => r.status), [200, 200, 200, 404]);
    assert.equal(results[0].alpn, 'h2');
    assert.ok(results[1].body.equals(LARGE));
    assert.equal(results[0].body.toString(), PAGE);
  });

  // HTTP/1.0 has no keep-alive unless asked for: its second request opens a new connection. The
  // answer to it is an HTTP/1.1 status line (RFC 9110 6.2), which curl reports as 1.1.
  for (const [flag, version, reused] of [['--http1.1', '1.1', 0], ['--http2', '2', 0], ['--http1.0', '1.1', 1]]) {
    test(`curl ${flag}: the same body twice, the exact bytes (connections: 1, then ${reused})`, { skip: curlSkipReason() }, async () => {
      const url = `https://localhost:${t.port}/large.txt`;
      const r = await t.curl('/large.txt', [flag, '-H', 'accept-encoding: identity', '-w', '|%{http_version},%{num_connects}|', url]);
      assert.equal(r.code, 0, r.stderr);
      const marks = [`|${version},1|`, `|${version},${reused}|`];
      const expected = Buffer.concat([LARGE, Buffer.from(marks[0]), LARGE, Buffer.from(marks[1])]);
      assert.equal(r.stdout.subarray(-12).toString('latin1'), expected.subarray(-12).toString('latin1'));
      assert.ok(r.stdout.equals(expected), `${r.stdout.length} bytes, expected ${expected.length}`);
    });
  }

  test('ALPN: the server\'s preference (h2) whatever the client\'s order; none offered is HTTP/1.1', async () => {
    const alpnOf = (ALPNProtocols) => new Promise((resolve, reject) => {
      const socket = tls.connect({ port: t.port, host: '127.0.0.1', ca: t.server.certificate, servername: 'localhost', ALPNProtocols }, () => {
        resolve(socket.alpnProtocol);
        socket.destroy();
      });
      socket.on('error', reject);
    });
    assert.equal(await alpnOf(['http/1.1', 'h2']), 'h2');
    assert.equal(await alpnOf(['http/1.0']), 'http/1.0');
    assert.equal(await alpnOf(undefined), false);
    await assert.rejects(alpnOf(['spdy/3']), /no application protocol|no_application_protocol/i);
  });

  test('listen: a host name is looked up; a port in use is a ConfigError naming it', async () => {
    const named = await startTestServer({ engine: 'native', transport, files: FILES, host: 'localhost' });
    try {
      assert.equal((await named.h1('/index.html')).status, 200);
    } finally {
      await named.close();
    }
    await assert.rejects(startTestServer({ engine: 'native', transport, files: FILES, port: t.port }),
      { name: 'ConfigError', message: new RegExp(`127\\.0\\.0\\.1:${t.port}: in use`) });
  });

  // The hostile round's "finished its handshake, then sent nothing or half a head": closed by the
  // engine's headersTimeout (HTTP/1.1) or its preface timer (h2), not left open.
  for (const [name, alpn, bytes] of [
    ['HTTP/1.1, nothing', ['http/1.1'], ''],
    ['HTTP/1.1, half a head', ['http/1.1'], 'GET /index.html HTTP/1.1\r\nHost: loc'],
    ['h2, nothing', ['h2'], ''],
    ['h2, half the preface', ['h2'], 'PRI * HTTP/2.0\r\n'],
  ]) {
    test(`a connection quiet after its handshake (${name}) is closed after headersTimeout`, async () => {
      const quiet = await startTestServer({ engine: 'native', transport, files: FILES, timeouts: { headersTimeout: HEADERS_TIMEOUT_MS } });
      try {
        const { socket, closed } = await connect(quiet, alpn);
        socket.on('error', () => {});
        socket.resume(); // a 408 or a GOAWAY may come first: the close is what counts
        if (bytes) socket.write(bytes);
        let timer;
        const ms = await Promise.race([closed, new Promise((r) => { timer = setTimeout(r, HEADERS_TIMEOUT_MS * 10, 'open'); })]);
        clearTimeout(timer);
        assert.notEqual(ms, 'open', `still open ${HEADERS_TIMEOUT_MS * 10} ms after the handshake`);
        assert.ok(ms >= HEADERS_TIMEOUT_MS - 20, `closed after ${ms} ms`);
      } finally {
        await quiet.close();
      }
    });
  }

  // 100 pipelined requests for 3 MB each (300 MB) that the client never reads: the server holds
  // what the socket buffers take plus one response at most, and lets go of everything once the
  // client is gone.
  test('a client that never reads its pipelined answers costs bounded memory, all freed when it goes', async () => {
    global.gc?.();
    const fds = countOpenFds(isFileOrSocket);
    const rss = process.memoryUsage().rss;
    const { socket } = await connect(t, ['http/1.1']);
    socket.on('error', () => {});
    socket.pause();
    socket.write('GET /large.txt HTTP/1.1\r\nHost: localhost\r\naccept-encoding: identity\r\n\r\n'.repeat(100));
    await new Promise((r) => setTimeout(r, 1500));
    const grown = (process.memoryUsage().rss - rss) / 2 ** 20;
    assert.ok(grown < 64, `RSS grew ${grown.toFixed(1)} MiB for 300 MB asked and not read`);
    socket.destroy();
    await waitFor(() => countOpenFds(isFileOrSocket) <= fds, { what: () => `descriptors back to ${fds} (${countOpenFds(isFileOrSocket)})` });
  });
});
