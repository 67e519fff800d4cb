'use strict';
// HPACK bombs sent to the server, not just its decoder (test/unit/robust-hpack.test.js): header
// blocks that are small on the wire and huge once decoded (RFC 7541 7.3), and a header block
// split into thousands of CONTINUATION frames (CVE-2024-27316), over real TLS sockets to each
// engine. Each must end in the engine's exact refusal, promptly and in bounded memory, and the
// server must go on serving other connections.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { forEachEngine, startTestServer } = require('../helpers/server');
const { RawH2Client } = require('../helpers/h2-raw-client');
const { frame, hpackLiteral, TYPE, FLAG } = require('../helpers/h2-frames');

const MiB = 1024 * 1024;
const ROUNDS = 20;
const REQUEST = [[':method', 'GET'], [':scheme', 'https'], [':authority', 'localhost'], [':path', '/small.txt']];
const GOAWAY = (code) => `goaway ${code}`;

// Each bomb: the header block after the request's own fields (the client's encoder has not
// indexed anything, so the first inserted entry is dynamic index 62).
const BOMBS = {
  // One 4000-octet entry referenced 16,000 times: 16 KB on the wire, 64 MB decoded.
  'a dynamic entry referenced 16,000 times': () => Buffer.concat([hpackLiteral('x-bomb', 'b'.repeat(4000), { index: true }), Buffer.alloc(16_000, 0x80 | 62)]),
  // A static entry (16, accept-encoding: gzip, deflate) 16,000 times: 16 KB on the wire, 960 KB decoded.
  'a static entry repeated 16,000 times': () => Buffer.alloc(16_000, 0x80 | 16),
};

forEachEngine((engine) => {
  let t;

  before(async () => {
    t = await startTestServer({ engine, files: { 'small.txt': 'ok\n' } });
  });

  after(() => t.close());

  async function stillServes() {
    const r = await t.h2('/small.txt', { session: t.connectH2() });
    assert.equal(r.status, 200);
    assert.equal(r.body.toString(), 'ok\n');
  }

  // Sends `frames` after the preface on a fresh connection; resolves how the server ended
  // it: 'rst <code>' on stream 1, 'goaway <code>', or the status it answered with.
  async function outcome(frames) {
    const client = await RawH2Client.connect(t.port);
    try {
      client.send(frames);
      const f = await client.waitFor((x) => x.type === TYPE.GOAWAY || x.type === 0x3 || (x.type === TYPE.HEADERS && x.streamId === 1));
      if (f.type === TYPE.GOAWAY) return GOAWAY(f.payload.readUInt32BE(4));
      if (f.type === 0x3) return `rst ${f.payload.readUInt32BE(0)}`;
      return f.headers[':status'];
    } finally {
      client.socket.destroy();
    }
  }

  function bombFrames(client, body) {
    const block = Buffer.concat([Buffer.from(client.encoder.encode(REQUEST)), body]);
    return client.headersFrames(1, block);
  }

  // node:http2 (nghttp2) keeps decoding past its header limit, so its HPACK state stays in
  // sync, and resets the stream with ENHANCE_YOUR_CALM; the native engine's decoder stops at
  // 4 x SETTINGS_MAX_HEADER_LIST_SIZE, after which the connection's HPACK state is lost, so it
  // ends the connection with COMPRESSION_ERROR.
  const EXPECTED = {
    'a dynamic entry referenced 16,000 times': { node: 'rst 11', native: GOAWAY(9) },
    'a static entry repeated 16,000 times': { node: 'rst 11', native: GOAWAY(9) },
  };
  // nghttp2 allows a few CONTINUATION frames per block (8) and reports more as an internal
  // error; the native engine allows 64 and ends the connection with ENHANCE_YOUR_CALM.
  const CONTINUATION_FLOOD = { node: GOAWAY(2), native: GOAWAY(11) };

  for (const [name, body] of Object.entries(BOMBS)) {
    test(`${name}: ${EXPECTED[name][engine]}, ${ROUNDS} times in bounded memory`, async () => {
      const before = process.memoryUsage();
      for (let i = 0; i < ROUNDS; i++) {
        const client = await RawH2Client.connect(t.port);
        const frames = bombFrames(client, body());
        client.socket.destroy();
        assert.equal(await outcome(frames), EXPECTED[name][engine], `round ${i}`);
      }
      const grew = process.memoryUsage().rss - before.rss;
      assert.ok(grew < 64 * MiB, `RSS grew ${(grew / MiB).toFixed(1)} MiB`);
      await stillServes();
    });
  }

  // A header block in 10,000 CONTINUATION frames of one octet each never reaches a decoder
  // whole: the server must stop it long before its end.
  test(`a header block split into 10,000 CONTINUATION frames: ${CONTINUATION_FLOOD[engine]}`, async () => {
    const client = await RawH2Client.connect(t.port);
    const block = Buffer.from(client.encoder.encode([...REQUEST, ['x-pad', 'p'.repeat(10_000)]]));
    client.socket.destroy();
    const frames = [frame(TYPE.HEADERS, 0, 1, block.subarray(0, 1))];
    for (let i = 1; i < block.length; i++) frames.push(frame(TYPE.CONTINUATION, i === block.length - 1 ? FLAG.END_HEADERS : 0, 1, block.subarray(i, i + 1)));
    assert.equal(await outcome(Buffer.concat(frames)), CONTINUATION_FLOOD[engine]);
    await stillServes();
  });
});
