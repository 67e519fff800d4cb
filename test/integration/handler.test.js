'use strict';
// handler() and fastifyPlugin inside real apps over real sockets: express (mounted under a path,
// falling through to later routes), a bare node:http server, node:http2's compat API with
// HTTP/1.1 fallback, and fastify. Each gets the same checks of negotiation, ETags, 304, 206,
// HEAD and directory redirects.

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const fsSync = require('node:fs');
const path = require('node:path');
const http = require('node:http');
const http2 = require('node:http2');
const express = require('express');
const Fastify = require('fastify');
const { handler, fastifyPlugin } = require('../..');
const { writeFiles, makeTempDir, compressibleText, testCertificate } = require('../helpers/server');
const { createClients, decode } = require('../helpers/clients');
const { waitFor, countOpenFds } = require('../helpers/poll');
const { plainRequest } = require('../helpers/plain-http');
const { RawH2Client } = require('../helpers/h2-raw-client');

const FILE = compressibleText(20_000);
const FILES = { 'a.txt': FILE, 'sub/index.html': '<p>sub</p>\n' };
// Sparse: more than the loopback socket buffers and stream buffers can take in.
const BIG_BYTES = 256 * 1024 * 1024;
// Files above this many bytes are streamed from disk rather than sent from memory.
const STREAMING = { bufferLimit: 1024 };

let tmp;
let root;
before(async () => {
  tmp = await makeTempDir();
  root = path.join(tmp, 'root');
  await writeFiles(root, FILES);
  await fs.writeFile(path.join(root, 'big.bin'), '');
  await fs.truncate(path.join(root, 'big.bin'), BIG_BYTES);
});
after(() => fs.rm(tmp, { recursive: true, force: true }));

// How many of this process's descriptors are open on `file`.
const descriptorsOn = (file) => countOpenFds((target) => target === file);

// Bytes this process has read through read(2) and its kind, files and sockets alike.
function bytesRead() {
  return Number(/^rchar: (\d+)$/m.exec(fsSync.readFileSync('/proc/self/io', 'utf8'))[1]);
}

// request(target, onFirstBytes) asks for the big file and goes away right after calling
// onFirstBytes(). The server must have had the file open then, close it afterwards, and stop
// reading it: a body that kept flowing into a dead response would read all of it.
async function abortMidBody(request) {
  const file = fsSync.realpathSync(path.join(root, 'big.bin'));
  const before = bytesRead();
  const openWhileSending = await new Promise((resolve) => request('/big.bin', () => resolve(descriptorsOn(file))));
  assert.equal(openWhileSending, 1);
  await waitFor(() => descriptorsOn(file) === 0, { what: () => `the file's ${descriptorsOn(file)} descriptors to close` });
  const read = bytesRead() - before;
  assert.ok(read < BIG_BYTES / 4, `read ${read} bytes of a ${BIG_BYTES}-byte file for an aborted response`);
}

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

