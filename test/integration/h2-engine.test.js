'use strict';
// The native HTTP/2 engine (startServer({ engine: 'native' })) over real TLS sockets: frames
// sent and checked exactly with a raw client, plus Node's http2 client. Limits, floods,
// flow control of streamed bodies, aborts and shutdown.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const fsp = require('node:fs/promises');
const path = require('node:path');
const tls = require('node:tls');
const { startTestServer, spawnCli, makeTempDir, compressibleText } = require('../helpers/server');
const { RawH2Client } = require('../helpers/h2-raw-client');
const { waitFor, countOpenFds } = require('../helpers/poll');
const { TYPE, FLAG, frame } = require('../helpers/h2-frames');
const { HTTP2_SETTINGS } = require('../../server/engines/start-server');
const { encodeSettings } = require('../../server/engines/h2/settings');

const ERR = { NO_ERROR: 0, PROTOCOL_ERROR: 1, INTERNAL_ERROR: 2, FRAME_SIZE_ERROR: 6, REFUSED_STREAM: 7, COMPRESSION_ERROR: 9, ENHANCE_YOUR_CALM: 11 };
const PRIORITY = 0x2;
const RST_STREAM = 0x3;
const PING = 0x6;
const SETTINGS_HEADER_TABLE_SIZE = 0x1;

const SMALL = 'hello from the native engine\n';
const LARGE = Buffer.from(compressibleText(600 * 1024, 'large'));
const FILES = { 'small.txt': SMALL, 'large.bin': LARGE, 'index.html': '<!doctype html><title>x</title>\n' };

let t;
test.before(async () => {
  // bufferLimit 1 KiB: large.bin is streamed from disk through a Readable.
  t = await startTestServer({ engine: 'native', files: FILES, bufferLimit: 1024, dynamic: false });
});
test.after(() => t.close());

async function client(options) {
  return RawH2Client.connect(t.port, options);
}


test('GET: status, headers with Date, body; HEAD: the same headers and no DATA', async () => {
  const c = await client();
  c.request(1, '/small.txt');
  const res = await c.response(1);
  assert.equal(res.status, 200);
  assert.equal(res.body.toString(), SMALL);
  assert.equal(res.headers['content-length'], String(SMALL.length));
  assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
  assert.ok(Math.abs(Date.parse(res.headers.date) - Date.now()) < 5000, res.headers.date);
  c.request(3, '/small.txt', { method: 'HEAD' });
  const head = await c.response(3);
  assert.equal(head.status, 200);
  assert.equal(head.headers['content-length'], String(SMALL.length));
  assert.deepEqual(head.frames.map((f) => f.type), [TYPE.HEADERS]);
  assert.ok(head.frames[0].flags & FLAG.END_STREAM);
  await c.close();
});

test('a header list over SETTINGS_MAX_HEADER_LIST_SIZE gets 431 and the HPACK state stays in sync', async () => {
  const c = await client();
  const big = 'x'.repeat(HTTP2_SETTINGS.maxHeaderListSize);
  // x-keep is added to both dynamic tables by the oversized block ...
  c.request(1, '/small.txt', { extra: [['x-keep', 'kept'], ['x-big', big]] });
  const res = await c.response(1);
  assert.equal(res.status, 431);
  // ... and the next block refers to it by index only: the server must have decoded the first.
  const block = Buffer.from(c.encoder.encode([[':method', 'GET'], [':scheme', 'https'], [':authority', 'localhost'], [':path', '/small.txt'], ['x-keep', 'kept']]));
  c.send(c.headersFrames(3, block));
  const next = await c.response(3);
  assert.equal(next.status, 200);
  assert.equal(next.body.toString(), SMALL);
  await c.close();
});

