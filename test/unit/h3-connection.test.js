'use strict';
// The HTTP/3 engine over the in-memory QUIC of test/helpers/fake-quic.js: requests through the
// real core over a temporary root (byte-exact bodies, the same headers HTTP/2 gets), the QPACK
// dynamic table on later responses, each stream and connection error with its code,
// backpressure, and GOAWAY on a graceful close.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { serveHttp3 } = require('../../server/engines/h3');
const { FRAME, encodeFrame, frameHeader } = require('../../server/engines/h3/frames');
const { ERROR, errorName } = require('../../server/engines/h3/errors');
const { encodeVarint } = require('../../server/engines/h3/varint');
const { encodeSettings } = require('../../server/engines/h3/settings');
const { HTTP3, TIMEOUTS } = require('../../server/config/limits');
const { normalizeOptions } = require('../../server/config/options');
const { createCore } = require('../../server/site/create-core');
const { Recorder } = require('../../server/metrics/recorder');
const { FakeConnection, FakeClient, framesOf, uniType, literalSection } = require('../helpers/fake-quic');
const { waitFor } = require('../helpers/poll');

const silent = { enabled: () => false, debug() {}, info() {}, warn() {}, error() {} };
const TEXT = 'hello over HTTP/3\n'.repeat(200);
const BIG = Buffer.alloc(300 * 1024, 'abcdefghij');

function makeCore(t) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'h3-'));
  fs.writeFileSync(path.join(root, 'hello.txt'), TEXT);
  fs.writeFileSync(path.join(root, 'big.txt'), BIG);
  fs.writeFileSync(path.join(root, 'photo.bin'), Buffer.from([0, 1, 2, 3, 255]));
  const core = createCore(normalizeOptions({ root, precompress: false, logLevel: 'silent' }), silent);
  t.after(async () => {
    await core.close();
    fs.rmSync(root, { recursive: true, force: true });
  });
  return core;
}

function stubCore(log = []) {
  const respond = (status, text) => ({ status, headers: { 'content-type': 'text/plain' }, h2: null, body: text === null ? null : Buffer.from(text), coding: 'identity' });
  return {
    decide: (method, target) => Promise.resolve(respond(200, method === 'HEAD' ? null : `ok ${target}`)),
    errorResponse: (err, isHead) => respond(err.status, isHead ? null : err.message),
    logAccess: (...args) => log.push(args),
  };
}

function serve(core, { conn = new FakeConnection(), limits, isClosing = () => false, metrics } = {}) {
  const connection = serveHttp3(conn, { core, log: silent, timeouts: TIMEOUTS, isClosing, limits, metrics });
  return { conn, connection };
}

const closedWith = (conn) => (conn.closed === null ? null : errorName(conn.closed.code));
const settle = (stream) => waitFor(() => stream.fin || stream.resetCode !== null, { what: `stream ${stream.id} to end` });

test('the server opens its control stream with SETTINGS, then its QPACK encoder and decoder streams', () => {
  const { conn } = serve(stubCore());
  assert.deepEqual(conn.uni.map(uniType), [0x00, 0x02, 0x03]);
  const client = new FakeClient(conn);
  assert.deepEqual(client.serverSettings(), {
    qpackMaxTableCapacity: HTTP3.settings.qpackMaxTableCapacity,
    qpackBlockedStreams: HTTP3.settings.qpackBlockedStreams,
    maxFieldSectionSize: HTTP3.settings.maxFieldSectionSize,
  });
  assert.equal(framesOf(conn.uni[0].written, 1).length, 1);
});