// The checks every way of mounting the handler must pass. get(path, { method, headers })
// resolves { status, headers, body }; base is the path the files are mounted under.
function fileSemantics(get, base) {
  test('negotiates br, gzip and identity, each with Vary and its own ETag', async () => {
    const etags = new Set();
    for (const [ae, coding] of [['br', 'br'], ['gzip', 'gzip'], ['identity', undefined]]) {
      const r = await get(`${base}/a.txt`, { headers: { 'accept-encoding': ae } });
      assert.equal(r.status, 200, ae);
      assert.equal(r.headers['content-encoding'], coding, ae);
      assert.equal(r.headers.vary, 'Accept-Encoding', ae);
      assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8', ae);
      assert.equal((await decode(coding, r.body)).toString(), FILE, ae);
      etags.add(r.headers.etag);
    }
    assert.equal(etags.size, 3);
  });

  test('If-None-Match with the ETag gets 304 and no body', async () => {
    const headers = { 'accept-encoding': 'gzip' };
    const first = await get(`${base}/a.txt`, { headers });
    const r = await get(`${base}/a.txt`, { headers: { ...headers, 'if-none-match': first.headers.etag } });
    assert.equal(r.status, 304);
    assert.equal(r.headers.etag, first.headers.etag);
    assert.equal(r.body.length, 0);
  });

  test('Range gets 206 with exactly the bytes asked for', async () => {
    const r = await get(`${base}/a.txt`, { headers: { 'accept-encoding': 'identity', 'range': 'bytes=100-199' } });
    assert.equal(r.status, 206);
    assert.equal(r.headers['content-range'], `bytes 100-199/${FILE.length}`);
    assert.equal(r.body.toString(), FILE.slice(100, 200));
  });

  test('HEAD gets the headers of GET and no body', async () => {
    const r = await get(`${base}/a.txt`, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-length'], String(FILE.length));
    assert.equal(r.body.length, 0);
  });

  test('a directory named without its slash redirects to it, under the mount path', async () => {
    const r = await get(`${base}/sub`);
    assert.equal(r.status, 301);
    assert.equal(r.headers.location, `${base}/sub/`);
    const index = await get(`${base}/sub/`, { headers: { 'accept-encoding': 'identity' } });
    assert.equal(index.body.toString(), FILES['sub/index.html']);
  });
}

describe('express, handler mounted at /static', () => {
  let server;
  let port;
  before(async () => {
    const app = express();
    app.use('/static', handler({ root, logLevel: 'silent', ...STREAMING }));
    app.get('/static/missing.txt', (req, res) => res.type('text').send('from a later route\n'));
    app.post('/static/a.txt', (req, res) => res.type('text').send('posted\n'));
    server = http.createServer(app);
    port = await listen(server);
  });
  after(() => new Promise((resolve) => server.close(resolve)));
  const get = (target, options) => plainRequest(port, target, options);

  fileSemantics(get, '/static');

  test('a file it does not have falls through to the next route', async () => {
    const r = await get('/static/missing.txt');
    assert.equal(r.status, 200);
    assert.equal(r.body.toString(), 'from a later route\n');
  });

  test('a client that goes away mid-body: the file stops being read and is closed', async () => {
    await abortMidBody((target, onFirstBytes) => {
      const req = http.get({ host: '127.0.0.1', port, path: `/static${target}`, headers: { 'accept-encoding': 'identity' } }, (res) => {
        res.once('data', () => {
          onFirstBytes();
          req.destroy();
        });
      });
      req.on('error', () => {});
    });
  });

  test('a method other than GET and HEAD falls through to the next route', async () => {
    const r = await get('/static/a.txt', { method: 'POST' });
    assert.equal(r.status, 200);
    assert.equal(r.body.toString(), 'posted\n');
  });
});

describe('node:http server with the handler alone', () => {
  let server;
  let port;
  before(async () => {
    server = http.createServer(handler({ root, logLevel: 'silent' }));
    port = await listen(server);
  });
  after(() => new Promise((resolve) => server.close(resolve)));
  const get = (target, options) => plainRequest(port, target, options);

  fileSemantics(get, '');

  test('with no next to pass to, a missing file is a 404 and POST a 405', async () => {
    assert.equal((await get('/missing.txt')).status, 404);
    const post = await get('/a.txt', { method: 'POST' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.allow, 'GET, HEAD');
  });
});

describe('node:http2 compat server (allowHTTP1)', () => {
  let server;
  let clients;
  let port;
  before(async () => {
    const tls = await testCertificate();
    server = http2.createSecureServer({ ...tls, allowHTTP1: true }, handler({ root, logLevel: 'silent', ...STREAMING }));
    port = await listen(server);
    clients = createClients({ port, ca: tls.cert });
  });
  after(async () => {
    await clients.closeAll();
    await new Promise((resolve) => server.close(resolve));
  });

  describe('over h2', () => fileSemantics((target, options) => clients.h2(target, options), ''));

  test('an h2 stream cancelled mid-body: the file stops being read and is closed', async () => {
    const session = clients.connectH2();
    await abortMidBody((target, onFirstBytes) => {
      const stream = session.request({ ':path': target, 'accept-encoding': 'identity' });
      stream.on('error', () => {});
      stream.once('data', () => {
        onFirstBytes();
        stream.close(http2.constants.NGHTTP2_CANCEL);
      });
    });
  });

  test('a :path with a byte from 0x80 up, which node:http2 passes on, is a 400', async () => {
    const c = await RawH2Client.connect(port);
    c.request(1, '/a.txt\x9b31m');
    const res = await c.response(1);
    assert.equal(res.status, 400);
    assert.equal(res.body.toString(), 'invalid character in the request target\n');
    await c.close();
  });

  test('over http/1.1 on the same port', async () => {
    const r = await clients.h1('/a.txt', { headers: { 'accept-encoding': 'br' } });
    assert.equal(r.alpn, 'http/1.1');
    assert.equal(r.headers['content-encoding'], 'br');
    assert.equal((await decode('br', r.body)).toString(), FILE);
  });
});

describe('fastify, plugin registered with prefix /static', () => {
  let app;
  let port;
  before(async () => {
    app = Fastify();
    app.register(fastifyPlugin, { root, prefix: '/static', logLevel: 'silent' });
    app.get('/api', async () => ({ ok: true }));
    app.setNotFoundHandler((request, reply) => reply.code(404).type('text/plain').send('fastify not found\n'));
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = app.server.address().port;
  });
  after(() => app.close());
  const get = (target, options) => plainRequest(port, target, options);

  fileSemantics(get, '/static');

  test('a file it does not have goes to fastify\'s not-found handler', async () => {
    const r = await get('/static/missing.txt');
    assert.equal(r.status, 404);
    assert.equal(r.body.toString(), 'fastify not found\n');
  });

  test('the app\'s own routes still answer', async () => {
    const r = await get('/api');
    assert.deepEqual(JSON.parse(r.body), { ok: true });
  });
});

describe('handler() options as an app passes them', () => {
  test('errors name the option key, not the CLI flag', () => {
    const missing = path.join(tmp, 'nope');
    assert.throws(() => handler({ root: missing }), { code: 'ERR_BAD_OPTION', message: `root: ${missing} is not a directory` });
    assert.throws(() => handler({ root, logLevel: 'loud' }), { message: 'logLevel: expected one of silent, error, warn, info, debug, got "loud"' });
    assert.throws(() => handler({ root, brotliEngine: 'fast' }), { message: 'brotliEngine: expected one of zlib, iltorb, got "fast"' });
  });

  // [options, what GET /_negotiate?path=/a.txt gets]
  const ENDPOINT = [
    [{}, 404],
    [{ negotiateEndpoint: '/_negotiate' }, 200],
    [{ negotiateEndpoint: 'off' }, 404],
  ];
  for (const [options, status] of ENDPOINT) {
    test(`the /_negotiate explainer with ${JSON.stringify(options)}: ${status}`, async (t) => {
      const server = http.createServer(handler({ root, logLevel: 'silent', ...options }));
      const port = await listen(server);
      t.after(() => new Promise((resolve) => server.close(resolve)));
      const r = await plainRequest(port, '/_negotiate?path=/a.txt');
      assert.equal(r.status, status);
      if (status === 200) assert.equal(JSON.parse(r.body).path, '/a.txt');
    });
  }
});

describe('handler({ cors: true }) in express, before the app\'s own routes', () => {
  let server;
  let port;
  before(async () => {
    const app = express();
    app.use(handler({ root, logLevel: 'silent', cors: true }));
    app.options('/api', (req, res) => res.set('access-control-allow-methods', 'POST').status(204).end());
    server = http.createServer(app);
    port = await listen(server);
  });
  after(() => new Promise((resolve) => server.close(resolve)));
  const preflight = { origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' };

  test('its files may be read from any origin, and their preflights are answered', async () => {
    const r = await plainRequest(port, '/a.txt', { headers: { origin: 'https://app.example' } });
    assert.equal(r.status, 200);
    assert.equal(r.headers['access-control-allow-origin'], '*');
    const p = await plainRequest(port, '/a.txt', { method: 'OPTIONS', headers: preflight });
    assert.equal(p.status, 204);
    assert.equal(p.headers['access-control-allow-methods'], 'GET, HEAD');
    assert.equal(p.headers['access-control-allow-headers'], 'if-none-match');
  });

  test('a preflight of a path it has no file for is the app\'s', async () => {
    const p = await plainRequest(port, '/api', { method: 'OPTIONS', headers: { ...preflight, 'access-control-request-method': 'POST' } });
    assert.equal(p.status, 204);
    assert.equal(p.headers['access-control-allow-methods'], 'POST');
  });
});