test('a header list far over the advertised limit ends the connection (COMPRESSION_ERROR)', async () => {
  const c = await client();
  const huge = 'y'.repeat(HTTP2_SETTINGS.maxHeaderListSize * 4 + 1);
  c.request(1, '/small.txt', { extra: [['x-huge', huge]] });
  // Stream 1 was never acted on.
  assert.deepEqual(await c.goaway(), { lastStreamId: 0, code: ERR.COMPRESSION_ERROR });
  await c.closed;
});

test('a header block of more octets than the hard limit is refused before decoding', async () => {
  const c = await client();
  const fragment = Buffer.alloc(16384);
  const frames = [frame(TYPE.HEADERS, FLAG.END_STREAM, 1, fragment)];
  for (let i = 0; i < 8; i++) frames.push(frame(TYPE.CONTINUATION, 0, 1, fragment));
  c.send(...frames);
  assert.deepEqual(await c.goaway(), { lastStreamId: 0, code: ERR.ENHANCE_YOUR_CALM });
});

test('an undecodable header block is a COMPRESSION_ERROR', async () => {
  const c = await client();
  c.request(1, '/small.txt');
  await c.response(1);
  c.send(c.headersFrames(3, Buffer.from([0x80])));
  assert.deepEqual(await c.goaway(), { lastStreamId: 1, code: ERR.COMPRESSION_ERROR });
});

test('frames on a stream reset while idle are ignored, lower idle streams still open (RFC 9113 5.1)', async () => {
  const c = await client();
  const badPriority = frame(PRIORITY, 0, 5, Buffer.alloc(4));
  c.send(badPriority);
  assert.equal(await c.reset(5), ERR.FRAME_SIZE_ERROR);
  c.send(badPriority);
  // The client never used stream 3: it may still open it.
  c.request(3, '/small.txt');
  assert.equal((await c.response(3)).status, 200);
  c.request(5, '/small.txt');
  c.request(7, '/small.txt');
  c.request(9, '/small.txt');
  assert.equal((await c.response(7)).status, 200);
  assert.equal((await c.response(9)).status, 200);
  c.send(RawH2Client.ping());
  await c.waitFor((f) => f.type === PING && (f.flags & FLAG.ACK) !== 0);
  assert.deepEqual(c.frames.filter((f) => f.streamId === 5).map((f) => f.type), [RST_STREAM]);
  await c.close();
});

test('streams beyond SETTINGS_MAX_CONCURRENT_STREAMS are refused, the others served', async () => {
  const c = await client();
  const max = HTTP2_SETTINGS.maxConcurrentStreams;
  // Requests left open (no END_STREAM) stay in the server until their end arrives.
  for (let i = 0; i <= max; i++) c.request(1 + 2 * i, '/small.txt', { endStream: false });
  assert.equal(await c.reset(1 + 2 * max), ERR.REFUSED_STREAM);
  const ends = [];
  for (let i = 0; i < max; i++) ends.push(c.data(1 + 2 * i, Buffer.alloc(0), { endStream: true }));
  c.send(...ends);
  for (let i = 0; i < max; i++) assert.equal((await c.response(1 + 2 * i)).status, 200);
  assert.equal(c.frames.filter((f) => f.type === RST_STREAM).length, 1);
  await c.close();
});

test('rapid reset: opening and cancelling streams past the budget gets GOAWAY ENHANCE_YOUR_CALM', async () => {
  const c = await client();
  const frames = [];
  for (let i = 0; i < 1100; i++) {
    const id = 1 + 2 * i;
    frames.push(c.headersFrames(id, [[':method', 'GET'], [':scheme', 'https'], [':path', '/small.txt']]), RawH2Client.rstStream(id, 8));
  }
  c.send(...frames);
  const { code } = await c.goaway();
  assert.equal(code, ERR.ENHANCE_YOUR_CALM);
  await c.closed;
});

