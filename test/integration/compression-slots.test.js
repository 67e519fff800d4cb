'use strict';
// A streamed on-the-fly response read to its end gives its compression slot back: more such
// responses than the pool has slots, one after the other, are all compressed, and no slot is
// held after them. (lzma-native's streams never emitted 'close' after a whole body, so each
// lzma response kept its slot and the server stopped compressing large files after three.)
// robust-server-aborts.test.js covers responses the client abandons.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { forEachEngine, startTestServer, compressibleText } = require('../helpers/server');
const { engines, decode } = require('../helpers/clients');
const { waitFor } = require('../helpers/poll');

const MiB = 1024 * 1024;
const TEXT = compressibleText(2 * MiB);

forEachEngine((engine) => {
  let t;

  before(async () => {
    // Over bufferLimit, so the file is streamed from an fd through a streaming compressor.
    t = await startTestServer({ engine, files: { 'big.txt': TEXT }, bufferLimit: MiB });
  });

  after(() => t.close());

  const noSlotHeld = () => waitFor(() => t.stats.streamingCompressions === 0,
    { what: () => `no compression slot held: ${JSON.stringify(t.stats.compressionSlots)}` });

  for (const coding of ['gzip', 'deflate', 'br', 'zstd', 'lzma'].filter((c) => engines.available.includes(c))) {
    test(`${coding}: responses read to their end free their compression slots`, async () => {
      const { sizes } = t.stats.compressionSlots;
      const requests = Math.max(sizes.libuv, sizes.zstd) + 1;
      for (let i = 0; i < requests; i++) {
        await noSlotHeld();
        const res = i % 2 === 0
          ? await t.h2('/big.txt', { headers: { 'accept-encoding': coding } })
          : await t.h1('/big.txt', { headers: { 'accept-encoding': coding } });
        assert.equal(res.status, 200);
        assert.equal(res.headers['content-encoding'], coding, `response ${i + 1} of ${requests}`);
        assert.ok((await decode(coding, res.body)).equals(Buffer.from(TEXT)), `response ${i + 1} decodes to the file`);
      }
      await noSlotHeld();
    });
  }
});
