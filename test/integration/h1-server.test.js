'use strict';
// The native HTTP/1.1 engine over real TLS sockets: keep-alive, HTTP/1.0, pipelining in order,
// HEAD, chunked and close-delimited streamed bodies, bodies that fail midway, backpressure,
// timeouts, graceful close, refusals with exact statuses, and real clients (Node https, curl).

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const https = require('node:https');
const net = require('node:net');
const tls = require('node:tls');
const zlib = require('node:zlib');
const { Readable } = require('node:stream');
const { startWithCore } = require('../helpers/h1-server');
const { exchange, parseResponses } = require('../helpers/raw-http1');
const { startTestServer, compressibleText } = require('../helpers/server');
const { curlSkipReason } = require('../helpers/clients');
const { waitFor } = require('../helpers/poll');
const { Core } = require('../../server/decision/core');
const { Logger } = require('../../server/log/logger');
const { MAX_QUEUED } = require('../../server/engines/h1/connection');
const { LINGER_MS } = require('../../server/config/limits');
const { serveHttp1 } = require('../../server/engines/h1');
const { TIMEOUTS } = require('../../server/config/limits');

const KiB = 1024;
const H = 'Host: localhost\r\n';
const BIG = compressibleText(300 * KiB);

function connect(t) {
  return tls.connect({ host: '127.0.0.1', port: t.port, ca: t.ca, servername: 'localhost', ALPNProtocols: ['http/1.1'] });
}

// Reads from a socket until `count` complete responses have arrived (or it closes).
function readResponses(socket, count, { headRequests = 0 } = {}) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    const done = (closed) => {
      socket.off('data', onData);
      resolve({ responses: tryParse() || [], closed });
    };
    const tryParse = () => {
      try {
        return parseResponses(Buffer.concat(chunks), { headRequests });
      } catch {
        return null;
      }
    };
    const onData = (c) => {
      chunks.push(c);
      const r = tryParse();
      if (r !== null && r.length >= count) done(false);
    };
    socket.on('data', onData);
    socket.once('close', () => done(true));
    socket.once('error', (err) => { if (err.code !== 'ECONNRESET') reject(err); });
  });
}

function closedWithin(socket, ms) {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    socket.on('data', () => {});
    socket.once('close', () => { clearTimeout(timer); resolve(true); });
  });
}

// A core that answers from a function of (method, target) and counts its calls.
function fakeCore(answer) {
  return {
    requests: 0,
    log: new Logger({ level: 'silent' }),
    errorResponse: Core.prototype.errorResponse,
    logAccess() {},
    decide(method, target, headers) {
      this.requests++;
      return Promise.resolve(answer(method, target, headers));
    },
  };
}