test('a flood of malformed requests, each a stream error, gets GOAWAY ENHANCE_YOUR_CALM', async () => {
  const c = await client();
  const frames = [];
  for (let i = 0; i < 1100; i++) frames.push(c.headersFrames(1 + 2 * i, [[':method', 'GET'], [':scheme', 'https'], [':path', '/'], ['connection', 'close']]));
  c.send(...frames);
  assert.equal((await c.goaway()).code, ERR.ENHANCE_YOUR_CALM);
  const resets = c.frames.filter((f) => f.type === RST_STREAM);
  assert.ok(resets.length >= 1000 && resets.length < 1100, `${resets.length} RST_STREAM`);
  assert.ok(resets.every((f) => f.payload.readUInt32BE(0) === ERR.PROTOCOL_ERROR));
});

test('frames after our RST_STREAM past the glitch budget get GOAWAY ENHANCE_YOUR_CALM, each HEADERS block still decoded', async () => {
  const c = await client();
  c.send(c.headersFrames(1, [[':method', 'GET'], [':scheme', 'https'], [':path', '/'], ['connection', 'close']]));
  assert.equal(await c.reset(1), ERR.PROTOCOL_ERROR);
  // 500 trailer blocks, each inserting a field the next request refers to: the HPACK state
  // stays in sync while they are ignored (RFC 9113 5.1).
  const trailers = [];
  for (let i = 0; i < 500; i++) trailers.push(c.headersFrames(1, [['x-n', String(i)]]));
  c.send(...trailers);
  c.request(3, '/small.txt', { extra: [['x-n', '499']] });
  assert.equal((await c.response(3)).status, 200);
  const frames = [];
  for (let i = 0; i < 600; i++) frames.push(c.data(1, Buffer.from('x')));
  c.send(...frames);
  assert.deepEqual(await c.goaway(), { lastStreamId: 3, code: ERR.ENHANCE_YOUR_CALM });
  await c.closed;
});

test('a PING flood gets its first PINGs answered, then GOAWAY ENHANCE_YOUR_CALM', async () => {
  const c = await client();
  const pings = [];
  for (let i = 0; i < 1500; i++) pings.push(RawH2Client.ping());
  c.send(...pings);
  const { code } = await c.goaway();
  assert.equal(code, ERR.ENHANCE_YOUR_CALM);
  const acks = c.frames.filter((f) => f.type === 0x6 && f.flags & FLAG.ACK).length;
  assert.ok(acks >= 1000 && acks < 1500, `${acks} PING ACKs`);
});

test('a PING flood after 11 s of quiet gets no more than the burst and what the rate adds during the flood', async (tt) => {
  // The engine's monotonic clock jumps 11 s forward instead of the test waiting them out.
  const realNow = performance.now.bind(performance);
  let skipped = 0;
  tt.mock.method(performance, 'now', () => realNow() + skipped);
  const c = await client();
  c.send(RawH2Client.ping());
  await c.waitFor((f) => f.type === PING && (f.flags & FLAG.ACK) !== 0);
  skipped = 11_000;
  const startedAt = realNow();
  const pings = [];
  for (let i = 0; i < 2500; i++) pings.push(RawH2Client.ping());
  c.send(...pings);
  assert.equal((await c.goaway()).code, ERR.ENHANCE_YOUR_CALM);
  const floodMs = realNow() - startedAt;
  const acks = c.frames.filter((f) => f.type === PING && f.flags & FLAG.ACK).length - 1;
  tt.diagnostic(`${acks} PING ACKs in ${floodMs.toFixed(0)} ms`);
  // CONTROL_BURST (1,000) plus CONTROL_RATE (100 a second) for as long as the flood took.
  assert.ok(acks >= 1000 && acks <= 1000 + Math.ceil(floodMs / 10), `${acks} PING ACKs in ${floodMs.toFixed(0)} ms`);
});