test('a GET through the real core: the body byte-exact, the headers those HTTP/2 gets', async (t) => {
  const core = makeCore(t);
  const { conn } = serve(core);
  const client = new FakeClient(conn);
  const stream = client.request('/hello.txt');
  await settle(stream);
  const res = client.response(stream);
  assert.equal(res.status, 200);
  assert.equal(res.body.toString(), TEXT);
  const d = await core.decide('GET', '/hello.txt', { ':method': 'GET', ':path': '/hello.txt', ':scheme': 'https', ':authority': 'localhost' });
  const expected = Object.entries(d.h2).filter(([n]) => n !== ':status').map(([n, v]) => [n, String(v)]);
  assert.deepEqual(res.headers.filter(([n]) => n !== 'date'), expected);
  assert.match(client.header(res, 'date'), /GMT$/);
  assert.equal(conn.closed, null);
});

test('gzip, Range and 304 come out as the core decides them', async (t) => {
  const core = makeCore(t);
  const { conn } = serve(core);
  const client = new FakeClient(conn);
  const gz = client.request('/hello.txt', [['accept-encoding', 'gzip']]);
  await settle(gz);
  const gzRes = client.response(gz);
  assert.equal(client.header(gzRes, 'content-encoding'), 'gzip');
  assert.equal(zlib.gunzipSync(gzRes.body).toString(), TEXT);
  const range = client.request('/hello.txt', [['range', 'bytes=6-10']]);
  await settle(range);
  const rangeRes = client.response(range);
  assert.equal(rangeRes.status, 206);
  assert.equal(rangeRes.body.toString(), TEXT.slice(6, 11));
  const etag = client.header(gzRes, 'etag');
  const cond = client.request('/hello.txt', [['accept-encoding', 'gzip'], ['if-none-match', etag]]);
  await settle(cond);
  const condRes = client.response(cond);
  assert.equal(condRes.status, 304);
  assert.equal(conn.closed, null);
  assert.equal(framesOf(cond.written).length, 1, 'a 304 is HEADERS and FIN, no DATA');
});

test('HEAD and 204 get HEADERS and FIN only', async (t) => {
  const core = makeCore(t);
  const { conn } = serve(core);
  const client = new FakeClient(conn);
  const head = client.request('/hello.txt', [], { method: 'HEAD' });
  const options = client.request('*', [], { method: 'OPTIONS' });
  await settle(head);
  await settle(options);
  assert.equal(client.response(head).status, 200);
  assert.equal(client.header(client.response(head), 'content-length'), String(TEXT.length));
  assert.deepEqual(framesOf(head.written).map((f) => f.type), [FRAME.HEADERS]);
  assert.equal(client.response(options).status, 204);
  assert.deepEqual(framesOf(options.written).map((f) => f.type), [FRAME.HEADERS]);
});

