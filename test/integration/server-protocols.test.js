'use strict';
// Protocols and connections: ALPN h2 and http/1.1 on one port, curl as an independent client,
// client aborts releasing file descriptors and compressors, and a file shrinking mid-response.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const https = require('node:https');
const http2 = require('node:http2');
const { setTimeout: sleep } = require('node:timers/promises');
const { forEachEngine, startTestServer, compressibleText } = require('../helpers/server');
const { decode, curlSkipReason } = require('../helpers/clients');

const TEXT = compressibleText(50_000, 'proto');

function openFds() {
  return fs.readdirSync('/proc/self/fd').length;
}

async function settlesTo(read, target, what, limitMs = 5000) {
  const start = Date.now();
  while (read() > target) {
    if (Date.now() - start > limitMs) assert.fail(`${what}: ${read()} > ${target}`);
    await sleep(10);
  }
}

forEachEngine((engine) => {
  test('ALPN: h2 and http/1.1 on one port, and clients without ALPN', async (t) => {
    const srv = await startTestServer({ engine, files: { 'a.txt': TEXT } });
    t.after(() => srv.close());
    const h2 = await srv.h2('/a.txt');
    assert.equal(h2.alpn, 'h2');
    assert.equal(h2.body.toString(), TEXT);
    const h1 = await srv.h1('/a.txt');
    assert.equal(h1.alpn, 'http/1.1');
    assert.equal(h1.httpVersion, '1.1');
    assert.equal(h1.body.toString(), TEXT);
    const noAlpn = await new Promise((resolve, reject) => {
      https.get({ host: '127.0.0.1', port: srv.port, path: '/a.txt', ca: srv.server.certificate, servername: 'localhost', agent: false }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ alpn: res.socket.alpnProtocol, body: Buffer.concat(chunks).toString() }));
      }).on('error', reject);
    });
    assert.equal(noAlpn.alpn, false);
    assert.equal(noAlpn.body, TEXT);
  });

  test('curl', { skip: curlSkipReason() }, async (t) => {
    const srv = await startTestServer({ engine, files: { 'a.txt': TEXT, 'dir/index.html': '<p>i</p>' } });
    t.after(() => srv.close());
    for (const proto of ['--http2', '--http1.1']) {
      const version = await srv.curl('/a.txt', [proto, '-o', '/dev/null', '-w', '%{http_version}']);
      assert.equal(version.code, 0, version.stderr);
      assert.equal(version.stdout.toString(), proto === '--http2' ? '2' : '1.1');
      const compressed = await srv.curl('/a.txt', [proto, '--compressed']);
      assert.equal(compressed.code, 0, compressed.stderr);
      assert.equal(compressed.stdout.toString(), TEXT, `${proto} --compressed decodes to the original`);
      for (const coding of ['br', 'zstd', 'gzip', 'deflate', 'lzma']) {
        const tmp = path.join(srv.tmp, `body.${coding}`);
        const res = await srv.curl('/a.txt', [proto, '-H', `Accept-Encoding: ${coding}`, '-D', '-', '-o', tmp]);
        assert.equal(res.code, 0, res.stderr);
        assert.match(res.stdout.toString(), new RegExp(`^content-encoding: ${coding}\\r$`, 'mi'));
        assert.match(res.stdout.toString(), /^vary: Accept-Encoding\r$/mi);
        assert.equal((await decode(coding, fs.readFileSync(tmp))).toString(), TEXT, `${proto} ${coding}`);
      }
      const redirect = await srv.curl('/dir?q=1', [proto, '-o', '/dev/null', '-w', '%{http_code} %{redirect_url}']);
      assert.equal(redirect.stdout.toString(), `301 https://localhost:${srv.port}/dir/?q=1`);
      const notAcceptable = await srv.curl('/a.txt', [proto, '-H', 'Accept-Encoding: identity;q=0, snappy', '-o', '/dev/null', '-w', '%{http_code}']);
      assert.equal(notAcceptable.stdout.toString(), '406');
    }
  });

  test('client aborts release file descriptors and compressors', { skip: fs.existsSync('/proc/self/fd') ? false : 'needs /proc/self/fd' }, async (t) => {
    const big = compressibleText(8 * 1024 * 1024, 'abort');
    const srv = await startTestServer({ engine, bufferLimit: 64 * 1024, files: { 'big.txt': big } });
    t.after(() => srv.close());
    await srv.h2('/big.txt', { headers: { range: 'bytes=0-0' } });
    const baseline = openFds();

    for (const ae of ['identity', 'gzip']) {
      // HTTP/2: RST_STREAM after the first DATA frame.
      const session = http2.connect(srv.origin, { ca: srv.server.certificate, servername: 'localhost' });
      await new Promise((resolve, reject) => {
        const stream = session.request({ ':path': '/big.txt', 'accept-encoding': ae });
        stream.once('data', () => { stream.close(http2.constants.NGHTTP2_CANCEL); resolve(); });
        stream.on('error', reject);
      });
      await new Promise((resolve) => session.close(resolve));

      // HTTP/1.1: the socket goes away after the first chunk.
      await new Promise((resolve, reject) => {
        const req = https.get({
          host: '127.0.0.1', port: srv.port, path: '/big.txt', ca: srv.server.certificate, servername: 'localhost',
          agent: false, headers: { 'accept-encoding': ae },
        }, (res) => res.once('data', () => { req.destroy(); resolve(); }));
        req.on('error', (err) => (err.code === 'ECONNRESET' ? resolve() : reject(err)));
      });
      await settlesTo(openFds, baseline, `open fds after ${ae} aborts`);
      await settlesTo(() => srv.stats.streamingCompressions, 0, 'compression slots after aborts');
    }
    const after = await srv.h2('/big.txt', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal((await decode('gzip', after.body)).toString(), big, 'still serves complete bodies');
  });

  test('a file that shrinks mid-response is cut short, never passed off as complete', async (t) => {
    const size = 32 * 1024 * 1024;
    const srv = await startTestServer({ engine, bufferLimit: 64 * 1024 });
    t.after(() => srv.close());
    const file = path.join(srv.root, 'shrink.bin');
    fs.writeFileSync(file, Buffer.alloc(size, 7));
    const outcome = await new Promise((resolve) => {
      let received = 0;
      const req = https.get({ host: '127.0.0.1', port: srv.port, path: '/shrink.bin', ca: srv.server.certificate, servername: 'localhost', agent: false }, (res) => {
        const declared = Number(res.headers['content-length']);
        res.once('data', (chunk) => {
          received += chunk.length;
          res.pause();
          fs.truncateSync(file, 1000);
          res.on('data', (c) => { received += c.length; });
          res.resume();
        });
        res.on('end', () => resolve({ complete: res.complete, declared, received }));
        res.on('error', () => resolve({ complete: false, declared, received }));
      });
      req.on('error', () => resolve({ complete: false, received }));
    });
    assert.equal(outcome.declared, size);
    assert.equal(outcome.complete, false, 'the response was aborted');
    assert.ok(outcome.received < size);
    const again = await srv.h1('/shrink.bin');
    assert.equal(again.body.length, 1000, 'the next request sees the new size');
  });
});