test('a CONTINUATION flood ends the connection', async () => {
  const c = await client();
  const block = Buffer.from(c.encoder.encode([[':method', 'GET'], [':scheme', 'https'], [':path', '/']]));
  const frames = [frame(TYPE.HEADERS, FLAG.END_STREAM, 1, block)];
  for (let i = 0; i < 100; i++) frames.push(frame(TYPE.CONTINUATION, 0, 1, Buffer.alloc(0)));
  c.send(...frames);
  assert.equal((await c.goaway()).code, ERR.ENHANCE_YOUR_CALM);
});

test('a streamed body is sent only as far as the windows allow and resumes on WINDOW_UPDATE', async () => {
  const c = await client({ autoWindowUpdate: false });
  c.request(1, '/large.bin');
  const stalled = await waitForDataBytes(c, 1, 65535);
  assert.equal(stalled, 65535, 'exactly the initial window');
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(dataBytes(c, 1), 65535, 'nothing more until the window opens');
  c.autoWindowUpdate = true;
  c.windowUpdate(0, LARGE.length);
  c.windowUpdate(1, LARGE.length);
  const res = await c.response(1);
  assert.equal(res.status, 200);
  assert.ok(res.body.equals(LARGE));
  assert.ok(res.frames.filter((f) => f.type === TYPE.DATA).every((f) => f.payload.length <= 16384), 'no DATA over the frame size');
  await c.close();
});

test('streams share the connection window: a connection WINDOW_UPDATE resumes every stalled stream', async () => {
  const c = await client({ settings: [[0x4, 4 * 1024 * 1024]], autoWindowUpdate: false });
  c.request(1, '/large.bin');
  c.request(3, '/large.bin');
  await waitFor(() => dataBytes(c, 1) + dataBytes(c, 3) >= 65535, { what: 'a full connection window of DATA' });
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(dataBytes(c, 1) + dataBytes(c, 3), 65535, 'the connection window bounds both streams together');
  c.autoWindowUpdate = true;
  c.windowUpdate(0, 2 * LARGE.length);
  for (const id of [1, 3]) assert.ok((await c.response(id)).body.equals(LARGE), `stream ${id}`);
  await c.close();
});

test('after the peer GOAWAY the streams in flight are answered, then the connection closes', async () => {
  const c = await client();
  c.request(1, '/small.txt');
  c.send(frame(TYPE.GOAWAY, 0, 0, Buffer.from('0000000100000000', 'hex')));
  assert.equal((await c.response(1)).body.toString(), SMALL);
  assert.deepEqual(await c.goaway(), { lastStreamId: 1, code: ERR.NO_ERROR });
  await c.closed;
});

test('SETTINGS_INITIAL_WINDOW_SIZE 0 holds a response until WINDOW_UPDATE, MAX_FRAME_SIZE is honoured', async () => {
  const c = await client({ settings: [[0x4, 0], [0x5, 20000]], autoWindowUpdate: false });
  c.request(1, '/large.bin');
  await c.waitFor((f) => f.type === TYPE.HEADERS && f.streamId === 1);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(dataBytes(c, 1), 0);
  c.autoWindowUpdate = true;
  c.windowUpdate(0, LARGE.length);
  c.windowUpdate(1, LARGE.length);
  const res = await c.response(1);
  assert.ok(res.body.equals(LARGE));
  assert.ok(res.frames.some((f) => f.type === TYPE.DATA && f.payload.length === 20000), 'frames up to the peer MAX_FRAME_SIZE');
  await c.close();
});

test('a peer RST_STREAM mid-body releases the file', async () => {
  // The body's own descriptor: sockets of other tests' connections may still be closing.
  const bodyFds = () => countOpenFds((target) => target.endsWith(`${path.sep}large.bin`));
  const c = await client({ autoWindowUpdate: false });
  c.request(1, '/large.bin');
  await waitForDataBytes(c, 1, 65535);
  assert.equal(bodyFds(), 1, 'the body holds an fd while stalled');
  c.send(RawH2Client.rstStream(1, 8));
  await waitFor(() => bodyFds() === 0, { what: 'the body\'s fd to close' });
  await c.close();
});

