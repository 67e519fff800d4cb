'use strict';
// Files changed on disk while being served: truncated, replaced, rewritten in place, for the
// identity file and a precompressed variant, over HTTP/2 and HTTP/1.1. A response the client
// sees as complete must carry exactly one version's bytes with a truthful Content-Length; a
// truncated file can only be aborted (reset stream, closed socket); a file replaced by rename
// is still the open inode, so its response completes with the old bytes; the next request gets
// the current version whole.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const http2 = require('node:http2');
const https = require('node:https');
const path = require('node:path');
const { forEachEngine, startTestServer } = require('../helpers/server');

const KiB = 1024;
// Larger than what loopback TCP and TLS buffers take in before a paused HTTP/1.1 client stops
// the server, so the change lands while the server is still reading the file.
const SIZE = 8 * 1024 * KiB;
// Small enough that SIZE-byte files are streamed from an fd rather than served from memory.
const BUFFER_LIMIT = 64 * KiB;

forEachEngine((engine) => {
  let t;

  before(async () => {
    t = await startTestServer({ engine, bufferLimit: BUFFER_LIMIT });
  });

  after(() => t.close());

  // Distinct, position-dependent bytes, so a mix of versions or a shifted copy never matches.
  function version(tag, size = SIZE) {
    const out = Buffer.alloc(size);
    for (let i = 0; i < size; i += 16) out.write(`${tag}${String(i).padStart(12, '0')}|`.slice(0, 16), i, 'latin1');
    return out;
  }

  // Reads a response, pausing after its first chunk (flow control or TCP then keeps the server
  // from sending more) while `change` runs, then reading on. Resolves { complete, length, body }.
  function readAcross(source, change) {
    return new Promise((resolve, reject) => {
      const chunks = [];
      let changed = false;
      source.on('data', (chunk) => {
        chunks.push(chunk);
        if (changed) return;
        changed = true;
        source.pause();
        change().then(() => setTimeout(() => source.resume(), 100), reject);
      });
      source.on('end', () => resolve({ complete: true, body: Buffer.concat(chunks) }));
      source.on('error', () => {});
      source.on('close', () => resolve({ complete: false, body: Buffer.concat(chunks) }));
    });
  }

  const CLIENTS = {
    h2(rel, headers, change) {
      const session = http2.connect(t.origin, { ca: t.server.certificate, servername: 'localhost' });
      session.on('error', () => {});
      const stream = session.request({ ':path': rel, ...headers });
      let length = null;
      stream.on('response', (h) => { length = Number(h['content-length']); });
      stream.end();
      return readAcross(stream, change).then((r) => ({ ...r, length })).finally(() => session.destroy());
    },
    h1(rel, headers, change) {
      return new Promise((resolve, reject) => {
        const req = https.get({
          host: '127.0.0.1', port: t.port, path: rel, headers, ca: t.server.certificate, servername: 'localhost',
          agent: false, ALPNProtocols: ['http/1.1'],
        }, (res) => {
          readAcross(res, change).then((r) => {
            res.socket.destroy();
            resolve({ ...r, length: Number(res.headers['content-length']) });
          }, reject);
        });
        req.on('error', reject);
      });
    },
  };

  function assertOneVersion(r, versions) {
    assert.equal(r.body.length, r.length, 'body length differs from Content-Length');
    assert.ok(versions.some((v) => v.equals(r.body)), `complete ${r.body.length}-byte body matches no single version`);
  }

  // Rename over the file: the old inode stays readable through the server's fd.
  async function replace(file, bytes) {
    await fs.writeFile(file + '.tmp', bytes);
    await fs.rename(file + '.tmp', file);
  }

  // Overwrite the bytes of the same inode, keeping its size.
  async function rewriteInPlace(file, bytes) {
    const handle = await fs.open(file, 'r+');
    try {
      await handle.write(bytes, 0, bytes.length, 0);
    } finally {
      await handle.close();
    }
  }

  const TARGETS = [
    { name: 'identity file', rel: 'f.bin', served: 'f.bin', headers: { 'accept-encoding': 'identity' } },
    // The variant's bytes are served as they are, so they need not be real gzip here.
    { name: 'precompressed variant', rel: 'v.txt', served: 'v.txt.gz', headers: { 'accept-encoding': 'gzip' } },
  ];

  // complete: whether the response across the change completes (with the old bytes) or is
  // aborted. The in-place rewrite lands 100 ms or more after the stat the headers came from,
  // past the coarse-clock window file-body.js describes, so its new mtime is always seen.
  const CHANGES = [
    { name: 'truncated', apply: (file) => fs.truncate(file, SIZE / 2), complete: false },
    { name: 'replaced by another file', apply: (file, next) => replace(file, next), complete: true },
    { name: 'rewritten in place', apply: (file, next) => rewriteInPlace(file, next), complete: false },
  ];

  for (const [protocol, fetchAcross] of Object.entries(CLIENTS)) {
    for (const target of TARGETS) {
      for (const change of CHANGES) {
        test(`${protocol}: ${target.name} ${change.name} while being served`, async () => {
          const dir = await fs.mkdtemp(path.join(t.root, 'case-'));
          const rel = `/${path.basename(dir)}/${target.rel}`;
          const file = path.join(dir, target.served);
          const old = version('old');
          const next = version('new');
          // A variant is used only when it is not older than its source, so it is written second,
          // and only when it is smaller, so the source is larger.
          if (target.served !== target.rel) await fs.writeFile(path.join(dir, target.rel), version('src', 2 * SIZE));
          await fs.writeFile(file, old);
          const r = await fetchAcross(rel, target.headers, () => change.apply(file, next));
          assert.equal(r.complete, change.complete, `complete after ${r.body.length} bytes`);
          if (r.complete) assertOneVersion(r, [old]);
          // Afterwards the file is served whole in its current version.
          const current = await fs.readFile(file);
          const again = await fetchAcross(rel, target.headers, async () => {});
          assert.equal(again.complete, true, 'the next response completes');
          assertOneVersion(again, [current]);
        });
      }
    }
  }
});