describe('native HTTP/1.1 engine with the real core', () => {
  let t;
  const logLines = [];
  before(async () => {
    const logger = { enabled: () => true, info: (m) => logLines.push(m), debug() {}, warn() {}, error() {}, always() {}, drain: async () => {} };
    t = await startTestServer({
      engine: 'native',
      files: { 'a.txt': 'a\n', 'big.txt': BIG, 'dir/index.html': 'i\n' },
      bufferLimit: 64 * KiB, // big.txt is streamed, compressed on the fly
      logger,
    });
    t.ca = t.server.certificate;
  });
  after(() => t.close());

  test('keep-alive: requests reuse one socket; no Connection or Keep-Alive header', async () => {
    const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set();
    for (let i = 0; i < 3; i++) {
      const res = await new Promise((resolve, reject) => {
        https.get({ host: '127.0.0.1', port: t.port, path: '/a.txt', ca: t.ca, servername: 'localhost', agent }, (r) => {
          sockets.add(r.socket);
          r.resume();
          r.on('end', () => resolve(r));
        }).on('error', reject);
      });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers.connection, undefined);
      assert.equal(res.headers['keep-alive'], undefined);
      assert.match(res.headers.date, /^\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT$/);
    }
    agent.destroy();
    assert.equal(sockets.size, 1);
  });

  test('pipelined requests are answered in order, HEAD without a body', async () => {
    const socket = connect(t);
    const requests = [
      `GET /a.txt HTTP/1.1\r\n${H}\r\n`, // 200 a
      `HEAD /a.txt HTTP/1.1\r\n${H}\r\n`, // 200, no body
      `GET /nope HTTP/1.1\r\n${H}\r\n`, // 404
      `POST /a.txt HTTP/1.1\r\n${H}Content-Length: 0\r\n\r\n`, // 405
      `GET /dir HTTP/1.1\r\n${H}\r\n`, // 301
      `GET /a.txt HTTP/1.1\r\n${H}Range: bytes=1-\r\n\r\n`, // 206
      `GET /a.txt HTTP/1.1\r\n${H}Connection: close\r\n\r\n`, // 200, then close
    ];
    socket.write(requests.join(''));
    const chunks = [];
    socket.on('data', (c) => chunks.push(c));
    await closedWithin(socket, 5000);
    // The HEAD response is second: parse the rest after it by hand.
    const all = Buffer.concat(chunks).toString('latin1');
    const heads = all.split('HTTP/1.1 ').slice(1).map((r) => Number(r.slice(0, 3)));
    assert.deepEqual(heads, [200, 200, 404, 405, 301, 206, 200]);
    const second = all.indexOf('HTTP/1.1 ', 1);
    const third = all.indexOf('HTTP/1.1 404');
    assert.match(all.slice(second, third), /content-length: 2\r\n[^]*\r\n\r\n$/);
    assert.match(all, /content-range: bytes 1-1\/2\r\n/);
    assert.match(all, /allow: GET, HEAD\r\n/);
    assert.ok(all.endsWith('connection: close\r\n\r\na\n'), JSON.stringify(all.slice(-80)));
  });

  test('a streamed on-the-fly body is chunked for HTTP/1.1 and decodes to the file', async () => {
    const res = await t.h1('/big.txt', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['transfer-encoding'], 'chunked');
    assert.equal(res.headers['content-length'], undefined);
    assert.equal(zlib.gunzipSync(res.body).toString(), BIG);
  });

  test('a streamed body without a length ends with the connection for HTTP/1.0', async () => {
    const { bytes, closed } = await exchange({ port: t.port, ca: t.ca, payload: 'GET /big.txt HTTP/1.0\r\nConnection: keep-alive\r\nAccept-Encoding: gzip\r\n\r\n' });
    assert.equal(closed, true);
    const [res] = parseResponses(bytes);
    assert.equal(res.headers.connection, 'close');
    assert.equal(res.headers['transfer-encoding'], undefined);
    assert.equal(zlib.gunzipSync(res.body).toString(), BIG);
  });

  test('HTTP/1.0: closes unless keep-alive was asked, and says keep-alive when kept', async () => {
    const plain = await exchange({ port: t.port, ca: t.ca, payload: 'GET /a.txt HTTP/1.0\r\n\r\n' });
    assert.equal(plain.closed, true);
    assert.equal(parseResponses(plain.bytes)[0].headers.connection, 'close');
    const socket = connect(t);
    socket.write('GET /a.txt HTTP/1.0\r\nConnection: keep-alive\r\n\r\n');
    const { responses, closed } = await readResponses(socket, 1);
    assert.equal(closed, false);
    assert.equal(responses[0].headers.connection, 'keep-alive');
    socket.write('GET /nope HTTP/1.0\r\n\r\n');
    const second = await readResponses(socket, 1);
    assert.equal(second.responses[0].status, 404);
    assert.equal(await closedWithin(socket, 5000), true);
  });

  test('one access-log line per response', async () => {
    logLines.length = 0;
    await t.h1('/a.txt');
    await exchange({ port: t.port, ca: t.ca, payload: 'BAD\r\n\r\n' });
    assert.match(logLines[0], /^GET \/a\.txt 200 identity 2 [\d.]+ms$/);
    assert.match(logLines[1], /^- - 400 - \d+ [\d.]+ms$/);
  });

  test('curl --http1.0 (ALPN http/1.0) is served and the connection closes', { skip: curlSkipReason() }, async () => {
    const r = await t.curl('/a.txt', ['--http1.0', '-D', '-', '-w', '%{http_version} %{num_connects}\n']);
    assert.equal(r.code, 0, r.stderr);
    const text = r.stdout.toString();
    assert.match(text, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(text, /\r\nconnection: close\r\n/);
    assert.ok(text.endsWith('\r\n\r\na\n1.1 1\n'), JSON.stringify(text.slice(-40)));
  });

  test('curl reuses the connection and gets the bytes', { skip: curlSkipReason() }, async () => {
    const r = await t.curl('/a.txt', ['--http1.1', '-w', ' %{num_connects} %{http_version}\n', '-o', '/dev/null', '-o', '/dev/null', `https://localhost:${t.port}/a.txt`]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.toString(), ' 1 1.1\n 0 1.1\n');
  });
});