test('a body that fails mid-way resets the stream with INTERNAL_ERROR, never END_STREAM', async () => {
  const file = path.join(t.root, 'shrinks.bin');
  await fsp.writeFile(file, Buffer.alloc(2 * 1024 * 1024, 0x61));
  const c = await client({ autoWindowUpdate: false });
  c.request(1, '/shrinks.bin');
  await waitForDataBytes(c, 1, 65535);
  await fsp.truncate(file, 1024 * 1024);
  c.autoWindowUpdate = true;
  c.windowUpdate(0, 4 * 1024 * 1024);
  c.windowUpdate(1, 4 * 1024 * 1024);
  assert.equal(await c.reset(1), ERR.INTERNAL_ERROR);
  assert.ok(!c.frames.some((f) => f.streamId === 1 && f.type === TYPE.DATA && f.flags & FLAG.END_STREAM));
  await c.close();
});

test('a request body is drained under flow control, trailers end a request', async () => {
  const c = await client();
  c.request(1, '/small.txt', { method: 'POST', endStream: false });
  // 48 KiB: within the stream window, so END_STREAM arrives before the answer.
  for (let i = 0; i < 3; i++) c.send(c.data(1, Buffer.alloc(16384), { endStream: i === 2 }));
  assert.equal((await c.response(1)).status, 405);
  c.request(3, '/small.txt', { endStream: false });
  c.send(c.headersFrames(3, [['x-trailer', 'yes']], { endStream: true }));
  assert.equal((await c.response(3)).status, 200);
  await c.close();
});

test('a long request body is answered early and cut off with RST_STREAM NO_ERROR', async () => {
  const c = await client();
  c.request(1, '/small.txt', { method: 'POST', endStream: false });
  // 80 KiB, more than both initial windows: the server credits them back as it reads, and
  // answers once 64 KiB are in.
  for (let i = 0; i < 5; i++) c.send(c.data(1, Buffer.alloc(16384)));
  const res = await c.response(1);
  assert.equal(res.status, 405);
  assert.equal(await c.reset(1), ERR.NO_ERROR);
  // The connection goes on.
  c.request(3, '/small.txt');
  assert.equal((await c.response(3)).status, 200);
  await c.close();
});

test('a peer SETTINGS_HEADER_TABLE_SIZE of 0 is honoured', async () => {
  const s = await startTestServer({ engine: 'native', files: FILES });
  try {
    // The client's decoder then insists on a size update before anything else.
    const c = await RawH2Client.connect(s.port, { settings: [[SETTINGS_HEADER_TABLE_SIZE, 0]], decoderTableSize: 0 });
    for (let i = 0; i < 3; i++) {
      c.request(1 + 2 * i, '/small.txt');
      const res = await c.response(1 + 2 * i);
      assert.equal(res.status, 200);
      assert.equal(res.body.toString(), SMALL);
    }
    await c.close();
  } finally {
    await s.close();
  }
});

test('Node http2 client: concurrent requests on one session, br negotiated', async () => {
  const session = t.connectH2();
  const results = await Promise.all(Array.from({ length: 20 }, (_, i) => t.h2(i % 2 ? '/small.txt' : '/index.html', { session })));
  for (const [i, r] of results.entries()) assert.equal(r.status, 200, `request ${i}`);
  assert.equal(results[1].body.toString(), SMALL);
});

test('graceful close: GOAWAY, the stream in flight completes, then the connection ends', async () => {
  const s = await startTestServer({ engine: 'native', files: FILES, bufferLimit: 1024 });
  const c = await RawH2Client.connect(s.port, { autoWindowUpdate: false });
  c.request(1, '/large.bin');
  await waitForDataBytes(c, 1, 65535);
  const closing = s.server.close({ timeoutMs: 5000 });
  assert.deepEqual(await c.goaway(), { lastStreamId: 1, code: ERR.NO_ERROR });
  c.autoWindowUpdate = true;
  c.windowUpdate(0, LARGE.length);
  c.windowUpdate(1, LARGE.length);
  assert.ok((await c.response(1)).body.equals(LARGE));
  await c.closed;
  await closing;
  await s.close();
});

