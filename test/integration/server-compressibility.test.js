'use strict';
// What the server compresses on the fly, over HTTP/1.1 and HTTP/2: not unknown or already
// compressed types, never into something not smaller than the file, and /_negotiate says so.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const zlib = require('node:zlib');
const { forEachEngine, startTestServer } = require('../helpers/server');

// Hex text: half its size compressed, so its .br variant is well over the 1 KiB minimum.
const APP = crypto.randomBytes(4000).toString('hex');
const APP_BR = zlib.brotliCompressSync(APP);
// Random bytes compress to more than they are, whatever the coding.
const BIN = crypto.randomBytes(8000);
const NOISE = crypto.randomBytes(6000).toString('latin1');
const ALL = 'br, zstd, gzip, deflate, lzma';

forEachEngine((engine) => {
  let t;

  before(async () => {
    t = await startTestServer({
      engine,
      files: {
        'random.bin': BIN,
        'no-extension': BIN,
        'app.js': { content: APP, mtime: 1_700_000_000 },
        'app.js.br': { content: APP_BR, mtime: 1_700_000_000 },
        'noise.txt': Buffer.from(NOISE, 'latin1'),
        'fresh-noise.txt': Buffer.from(NOISE, 'latin1'),
      },
    });
  });

  after(() => t.close());

  // [target, type, body]: served as is to a client accepting every coding.
  const AS_IS = [
    ['/random.bin', 'application/octet-stream', BIN],
    ['/no-extension', 'application/octet-stream', BIN],
    // A variant requested by its own name is an opaque file, never encoded again.
    ['/app.js.br', 'application/octet-stream', APP_BR],
  ];

  for (const proto of ['h1', 'h2']) {
    for (const [target, type, body] of AS_IS) {
      test(`${proto}: ${target} is sent as it is`, async () => {
        const res = await t[proto](target, { headers: { 'accept-encoding': ALL } });
        assert.equal(res.status, 200);
        assert.equal(res.headers['content-encoding'], undefined);
        assert.equal(res.headers['content-type'], type);
        assert.deepEqual(res.body, body);
      });
    }
  }

  test('a compressible type whose on-the-fly output is not smaller is sent as identity, and not compressed again', async () => {
    for (const proto of ['h1', 'h2']) {
      for (const ae of ['br', 'gzip', ALL]) {
        const res = await t[proto]('/noise.txt', { headers: { 'accept-encoding': ae } });
        assert.equal(res.status, 200, ae);
        assert.equal(res.headers['content-encoding'], undefined, ae);
        assert.equal(res.body.toString('latin1'), NOISE, ae);
      }
    }
    const before = t.stats.compressCache.compressions;
    for (let i = 0; i < 5; i++) await t.h2('/noise.txt', { headers: { 'accept-encoding': ALL } });
    assert.equal(t.stats.compressCache.compressions, before, 'the outcome is remembered');
    // Nothing else acceptable: 406, not a coding that does not pay.
    const refused = await t.h1('/noise.txt', { headers: { 'accept-encoding': 'br, identity;q=0' } });
    assert.equal(refused.status, 406);
  });

  test('/_negotiate reports the same decisions', async () => {
    const bin = JSON.parse((await t.h1(`/_negotiate?path=/random.bin&ae=${encodeURIComponent(ALL)}`)).body);
    assert.equal(bin.chosen, 'identity');
    assert.deepEqual(bin.variants.filter((v) => v.available).map((v) => v.coding), ['identity']);
    assert.match(bin.reason, /br unavailable: not compressible \(application\/octet-stream\)/);

    const variant = JSON.parse((await t.h1('/_negotiate?path=/app.js.br&ae=br')).body);
    assert.equal(variant.chosen, 'identity');
    assert.match(variant.reason, /br unavailable: already compressed/);

    // Asked before any request compressed it.
    const noise = JSON.parse((await t.h1('/_negotiate?path=/fresh-noise.txt&ae=gzip')).body);
    assert.equal(noise.chosen, 'identity');
    const gzip = noise.variants.find((v) => v.coding === 'gzip');
    assert.deepEqual([gzip.available, gzip.bytes], [false, null]);
    assert.match(noise.reason, /gzip unavailable: on-the-fly output \(\d+ bytes\) not smaller than the file \(6000 bytes\)/);
    const real = await t.h1('/fresh-noise.txt', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(real.headers['content-encoding'], undefined);

    const app = JSON.parse((await t.h1('/_negotiate?path=/app.js&ae=br')).body);
    assert.deepEqual([app.chosen, app.source], ['br', 'precompressed']);
  });
});
