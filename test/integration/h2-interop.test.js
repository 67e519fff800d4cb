'use strict';
// Interoperability of each HTTP/2 engine with independent clients: Node's http2 client (many
// concurrent streams, a large body under a small flow-control window, HEAD, Range), curl,
// nghttp (frame-level: SETTINGS exchange and ACKs) and h2load (2000 requests, 4 connections,
// 10 streams each). Headless Chromium loading the demo page is test/integration/demo-browser.test.js.
// Each client that is not installed skips its test with the reason.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const http2 = require('node:http2');
const fs = require('node:fs/promises');
const path = require('node:path');
const { forEachEngine, startTestServer, compressibleText } = require('../helpers/server');
const { commandPath, toolSkipReason, runTool } = require('../helpers/tools');

const MiB = 1024 * 1024;
const BIG = crypto.randomBytes(8 * MiB);
const PAGE_COUNT = 100;
const PAGES = Object.fromEntries(Array.from({ length: PAGE_COUNT }, (_, i) => [`pages/${i}.txt`, `page ${i}\n`.repeat(i + 1)]));
const APP = compressibleText(40_000, 'interop');

forEachEngine((engine) => {
  let t;

  before(async () => {
    t = await startTestServer({ engine, files: { 'big.bin': BIG, 'app.js': APP, 'index.html': '<!doctype html><p>interop</p>\n', ...PAGES } });
  });

  after(() => t.close());

  function connect(options = {}) {
    const session = http2.connect(t.origin, { ca: t.server.certificate, servername: 'localhost', ...options });
    session.on('error', () => {});
    return session;
  }

  test(`Node http2: ${PAGE_COUNT} concurrent streams on one connection, each body exact`, async () => {
    const session = t.connectH2();
    const results = await Promise.all(Object.keys(PAGES).map((file) => t.h2(`/${file}`, { session, headers: { 'accept-encoding': 'identity' } })));
    results.forEach((r, i) => {
      assert.equal(r.status, 200, `page ${i}`);
      assert.equal(r.body.toString(), PAGES[`pages/${i}.txt`], `page ${i}`);
    });
  });

  test('Node http2: 8 MiB under a 16 KiB stream window, read slowly, arrives byte for byte', async () => {
    const session = connect({ settings: { initialWindowSize: 16 * 1024 } });
    try {
      const body = await new Promise((resolve, reject) => {
        const stream = session.request({ ':path': '/big.bin', 'accept-encoding': 'identity' });
        const chunks = [];
        let received = 0;
        stream.on('response', (h) => { if (h[':status'] !== 200) reject(new Error(`status ${h[':status']}`)); });
        stream.on('data', (c) => {
          chunks.push(c);
          received += c.length;
          // A pause every MiB lets the windows run dry, so the server must wait for WINDOW_UPDATE.
          if (received % MiB < c.length) {
            stream.pause();
            setTimeout(() => stream.resume(), 20);
          }
        });
        stream.on('end', () => resolve(Buffer.concat(chunks)));
        stream.on('error', reject);
        stream.end();
      });
      assert.equal(body.length, BIG.length);
      assert.ok(body.equals(BIG), 'body differs from the file');
    } finally {
      session.destroy();
    }
  });

  test('Node http2: HEAD has the GET headers and no body; Range gets 206 with the exact bytes', async () => {
    const head = await t.h2('/big.bin', { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-length'], String(BIG.length));
    assert.equal(head.body.length, 0);
    const cases = [['bytes=100-199', 100, 199], ['bytes=-500', BIG.length - 500, BIG.length - 1], [`bytes=${BIG.length - 10}-`, BIG.length - 10, BIG.length - 1]];
    for (const [range, first, last] of cases) {
      const r = await t.h2('/big.bin', { headers: { range, 'accept-encoding': 'identity' } });
      assert.equal(r.status, 206, range);
      assert.equal(r.headers['content-range'], `bytes ${first}-${last}/${BIG.length}`, range);
      assert.ok(r.body.equals(BIG.subarray(first, last + 1)), `${range}: body differs`);
    }
    const unsatisfiable = await t.h2('/big.bin', { headers: { range: `bytes=${BIG.length}-` } });
    assert.equal(unsatisfiable.status, 416);
    assert.equal(unsatisfiable.headers['content-range'], `bytes */${BIG.length}`);
  });

  test('curl --http2: GET, HEAD and Range, exact bytes', { skip: toolSkipReason('curl', 'curl') }, async () => {
    const file = path.join(t.tmp, 'curl-big.bin');
    const get = await t.curl('/big.bin', ['--http2', '-o', file, '-w', '%{http_version} %{http_code}']);
    assert.equal(get.code, 0, get.stderr);
    assert.equal(get.stdout.toString(), '2 200');
    assert.ok((await fs.readFile(file)).equals(BIG), 'curl body differs from the file');
    const head = await t.curl('/big.bin', ['--http2', '-I']);
    assert.equal(head.code, 0, head.stderr);
    // curl writes the empty reason phrase of HTTP/2 as a trailing space, or not, by version.
    assert.match(head.stdout.toString(), /^HTTP\/2 200 ?\r$/m);
    assert.match(head.stdout.toString(), new RegExp(`^content-length: ${BIG.length}\\r$`, 'm'));
    const range = await t.curl('/big.bin', ['--http2', '-r', '1000-1999']);
    assert.equal(range.code, 0, range.stderr);
    assert.ok(range.stdout.equals(BIG.subarray(1000, 2000)), 'curl range differs');
  });

  test('nghttp -nv: SETTINGS exchanged and acknowledged, streams answered, no GOAWAY error', { skip: toolSkipReason('nghttp', 'nghttp2-client') }, async () => {
    const r = await runTool(commandPath('nghttp'), ['-nv', '-H', 'accept-encoding: gzip', `https://127.0.0.1:${t.port}/app.js`, `https://127.0.0.1:${t.port}/index.html`]);
    const out = r.stdout.toString();
    assert.equal(r.code, 0, `${r.stderr}\n${out.slice(-3000)}`);
    // The server's SETTINGS first, then its ACK of ours.
    const received = [...out.matchAll(/\[\s*[\d.]+\] recv (\w+) frame <length=(\d+), flags=0x([0-9a-f]{2}), stream_id=(\d+)>/g)]
      .map(([, type, length, flags, stream]) => ({ type, length: Number(length), flags: parseInt(flags, 16), stream: Number(stream) }));
    const first = received[0];
    assert.deepEqual({ ...first, length: first.length % 6 }, { type: 'SETTINGS', length: 0, flags: 0, stream: 0 }, 'first frame is the server SETTINGS');
    assert.ok(received.some((f) => f.type === 'SETTINGS' && f.flags === 0x01 && f.length === 0), 'server acknowledged our SETTINGS');
    assert.match(out, /\(niv=\d+\)[\s\S]*?\[SETTINGS_MAX_CONCURRENT_STREAMS\(0x03\):128\]/, 'server advertises its stream limit');
    assert.match(out, /send SETTINGS frame <length=0, flags=0x01, stream_id=0>/, 'nghttp acknowledged the server SETTINGS');
    assert.equal((out.match(/recv \(stream_id=\d+\) :status: 200/g) || []).length, 2, 'two 200 responses');
    assert.ok(received.filter((f) => f.type === 'DATA').every((f) => f.length <= 16384), 'DATA within the default frame size');
    const goaway = /recv GOAWAY frame[^\n]*\n[^\n]*error_code=(\w+)/.exec(out);
    if (goaway) assert.equal(goaway[1], 'NO_ERROR');
  });

  test('h2load -n 2000 -c 4 -m 10: every request succeeds with 2xx', { skip: toolSkipReason('h2load', 'nghttp2-client') }, async () => {
    const r = await runTool(commandPath('h2load'), ['-n', '2000', '-c', '4', '-m', '10', `https://127.0.0.1:${t.port}/index.html`]);
    const out = r.stdout.toString();
    assert.equal(r.code, 0, `${r.stderr}\n${out}`);
    assert.match(out, /^requests: 2000 total, 2000 started, 2000 done, 2000 succeeded, 0 failed, 0 errored, 0 timeout$/m, out);
    assert.match(out, /^status codes: 2000 2xx, 0 3xx, 0 4xx, 0 5xx$/m, out);
    assert.match(out, /^Application protocol: h2$/m, out);
  });
});