test('a client that never sends its preface is dropped after headersTimeout', async () => {
  const s = await startTestServer({ engine: 'native', files: FILES, timeouts: { headersTimeout: 300 } });
  try {
    const socket = tls.connect({ port: s.port, host: '127.0.0.1', ALPNProtocols: ['h2'], rejectUnauthorized: false });
    socket.on('error', () => {});
    socket.resume(); // read our SETTINGS and the end
    const started = Date.now();
    await new Promise((resolve) => socket.once('close', resolve));
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 250 && elapsed < 3000, `${elapsed} ms`);
  } finally {
    await s.close();
  }
});

test('an idle connection gets GOAWAY NO_ERROR after http2IdleTimeout', async () => {
  const s = await startTestServer({ engine: 'native', files: FILES, timeouts: { http2IdleTimeout: 300 } });
  try {
    const c = await RawH2Client.connect(s.port);
    c.request(1, '/small.txt');
    await c.response(1);
    assert.deepEqual(await c.goaway(3000), { lastStreamId: 1, code: ERR.NO_ERROR });
    await c.closed;
  } finally {
    await s.close();
  }
});

test('a connection that only sends PING, SETTINGS and WINDOW_UPDATE gets GOAWAY NO_ERROR at http2IdleTimeout', async () => {
  const s = await startTestServer({ engine: 'native', files: FILES, timeouts: { http2IdleTimeout: 400 } });
  try {
    const c = await RawH2Client.connect(s.port);
    const startedAt = performance.now();
    let n = 0;
    const keepAlive = setInterval(() => {
      const control = [RawH2Client.ping(), frame(TYPE.SETTINGS, 0, 0), frame(0x8, 0, 0, Buffer.from([0, 0, 0, 1]))];
      c.send(control[n++ % control.length]);
    }, 40);
    try {
      assert.deepEqual(await c.goaway(4000), { lastStreamId: 0, code: ERR.NO_ERROR });
    } finally {
      clearInterval(keepAlive);
    }
    const ms = performance.now() - startedAt;
    // The limit, up to one tick (a quarter of it) later, plus this machine's scheduling.
    assert.ok(ms >= 400 - 20 && ms < 400 + 100 + 1000, `GOAWAY after ${ms.toFixed(0)} ms`);
    await c.closed;
  } finally {
    await s.close();
  }
});

test('one access-log line per request, aborted responses marked', async () => {
  const lines = [];
  const logger = {
    enabled: (level) => level !== 'debug',
    info: (msg) => lines.push(msg), debug() {}, warn() {}, error: (msg) => lines.push(`error ${msg}`),
    drain: async () => {},
  };
  const s = await startTestServer({ engine: 'native', files: FILES, bufferLimit: 1024, logger });
  lines.length = 0; // what start-up said (such as which TLS transport runs)
  try {
    const c = await RawH2Client.connect(s.port, { autoWindowUpdate: false });
    c.request(1, '/small.txt');
    await c.response(1);
    c.request(3, '/large.bin');
    // What the connection window leaves after the first response.
    const sent = 65535 - SMALL.length;
    await waitForDataBytes(c, 3, sent);
    c.send(RawH2Client.rstStream(3, 8));
    await waitFor(() => lines.length === 2, { what: 'two log lines' });
    assert.match(lines[0], new RegExp(`^GET /small.txt 200 identity ${SMALL.length} [0-9.]+ms$`));
    assert.match(lines[1], new RegExp(`^GET /large.bin 200 reset by peer \\(CANCEL\\) identity ${sent} [0-9.]+ms$`));
    await c.close();
  } finally {
    await s.close();
  }
});