describe('native HTTP/1.1 engine: refusals', () => {
  let t;
  before(async () => {
    t = await startTestServer({ engine: 'native', files: { 'a.txt': 'a\n' } });
    t.ca = t.server.certificate;
  });
  after(() => t.close());

  const CASES = [
    ['malformed field', `GET /a.txt HTTP/1.1\r\n${H}X : y\r\n\r\n`, 400],
    ['no Host', 'GET /a.txt HTTP/1.1\r\n\r\n', 400],
    ['request content', `GET /a.txt HTTP/1.1\r\n${H}Content-Length: 5\r\n\r\nhello`, 413],
    ['chunked request', `POST /a.txt HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, 501],
    ['unknown method', `BREW /a.txt HTTP/1.1\r\n${H}\r\n`, 501],
    ['HTTP/2.0 request line', `GET /a.txt HTTP/2.0\r\n${H}\r\n`, 505],
    ['long target', `GET /${'a'.repeat(9000)} HTTP/1.1\r\n${H}\r\n`, 414],
    ['large head', `GET /a.txt HTTP/1.1\r\n${H}X: ${'a'.repeat(40 * KiB)}\r\n\r\n`, 431],
  ];
  for (const [name, payload, status] of CASES) {
    test(`${name}: ${status}, Connection: close, closed; the request before it is answered`, async () => {
      const { bytes, closed } = await exchange({ port: t.port, ca: t.ca, payload: `GET /a.txt HTTP/1.1\r\n${H}\r\n${payload}GET /a.txt HTTP/1.1\r\n${H}\r\n` });
      const responses = parseResponses(bytes);
      assert.deepEqual(responses.map((r) => r.status), [200, status]);
      assert.equal(responses[1].headers.connection, 'close');
      assert.equal(closed, true);
    });
  }
});

describe('native HTTP/1.1 engine: request smuggling', () => {
  const SMUGGLED = `GET /smuggled HTTP/1.1\r\n${H}\r\n`;
  const chunk = `${SMUGGLED.length.toString(16)}\r\n${SMUGGLED}\r\n0\r\n\r\n`;
  const CASES = [
    ['CL.TE', `POST / HTTP/1.1\r\n${H}Content-Length: ${chunk.length}\r\nTransfer-Encoding: chunked\r\n\r\n${chunk}`],
    ['TE.CL', `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n${chunk}`],
    ['TE.TE, second TE obfuscated', `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\nTransfer-encoding: identity\r\n\r\n${chunk}`],
    ['TE with a tab', `POST / HTTP/1.1\r\n${H}Transfer-Encoding:\tchunked\r\n\r\n${chunk}`],
    ['TE in an obs-fold', `POST / HTTP/1.1\r\n${H}X: a\r\n Transfer-Encoding: chunked\r\n\r\n${chunk}`],
    ['TE after a bare LF', `POST / HTTP/1.1\r\n${H}X: a\nTransfer-Encoding: chunked\r\n\r\n${chunk}`],
    ['a body holding a request', `GET / HTTP/1.1\r\n${H}Content-Length: ${SMUGGLED.length}\r\n\r\n${SMUGGLED}`],
    ['two Content-Lengths', `GET / HTTP/1.1\r\n${H}Content-Length: 0\r\nContent-Length: ${SMUGGLED.length}\r\n\r\n${SMUGGLED}`],
    ['a space before the colon', `GET / HTTP/1.1\r\n${H}Content-Length : ${SMUGGLED.length}\r\n\r\n${SMUGGLED}`],
  ];
  let t;
  const seen = [];
  before(async () => {
    t = await startWithCore(fakeCore((method, target) => {
      seen.push(target);
      return { status: 200, headers: { 'content-length': '0' }, body: null, coding: null };
    }));
  });
  after(() => t.close());

  for (const [name, payload] of CASES) {
    test(`${name}: refused and closed; the hidden request never reaches the core`, async () => {
      seen.length = 0;
      const { bytes, closed } = await exchange({ port: t.port, ca: t.ca, payload });
      const responses = parseResponses(bytes);
      assert.equal(responses.length, 1);
      assert.ok(responses[0].status >= 400, `status ${responses[0].status}`);
      assert.equal(closed, true);
      assert.deepEqual(seen, []);
    });
  }
});

describe('native HTTP/1.1 engine: streams, backpressure, timeouts, shutdown', () => {
  test('a body that fails midway closes the socket short of its Content-Length', async () => {
    const core = fakeCore(() => {
      const body = new Readable({ read() {} });
      body.push(Buffer.alloc(1000, 97));
      setTimeout(() => body.destroy(new Error('disk gone')), 50);
      return { status: 200, headers: { 'content-length': '5000' }, body, coding: null };
    });
    const t = await startWithCore(core);
    try {
      const { bytes, closed } = await exchange({ port: t.port, ca: t.ca, payload: `GET / HTTP/1.1\r\n${H}\r\n` });
      assert.equal(closed, true);
      assert.throws(() => parseResponses(bytes), /body short of Content-Length 5000/);
    } finally {
      await t.close();
    }
  });

  test('a body that ends short of its Content-Length also closes the socket', async () => {
    const core = fakeCore(() => ({ status: 200, headers: { 'content-length': '10' }, body: Readable.from([Buffer.from('short')]), coding: null }));
    const t = await startWithCore(core);
    try {
      const { bytes, closed } = await exchange({ port: t.port, ca: t.ca, payload: `GET / HTTP/1.1\r\n${H}\r\nGET / HTTP/1.1\r\n${H}\r\n` });
      assert.equal(closed, true);
      assert.throws(() => parseResponses(bytes), /body short of Content-Length 10/);
    } finally {
      await t.close();
    }
  });

  test('a client that pipelines without reading is not read: the core sees a bounded number of requests', async () => {
    const big = Buffer.alloc(256 * KiB, 98);
    const core = fakeCore(() => ({ status: 200, headers: { 'content-length': String(big.length) }, body: big, coding: null }));
    const t = await startWithCore(core);
    try {
      const socket = connect(t);
      socket.pause();
      const total = 200;
      await new Promise((resolve) => socket.once('secureConnect', resolve));
      socket.write(`GET / HTTP/1.1\r\n${H}\r\n`.repeat(total));
      await new Promise((resolve) => setTimeout(resolve, 500));
      // One batch of MAX_QUEUED, then reading stops until the client drains.
      assert.ok(MAX_QUEUED < total);
      assert.ok(core.requests <= MAX_QUEUED, `core saw ${core.requests} requests`);
      let received = 0;
      socket.on('data', (c) => { received += c.length; });
      socket.resume();
      await waitFor(() => received > total * big.length, { what: () => `more than ${total * big.length} bytes (${received})` });
      assert.equal(core.requests, total);
      assert.ok(received > total * big.length, `received ${received}`);
      socket.destroy();
    } finally {
      await t.close();
    }
  });

  test('a response that cannot be sent costs its connection only; the server keeps serving', async () => {
    const errors = [];
    const core = fakeCore((method, target) => ({
      status: 200, headers: target === '/bad' ? { 'x-bad': 'a\r\nset-cookie: x=1' } : { 'content-length': '2' }, body: target === '/bad' ? null : Buffer.from('ok'), coding: null,
    }));
    core.log = { enabled: () => false, error: (m) => errors.push(m), debug() {} };
    const t = await startWithCore(core);
    try {
      const bad = await exchange({ port: t.port, ca: t.ca, payload: `GET /bad HTTP/1.1\r\n${H}\r\n` });
      assert.deepEqual([bad.closed, bad.bytes.length], [true, 0]);
      assert.match(errors[0], /sending GET \/bad failed: Error: refusing to send header "x-bad"/);
      const good = await exchange({ port: t.port, ca: t.ca, payload: `GET /good HTTP/1.1\r\n${H}Connection: close\r\n\r\n` });
      assert.deepEqual(parseResponses(good.bytes).map((r) => r.status), [200]);
    } finally {
      await t.close();
    }
  });

  test('a slow reader gets the whole of a last response that outlasts the linger time', async () => {
    const big = Buffer.alloc(8 * 1024 * KiB, 99);
    const core = fakeCore(() => ({ status: 200, headers: { 'content-length': String(big.length) }, body: big, coding: null }));
    const t = await startWithCore(core);
    try {
      const socket = connect(t);
      socket.pause();
      await new Promise((resolve) => socket.once('secureConnect', resolve));
      socket.write(`GET / HTTP/1.1\r\n${H}Connection: close\r\n\r\n`);
      await new Promise((resolve) => setTimeout(resolve, LINGER_MS + 1000));
      const chunks = [];
      socket.on('data', (c) => chunks.push(c));
      socket.resume();
      assert.equal(await closedWithin(socket, 10_000), true);
      const responses = parseResponses(Buffer.concat(chunks));
      assert.equal(responses.length, 1);
      assert.equal(responses[0].body.length, big.length);
    } finally {
      await t.close();
    }
  });

  test('timeouts: incomplete head 408, idle keep-alive and silent connections closed, slow response kept', async () => {
    const core = fakeCore((method, target) => new Promise((resolve) => setTimeout(() => resolve({
      status: 200, headers: { 'content-length': '2' }, body: Buffer.from('ok'), coding: null,
    }), target === '/slow' ? 600 : 0)));
    const t = await startWithCore(core, { timeouts: { headersTimeout: 300, keepAliveTimeout: 300 } });
    try {
      const partial = await exchange({ port: t.port, ca: t.ca, payload: 'GET / HTTP/1.1\r\nHo', waitMs: 3000 });
      assert.equal(partial.closed, true);
      assert.deepEqual(parseResponses(partial.bytes).map((r) => r.status), [408]);

      const silent = await exchange({ port: t.port, ca: t.ca, payload: '', waitMs: 3000 });
      assert.deepEqual([silent.closed, silent.bytes.length], [true, 0]);

      // The slow response outlives headersTimeout; the connection then idles out.
      const slow = await exchange({ port: t.port, ca: t.ca, payload: `GET /slow HTTP/1.1\r\n${H}\r\n`, waitMs: 3000 });
      assert.equal(slow.closed, true);
      assert.deepEqual(parseResponses(slow.bytes).map((r) => r.status), [200]);
    } finally {
      await t.close();
    }
  });

  test('graceful close: the response in flight is sent with Connection: close, idle connections close', async () => {
    let release;
    const core = fakeCore(() => new Promise((resolve) => { release = () => resolve({ status: 200, headers: { 'content-length': '2' }, body: Buffer.from('ok'), coding: null }); }));
    const t = await startWithCore(core);
    const idle = connect(t);
    await new Promise((resolve) => idle.once('secureConnect', resolve));
    const busy = connect(t);
    busy.write(`GET / HTTP/1.1\r\n${H}\r\n`);
    await waitFor(() => core.requests > 0, { what: 'the request to reach the core' });
    const closing = t.close();
    assert.equal(await closedWithin(idle, 3000), true);
    release();
    const { responses, closed } = await readResponses(busy, 1);
    assert.equal(responses[0].status, 200);
    assert.equal(responses[0].headers.connection, 'close');
    assert.equal(closed || await closedWithin(busy, 3000), true);
    await closing;
  });

  test('responses ready together leave in one socket write', async () => {
    const core = fakeCore((method, target) => ({ status: 200, headers: { 'content-length': String(target.length) }, body: Buffer.from(target), coding: null }));
    const writes = [];
    const server = net.createServer((socket) => {
      // Count what reaches the socket's underlying write calls.
      for (const name of ['_write', '_writev']) {
        const original = socket[name].bind(socket);
        socket[name] = (data, ...rest) => { writes.push(name); return original(data, ...rest); };
      }
      serveHttp1(socket, { core, log: core.log, timeouts: TIMEOUTS, isClosing: () => false });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const socket = net.connect(server.address().port, '127.0.0.1');
      const paths = Array.from({ length: 10 }, (_, i) => `/r${i}`);
      socket.write(paths.map((p) => `GET ${p} HTTP/1.1\r\n${H}\r\n`).join(''));
      const { responses } = await readResponses(socket, paths.length);
      assert.deepEqual(responses.map((r) => r.body.toString()), paths);
      assert.deepEqual(writes, ['_writev']);
      socket.destroy();
    } finally {
      server.close();
    }
  });
});