test('the second response references the QPACK dynamic table: a smaller HEADERS; the metrics count both parts and the fields', async (t) => {
  const core = makeCore(t);
  const metrics = new Recorder(() => core.stats);
  const { conn } = serve(core, { metrics });
  const client = new FakeClient(conn);
  // Each response's cost: its section and the inserts it sent ahead of it.
  const costs = [];
  for (let i = 0; i < 2; i++) {
    const before = conn.uni[1].written.length;
    const stream = client.request('/hello.txt');
    await settle(stream);
    const res = client.response(stream);
    assert.equal(res.body.toString(), TEXT);
    // Name and value octets as the client decoded them, :status included.
    const fields = res.headers.reduce((n, [name, value]) => n + name.length + value.length, ':status'.length + String(res.status).length);
    costs.push({ section: res.headersSize, inserts: conn.uni[1].written.length - before, fields });
  }
  assert.ok(costs[0].inserts > 0, 'inserts on the encoder stream');
  // Only a Date of a new second may be inserted again.
  assert.ok(costs[1].section + costs[1].inserts < (costs[0].section + costs[0].inserts) / 2, JSON.stringify(costs));
  const sum = (part) => costs.reduce((n, c) => n + c[part], 0);
  const counted = metrics.render().split('\n').filter((l) => /^negotiate_qpack_encoded_bytes_total\{|direction="response"/.test(l));
  assert.deepEqual(counted, [
    `negotiate_qpack_encoded_bytes_total{stream="request"} ${sum('section')}`,
    `negotiate_qpack_encoded_bytes_total{stream="encoder"} ${sum('inserts')}`,
    'negotiate_qpack_sections_total{direction="response"} 2',
    `negotiate_qpack_field_bytes_total{direction="response"} ${sum('fields')}`,
  ]);
});

test('without the peer\'s SETTINGS yet, responses use no dynamic table', async () => {
  const { conn } = serve(stubCore());
  const client = new FakeClient(conn, { settings: false });
  const stream = client.request('/x');
  await settle(stream);
  assert.equal(client.response(stream).body.toString(), 'ok /x');
  assert.equal(conn.uni[1].written.length, 1, 'only the stream type on the encoder stream');
});

test('a request whose HEADERS wait for inserts goes on once they arrive, is acknowledged, and is counted as blocked', async () => {
  let now = 0;
  const metrics = new Recorder(() => ({ compressCache: { hits: 0, misses: 0 }, compressionSlots: { acquired: {}, heldMs: {} } }), { now: () => now });
  const { conn } = serve(stubCore(), { metrics });
  const client = new FakeClient(conn);
  const stream = conn.open(true);
  const request = [[':method', 'GET'], [':scheme', 'https'], [':authority', 'localhost'], [':path', '/late'], ['x-a', 'b']];
  const { section, encoderStream, fieldBytes } = client.encoder.encode(stream.id, request);
  assert.ok(encoderStream.length > 0);
  stream.push(encodeFrame(FRAME.HEADERS, section), true);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(stream.written.length, 0, 'blocked');
  now += 40;
  client.encoderStream.push(encoderStream);
  await settle(stream);
  assert.equal(client.response(stream).body.toString(), 'ok /late');
  const acks = conn.uni[2].written.subarray(1);
  assert.ok(acks.length > 0 && (acks[0] & 0x80) !== 0, 'a Section Acknowledgment on our decoder stream');
  client.encoder.feedDecoder(acks);
  const counted = metrics.render().split('\n').filter((l) => /^negotiate_qpack_(decoded|blocked|sections|field)/.test(l) && !l.includes('direction="response"'));
  assert.deepEqual(counted, [
    `negotiate_qpack_decoded_bytes_total{stream="request"} ${section.length}`,
    `negotiate_qpack_decoded_bytes_total{stream="encoder"} ${encoderStream.length}`,
    'negotiate_qpack_sections_total{direction="request"} 1',
    `negotiate_qpack_field_bytes_total{direction="request"} ${fieldBytes}`,
    'negotiate_qpack_blocked_sections_total 1',
    'negotiate_qpack_blocked_seconds_total 0.04',
    `negotiate_qpack_blocked_bytes_max ${section.length}`,
  ]);
});

const field = (path, extra = []) => [[':method', 'GET'], [':scheme', 'https'], [':authority', 'localhost'], [':path', path], ...extra];

// Each case: what the client does after its setup -> the connection's close code, or the
// request stream's reset code.
const CONNECTION_ERRORS = [
  ['DATA before HEADERS', (c) => c.conn.open(true).push(encodeFrame(FRAME.DATA, Buffer.from('x'))), 'H3_FRAME_UNEXPECTED'],
  ['PUSH_PROMISE from a client', (c) => c.conn.open(true).push(encodeFrame(FRAME.PUSH_PROMISE, Buffer.from([0, 0, 0]))), 'H3_FRAME_UNEXPECTED'],
  ['HTTP/2 PING type on a request stream', (c) => c.conn.open(true).push(encodeFrame(0x6, Buffer.alloc(8))), 'H3_FRAME_UNEXPECTED'],
  ['HTTP/2 WINDOW_UPDATE type on the control stream', (c) => c.control.push(encodeFrame(0x8, Buffer.alloc(4))), 'H3_FRAME_UNEXPECTED'],
  ['SETTINGS on a request stream', (c) => c.conn.open(true).push(encodeFrame(FRAME.SETTINGS, Buffer.alloc(0))), 'H3_FRAME_UNEXPECTED'],
  ['a second SETTINGS', (c) => c.control.push(encodeFrame(FRAME.SETTINGS, Buffer.alloc(0))), 'H3_FRAME_UNEXPECTED'],
  ['DATA on the control stream', (c) => c.control.push(encodeFrame(FRAME.DATA, Buffer.alloc(1))), 'H3_FRAME_UNEXPECTED'],
  ['HEADERS on the control stream', (c) => c.control.push(encodeFrame(FRAME.HEADERS, Buffer.alloc(2))), 'H3_FRAME_UNEXPECTED'],
  ['a second control stream', (c) => c.conn.open(false).push(Buffer.concat([encodeVarint(0), encodeFrame(FRAME.SETTINGS, Buffer.alloc(0))])), 'H3_STREAM_CREATION_ERROR'],
  ['a second encoder stream', (c) => c.conn.open(false).push(encodeVarint(2)), 'H3_STREAM_CREATION_ERROR'],
  ['a second decoder stream', (c) => c.conn.open(false).push(encodeVarint(3)), 'H3_STREAM_CREATION_ERROR'],
  ['a push stream from a client', (c) => c.conn.open(false).push(encodeVarint(1)), 'H3_STREAM_CREATION_ERROR'],
  ['the control stream closed', (c) => c.control.push(Buffer.alloc(0), true), 'H3_CLOSED_CRITICAL_STREAM'],
  ['the encoder stream reset', (c) => c.encoderStream.peerReset(0x100), 'H3_CLOSED_CRITICAL_STREAM'],
  ['the decoder stream closed', (c) => c.decoderStream.push(Buffer.alloc(0), true), 'H3_CLOSED_CRITICAL_STREAM'],
  ['GOAWAY whose id went up', (c) => c.request('/pending') && c.control.push(Buffer.concat([encodeFrame(FRAME.GOAWAY, encodeVarint(4)), encodeFrame(FRAME.GOAWAY, encodeVarint(8))])), 'H3_ID_ERROR'],
  ['GOAWAY with trailing octets', (c) => c.control.push(encodeFrame(FRAME.GOAWAY, Buffer.from([4, 0]))), 'H3_FRAME_ERROR'],
  ['CANCEL_PUSH past MAX_PUSH_ID', (c) => c.control.push(encodeFrame(FRAME.CANCEL_PUSH, encodeVarint(1))), 'H3_ID_ERROR'],
  ['a SETTINGS frame past the bound', (c) => c.control.push(frameHeader(FRAME.GOAWAY, HTTP3.controlFrameMax + 1)), 'H3_EXCESSIVE_LOAD'],
  ['a HEADERS frame past the bound', (c) => c.conn.open(true).push(frameHeader(FRAME.HEADERS, HTTP3.settings.maxFieldSectionSize * 4 + 1)), 'H3_EXCESSIVE_LOAD'],
  ['a request stream ending inside a frame', (c) => c.conn.open(true).push(Buffer.concat([frameHeader(FRAME.HEADERS, 10), Buffer.alloc(3)]), true), 'H3_FRAME_ERROR'],
  ['a bidirectional stream the server would own', (c) => { c.conn.nextBidi = 1; c.conn.open(true); }, 'H3_STREAM_CREATION_ERROR'],
  ['a malformed QPACK section', (c) => c.conn.open(true).push(encodeFrame(FRAME.HEADERS, Buffer.from([0xff, 0xff, 0xff]))), 'QPACK_DECOMPRESSION_FAILED'],
  ['a bad encoder-stream instruction', (c) => c.encoderStream.push(Buffer.from([0x3f, 0xff, 0xff, 0xff, 0x7f])), 'QPACK_ENCODER_STREAM_ERROR'],
  ['an acknowledgment of a section never sent', (c) => c.decoderStream.push(Buffer.from([0x84])), 'QPACK_DECODER_STREAM_ERROR'],
];

for (const [what, act, code] of CONNECTION_ERRORS) {
  test(`connection error: ${what} -> ${code}`, () => {
    const { conn } = serve(stubCore());
    const client = new FakeClient(conn);
    act(client);
    assert.equal(closedWith(conn), code);
  });
}

const SETTINGS_ERRORS = [
  ['an HTTP/2 setting (ENABLE_PUSH)', Buffer.from([0x02, 0x00]), 'H3_SETTINGS_ERROR'],
  ['an HTTP/2 setting (MAX_FRAME_SIZE)', Buffer.from([0x05, 0x01]), 'H3_SETTINGS_ERROR'],
  ['a setting twice', Buffer.from([0x01, 0x00, 0x01, 0x00]), 'H3_SETTINGS_ERROR'],
  ['a truncated setting', Buffer.from([0x01]), 'H3_FRAME_ERROR'],
];

for (const [what, payload, code] of SETTINGS_ERRORS) {
  test(`SETTINGS with ${what} -> ${code}`, () => {
    const { conn } = serve(stubCore());
    conn.open(false).push(Buffer.concat([encodeVarint(0), encodeFrame(FRAME.SETTINGS, payload)]));
    assert.equal(closedWith(conn), code);
  });
}

test('a control stream whose first frame is not SETTINGS -> H3_MISSING_SETTINGS', () => {
  const { conn } = serve(stubCore());
  conn.open(false).push(Buffer.concat([encodeVarint(0), encodeFrame(FRAME.MAX_PUSH_ID, encodeVarint(3))]));
  assert.equal(closedWith(conn), 'H3_MISSING_SETTINGS');
});

test('reserved settings, reserved frame types and unknown stream types are ignored', async () => {
  const { conn } = serve(stubCore());
  const reservedSetting = Buffer.concat([encodeVarint(0x1f * 3 + 0x21), encodeVarint(7)]);
  const control = conn.open(false);
  control.push(Buffer.concat([encodeVarint(0), encodeFrame(FRAME.SETTINGS, Buffer.concat([encodeSettings({ qpackMaxTableCapacity: 0, qpackBlockedStreams: 0, maxFieldSectionSize: 9999 }), reservedSetting]))]));
  control.push(encodeFrame(0x21, Buffer.from('grease')));
  const unknown = conn.open(false);
  unknown.push(Buffer.concat([encodeVarint(0x54), Buffer.from('junk')]));
  assert.equal(unknown.stopCode, ERROR.H3_STREAM_CREATION_ERROR);
  const stream = conn.open(true);
  stream.push(Buffer.concat([encodeFrame(0x21 + 0x1f, Buffer.from('x')), encodeFrame(FRAME.HEADERS, literalSection(field('/g')))]), true);
  await settle(stream);
  assert.equal(conn.closed, null);
  assert.deepEqual(framesOf(stream.written).map((f) => f.type), [FRAME.HEADERS, FRAME.DATA]);
});

// Each case: a request's fields (or raw input) -> the reset code of its stream.
const STREAM_ERRORS = [
  ['an uppercase field name', field('/', [['X-Up', '1']]), 'H3_MESSAGE_ERROR'],
  ['connection: keep-alive', field('/', [['connection', 'keep-alive']]), 'H3_MESSAGE_ERROR'],
  ['transfer-encoding', field('/', [['transfer-encoding', 'chunked']]), 'H3_MESSAGE_ERROR'],
  ['te other than trailers', field('/', [['te', 'gzip']]), 'H3_MESSAGE_ERROR'],
  ['no :path', field('/').filter(([n]) => n !== ':path'), 'H3_MESSAGE_ERROR'],
  ['no :method', field('/').filter(([n]) => n !== ':method'), 'H3_MESSAGE_ERROR'],
  ['two :path', [...field('/'), [':path', '/b']].sort((a, b) => (a[0][0] === ':' ? 0 : 1) - (b[0][0] === ':' ? 0 : 1)), 'H3_MESSAGE_ERROR'],
  ['a pseudo-header after a regular field', [...field('/', [['accept', '*/*']]), [':protocol', 'x']], 'H3_MESSAGE_ERROR'],
  ['a response pseudo-header', [...field('/'), [':status', '200']], 'H3_MESSAGE_ERROR'],
  ['no :authority and no host', field('/').filter(([n]) => n !== ':authority'), 'H3_MESSAGE_ERROR'],
  ['an empty :path', field(''), 'H3_MESSAGE_ERROR'],
];

for (const [what, fields, code] of STREAM_ERRORS) {
  test(`malformed request: ${what} -> stream ${code}`, () => {
    const { conn } = serve(stubCore());
    const client = new FakeClient(conn);
    const stream = conn.open(true);
    stream.push(encodeFrame(FRAME.HEADERS, literalSection(fields)), true);
    assert.equal(stream.resetCode === null ? null : errorName(stream.resetCode), code);
    assert.equal(conn.closed, null);
  });
}

test('content-length against the DATA that came: longer or shorter is H3_MESSAGE_ERROR', () => {
  const { conn } = serve(stubCore());
  const client = new FakeClient(conn);
  const longer = client.request('/', [['content-length', '2']], { method: 'POST', body: Buffer.from('abc') });
  assert.equal(errorName(longer.resetCode), 'H3_MESSAGE_ERROR');
  const shorter = client.request('/', [['content-length', '5']], { method: 'POST', body: Buffer.from('abc') });
  assert.equal(errorName(shorter.resetCode), 'H3_MESSAGE_ERROR');
});

test('a stream that ends with no HEADERS -> H3_REQUEST_INCOMPLETE', () => {
  const { conn } = serve(stubCore());
  new FakeClient(conn);
  const stream = conn.open(true);
  stream.push(Buffer.alloc(0), true);
  assert.equal(errorName(stream.resetCode), 'H3_REQUEST_INCOMPLETE');
});

test('a request body is read and dropped: answered once past the bound, the rest refused with STOP_SENDING H3_NO_ERROR', async () => {
  const log = [];
  const { conn } = serve(stubCore(log));
  const client = new FakeClient(conn);
  const stream = conn.open(true);
  stream.push(client.headersFrame(stream.id, field('/upload', [['content-type', 'x/y']])));
  stream.push(frameHeader(FRAME.DATA, 10 * 1024 * 1024));
  for (let i = 0; i < 5; i++) stream.push(Buffer.alloc(16 * 1024));
  await settle(stream);
  assert.equal(client.response(stream).body.toString(), 'ok /upload');
  assert.equal(stream.stopCode, ERROR.H3_NO_ERROR);
  assert.equal(log.length, 1);
});

test('more requests at once than the bound are refused with H3_REQUEST_REJECTED', () => {
  const core = { ...stubCore(), decide: () => new Promise(() => {}) };
  const limits = { ...HTTP3, maxRequests: 2 };
  const { conn } = serve(core, { limits });
  const client = new FakeClient(conn);
  const streams = [0, 1, 2].map(() => client.request('/slow'));
  assert.deepEqual(streams.map((s) => s.resetCode), [null, null, ERROR.H3_REQUEST_REJECTED]);
  assert.equal(streams[2].stopCode, ERROR.H3_REQUEST_REJECTED);
});

test('junk past the glitch budget closes with H3_EXCESSIVE_LOAD', () => {
  const limits = { ...HTTP3, flood: { burst: 5, perSecond: 1 } };
  const { conn } = serve(stubCore(), { limits });
  const client = new FakeClient(conn);
  for (let i = 0; i < 6 && conn.closed === null; i++) client.control.push(encodeFrame(0x21, Buffer.alloc(1)));
  assert.equal(closedWith(conn), 'H3_EXCESSIVE_LOAD');
});

test('backpressure: a client that does not read holds the server to the high-water mark plus one slice', async (t) => {
  const core = makeCore(t);
  const highWater = 8 * 1024;
  const conn = new FakeConnection({ highWater });
  serve(core, { conn });
  const client = new FakeClient(conn);
  const stream = client.request('/big.txt');
  await waitFor(() => stream.writableLength > 0);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(stream.writableLength <= highWater + 16 * 1024 + 1024, `${stream.writableLength} octets queued`);
  assert.equal(stream.fin, false);
  while (!stream.fin) {
    stream.consume();
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(stream.writableLength <= highWater + 16 * 1024 + 16, `${stream.writableLength} octets queued`);
  }
  assert.ok(client.response(stream).body.equals(BIG));
});

test('a client that resets its request or sends STOP_SENDING stops the response and releases its body', async (t) => {
  const core = makeCore(t);
  const conn = new FakeConnection({ highWater: 4096 });
  serve(core, { conn });
  const client = new FakeClient(conn);
  const a = client.request('/big.txt');
  const b = client.request('/big.txt');
  await waitFor(() => a.writableLength > 0 && b.writableLength > 0);
  a.peerStopSending(ERROR.H3_REQUEST_CANCELLED);
  assert.equal(a.resetCode, ERROR.H3_REQUEST_CANCELLED);
  b.peerReset(ERROR.H3_REQUEST_CANCELLED);
  assert.equal(b.resetCode, ERROR.H3_REQUEST_CANCELLED);
  await waitFor(() => core.budget.used === 0, { what: () => `${core.budget.used} budget octets held` });
  assert.equal(conn.closed, null);
});

test('close(): GOAWAY with the first request not processed, in-flight responses finish, then H3_NO_ERROR', async () => {
  let release;
  const core = { ...stubCore(), decide: (m, target) => new Promise((resolve) => { release = () => resolve(stubCore().errorResponse({ status: 200, message: `ok ${target}` }, false)); }) };
  const { conn, connection } = serve(core);
  const client = new FakeClient(conn);
  const stream = client.request('/pending');
  connection.close();
  const frames = framesOf(conn.uni[0].written, 1);
  assert.deepEqual(frames.map((f) => f.type), [FRAME.SETTINGS, FRAME.GOAWAY]);
  assert.deepEqual([...frames[1].payload], [4]);
  const late = client.request('/late');
  assert.equal(late.resetCode, ERROR.H3_REQUEST_REJECTED);
  assert.equal(conn.closed, null);
  release();
  await settle(stream);
  assert.equal(client.response(stream).body.toString(), 'ok /pending');
  assert.equal(closedWith(conn), 'H3_NO_ERROR');
});

test('a connection made while the server is closing gets GOAWAY 0 and closes at once', () => {
  const { conn } = serve(stubCore(), { isClosing: () => true });
  const frames = framesOf(conn.uni[0].written, 1);
  assert.deepEqual(frames.map((f) => f.type), [FRAME.SETTINGS, FRAME.GOAWAY]);
  assert.equal(closedWith(conn), 'H3_NO_ERROR');
});

test('a connection that goes away aborts its responses and emits close once', async (t) => {
  const core = makeCore(t);
  const conn = new FakeConnection({ highWater: 4096 });
  const { connection } = serve(core, { conn });
  let closes = 0;
  connection.on('close', () => closes++);
  const client = new FakeClient(conn);
  client.request('/big.txt');
  await waitFor(() => conn.peer.at(-1).writableLength > 0);
  conn.gone({ code: 0, reason: 'idle', byPeer: false, transport: true });
  assert.equal(closes, 1);
  await waitFor(() => core.budget.used === 0, { what: () => `${core.budget.used} budget octets held` });
});