// Literal with incremental indexing (RFC 7541 6.2.1), name from the static table.
function literalIndexed(nameIndex, value) {
  return Buffer.concat([Buffer.from([0x40 | nameIndex, value.length]), Buffer.from(value, 'latin1')]);
}

test('a repeated all-indexed block is answered again; the same octets after the table changed mean the new fields', async () => {
  const c = await client();
  const GET_HTTPS = Buffer.from([0x82, 0x87]); // static 2 (:method GET), 7 (:scheme https)
  const ask = async (id, block) => {
    c.send(c.headersFrames(id, block));
    const res = await c.response(id);
    assert.equal(res.status, 200);
    return res.body.toString();
  };
  // Dynamic table after it: 62 :authority localhost, 63 :path /small.txt.
  assert.equal(await ask(1, Buffer.concat([GET_HTTPS, literalIndexed(4, '/small.txt'), literalIndexed(1, 'localhost')])), SMALL);
  const indexed = Buffer.from([0x82, 0x87, 0xbf, 0xbe]); // 63, 62: indexed fields only
  assert.equal(await ask(3, indexed), SMALL);
  assert.equal(await ask(5, indexed), SMALL);
  // Inserts :path /index.html: 62 is now that, 63 :authority localhost, 64 :path /small.txt.
  assert.equal(await ask(7, Buffer.concat([GET_HTTPS, literalIndexed(4, '/index.html'), Buffer.from([0xbf])])), FILES['index.html']);
  // The octets of streams 3 and 5 now name :authority (63) and :path /index.html (62).
  assert.equal(await ask(9, indexed), FILES['index.html']);
  await c.close();
});

test('HTTP/1.1 and no-ALPN clients share the port', async () => {
  const res = await t.h1('/small.txt');
  assert.equal(res.status, 200);
  assert.equal(res.alpn, 'http/1.1');
  const socket = tls.connect({ port: t.port, host: '127.0.0.1', rejectUnauthorized: false });
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('secureConnect', resolve));
  socket.write('GET /small.txt HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
  let text = '';
  socket.on('data', (d) => { text += d; });
  await new Promise((resolve) => socket.once('close', resolve));
  assert.match(text, /^HTTP\/1\.1 200 OK\r\n/);
  assert.ok(text.endsWith(SMALL));
});

function dataBytes(c, streamId) {
  return c.frames.filter((f) => f.type === TYPE.DATA && f.streamId === streamId).reduce((n, f) => n + f.payload.length, 0);
}

async function waitForDataBytes(c, streamId, bytes) {
  await waitFor(() => dataBytes(c, streamId) >= bytes, { what: `${bytes} DATA bytes on stream ${streamId}` });
  return dataBytes(c, streamId);
}



test('the CLI selects the engine with --engine and NEGOTIATE_ENGINE', async (ctx) => {
  const ours = encodeSettings(HTTP2_SETTINGS).toString('hex');
  // Its own certificate and local CA, never the user's config dir.
  const dir = await makeTempDir('negotiate-engine-cli-');
  ctx.after(() => fsp.rm(dir, { recursive: true, force: true }));
  const tlsDirs = ['--certs-dir', path.join(dir, 'certs'), '--ca-dir', path.join(dir, 'ca')];
  for (const [args, env] of [[['--engine', 'native'], {}], [[], { NEGOTIATE_ENGINE: 'native' }]]) {
    const cli = await spawnCli(['--port', '0', '--root', t.root, '--log-level', 'warn', ...tlsDirs, ...args], { env });
    try {
      const c = await RawH2Client.connect(cli.port);
      const first = c.frames.find((f) => f.type === TYPE.SETTINGS && !(f.flags & FLAG.ACK));
      assert.equal(first.payload.toString('hex'), ours, `${args.join(' ')} ${JSON.stringify(env)}`);
      c.request(1, '/small.txt');
      assert.equal((await c.response(1)).body.toString(), SMALL);
      await c.close();
    } finally {
      await cli.stop();
    }
  }
});
