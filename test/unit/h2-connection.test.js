'use strict';
// server/engines/h2/connection.js without a socket: client frames are pushed into an in-memory
// socket, and the exact frames the connection answers with are compared, one row a case. The
// core answers at once from memory, so no file, timer or network is involved.

const test = require('node:test');
const assert = require('node:assert/strict');
const { setImmediate: tick } = require('node:timers/promises');
const { Decoder } = require('../../native');
const { serveHttp2 } = require('../../server/engines/h2');
const { FRAME, FLAG } = require('../../server/engines/h2/frame-types');
const { errorName } = require('../../server/engines/h2/errors');
const { HTTP2_SETTINGS, HTTP2_FLOOD, TIMEOUTS } = require('../../server/config/limits');
const { Logger } = require('../../server/log/logger');
const { PREFACE, frame, settings, hpackLiteral, headers, FrameReader } = require('../helpers/h2-frames');
const { MemorySocket } = require('../helpers/memory-socket');

const TYPE_NAMES = Object.fromEntries(Object.entries(FRAME).map(([name, type]) => [type, name]));
const TURNS = 20;

function stubCore() {
  const respond = (status, text) => ({ status, headers: { 'content-type': 'text/plain' }, body: text === null ? null : Buffer.from(text), coding: 'identity' });
  return {
    decide: (method, target) => Promise.resolve(respond(200, method === 'HEAD' ? null : `ok ${target}`)),
    errorResponse: (err, isHead) => respond(err.status, isHead ? null : err.message),
    logAccess() {},
  };
}

const request = (path, extra = []) => Buffer.concat([
  hpackLiteral(':method', 'GET'), hpackLiteral(':scheme', 'https'), hpackLiteral(':authority', 'localhost'),
  hpackLiteral(':path', path), ...extra.map(([name, value]) => hpackLiteral(name, value)),
]);
const u32 = (...values) => Buffer.concat(values.map((v) => { const b = Buffer.alloc(4); b.writeUInt32BE(v); return b; }));

/**
 * The frames the connection writes for `input` (after the preface and an empty SETTINGS), one
 * string each, and whether it ended its side of the socket. A function in `input` runs between
 * the reads before and after it (a fake clock's step); `now` is the connection's clock.
 */
async function answer(input, { now } = {}) {
  const decoder = new Decoder();
  const out = [];
  const reader = new FrameReader({
    onFrame: (f) => out.push(describe(f, decoder)),
  });
  const socket = new MemorySocket((chunk) => reader.push(chunk));
  const connection = serveHttp2(socket, {
    core: stubCore(), log: new Logger({ level: 'silent' }), timeouts: TIMEOUTS, isClosing: () => false, settings: HTTP2_SETTINGS, now,
  });
  let read = [PREFACE, settings()];
  for (const item of input) {
    if (typeof item !== 'function') {
      read.push(item);
      continue;
    }
    socket.push(Buffer.concat(read));
    read = [];
    // Pushed bytes are read a turn later.
    for (let i = 0; i < TURNS; i++) await tick();
    item();
  }
  socket.push(Buffer.concat(read));
  for (let i = 0; i < TURNS; i++) await tick();
  connection.destroy();
  // The server's SETTINGS and its ACK of ours come first on every connection.
  assert.deepEqual(out.slice(0, 2), ['SETTINGS', 'SETTINGS ACK']);
  return { frames: out.slice(2), ended: socket.writableEnded };
}

function describe(f, decoder) {
  const name = TYPE_NAMES[f.type];
  const flags = [f.flags & FLAG.END_STREAM && f.type !== FRAME.SETTINGS && f.type !== FRAME.PING ? 'END_STREAM' : null,
    (f.type === FRAME.SETTINGS || f.type === FRAME.PING) && f.flags & FLAG.ACK ? 'ACK' : null].filter(Boolean);
  const tail = flags.length ? ` ${flags.join(' ')}` : '';
  switch (f.type) {
    case FRAME.HEADERS: {
      const fields = decoder.decode(f.payload);
      return `HEADERS ${f.streamId} ${fields.find(([n]) => n === ':status')[1]}${tail}`;
    }
    case FRAME.DATA: return `DATA ${f.streamId} "${f.payload.toString('latin1')}"${tail}`;
    case FRAME.RST_STREAM: return `RST_STREAM ${f.streamId} ${errorName(f.payload.readUInt32BE(0))}`;
    case FRAME.GOAWAY: return `GOAWAY last=${f.payload.readUInt32BE(0)} ${errorName(f.payload.readUInt32BE(4))}`;
    case FRAME.PING: return `PING ${f.payload.toString('hex')}${tail}`;
    case FRAME.WINDOW_UPDATE: return `WINDOW_UPDATE ${f.streamId} ${f.payload.readUInt32BE(0)}`;
    default: return `${name}${tail}`;
  }
}

// [case, client frames, the frames the connection answers with]
const CASES = [
  ['a GET is answered with HEADERS and DATA', [headers(1, request('/a'))],
    ['HEADERS 1 200', 'DATA 1 "ok /a" END_STREAM']],
  ['two streams, each answered', [headers(1, request('/a')), headers(3, request('/b'))],
    ['HEADERS 1 200', 'DATA 1 "ok /a" END_STREAM', 'HEADERS 3 200', 'DATA 3 "ok /b" END_STREAM']],
  ['HEAD has no DATA', [headers(1, Buffer.concat([hpackLiteral(':method', 'HEAD'), request('/a').subarray(hpackLiteral(':method', 'GET').length)]))],
    ['HEADERS 1 200 END_STREAM']],
  ['PING is acknowledged with its payload', [frame(FRAME.PING, 0, 0, Buffer.from('0102030405060708', 'hex'))],
    ['PING 0102030405060708 ACK']],
  ['a request that has not ended waits for its END_STREAM', [headers(1, request('/a'), { endStream: false })], []],
  ['DATA ends the request', [headers(1, request('/a'), { endStream: false }), frame(FRAME.DATA, FLAG.END_STREAM, 1)],
    ['HEADERS 1 200', 'DATA 1 "ok /a" END_STREAM']],
  ['an uppercase field name is a malformed request (8.2.1)', [headers(1, request('/a', [['X-Up', '1']]))],
    ['RST_STREAM 1 PROTOCOL_ERROR']],
  ['a connection-specific field is malformed (8.2.2)', [headers(1, request('/a', [['connection', 'close']]))],
    ['RST_STREAM 1 PROTOCOL_ERROR']],
  ['a header list past SETTINGS_MAX_HEADER_LIST_SIZE is 431', [headers(1, request('/a', [['x-big', 'v'.repeat(HTTP2_SETTINGS.maxHeaderListSize)]]))],
    ['HEADERS 1 431', 'DATA 1 "request header fields too large" END_STREAM']],
  ['trailers end the request', [headers(1, request('/a'), { endStream: false }), headers(1, hpackLiteral('x-trailer', '1'))],
    ['HEADERS 1 200', 'DATA 1 "ok /a" END_STREAM']],
  ['trailers with a pseudo-header are malformed', [headers(1, request('/a'), { endStream: false }), headers(1, request('/a'))],
    ['RST_STREAM 1 PROTOCOL_ERROR']],
  ['trailers without END_STREAM are malformed', [headers(1, request('/a'), { endStream: false }), headers(1, hpackLiteral('x-trailer', '1'), { endStream: false })],
    ['RST_STREAM 1 PROTOCOL_ERROR']],
  ['HEADERS after END_STREAM is STREAM_CLOSED', [headers(1, request('/a')), headers(1, request('/a'))],
    ['RST_STREAM 1 STREAM_CLOSED']],
  ['DATA on an idle stream is a connection error', [frame(FRAME.DATA, 0, 5, Buffer.from('x'))],
    ['GOAWAY last=0 PROTOCOL_ERROR']],
  ['HEADERS on an even stream is a connection error', [headers(2, request('/a'))],
    ['GOAWAY last=0 PROTOCOL_ERROR']],
  ['RST_STREAM on an idle stream is a connection error', [frame(FRAME.RST_STREAM, 0, 7, u32(0))],
    ['GOAWAY last=0 PROTOCOL_ERROR']],
  ['WINDOW_UPDATE of 0 on the connection is a connection error', [frame(FRAME.WINDOW_UPDATE, 0, 0, u32(0))],
    ['GOAWAY last=0 PROTOCOL_ERROR']],
  ['WINDOW_UPDATE of 0 on a stream is a stream error', [headers(1, request('/a'), { endStream: false }), frame(FRAME.WINDOW_UPDATE, 0, 1, u32(0))],
    ['RST_STREAM 1 PROTOCOL_ERROR']],
  // A payload's stream error waits for the stream's state (frame-payloads.js).
  ['WINDOW_UPDATE of 0 on an idle stream is a connection error', [frame(FRAME.WINDOW_UPDATE, 0, 5, u32(0))],
    ['GOAWAY last=0 PROTOCOL_ERROR']],
  ['WINDOW_UPDATE of 0 on a stream we reset is ignored', [headers(1, request('/a', [['X-Up', '1']])), frame(FRAME.WINDOW_UPDATE, 0, 1, u32(0))],
    ['RST_STREAM 1 PROTOCOL_ERROR']],
  ['HEADERS depending on itself is a stream error', [frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM | FLAG.PRIORITY, 1,
    Buffer.concat([u32(1), Buffer.from([15]), request('/a')])), headers(3, request('/b'))],
  ['RST_STREAM 1 PROTOCOL_ERROR', 'HEADERS 3 200', 'DATA 3 "ok /b" END_STREAM']],
  ['a PRIORITY of 4 octets is a stream FRAME_SIZE_ERROR', [frame(FRAME.PRIORITY, 0, 3, u32(0))],
    ['RST_STREAM 3 FRAME_SIZE_ERROR']],
  ['DATA with its padding past the payload is a connection error', [headers(1, request('/a'), { endStream: false }),
    frame(FRAME.DATA, FLAG.PADDED | FLAG.END_STREAM, 1, Buffer.from([4, 0, 0]))],
  ['GOAWAY last=1 PROTOCOL_ERROR']],
  ['a SETTINGS length not a multiple of 6 is FRAME_SIZE_ERROR', [frame(FRAME.SETTINGS, 0, 0, Buffer.alloc(5))],
    ['GOAWAY last=0 FRAME_SIZE_ERROR']],
  ['a PING of 7 octets is FRAME_SIZE_ERROR', [frame(FRAME.PING, 0, 0, Buffer.alloc(7))],
    ['GOAWAY last=0 FRAME_SIZE_ERROR']],
  ['a frame inside a header block is a connection error', [frame(FRAME.HEADERS, FLAG.END_STREAM, 1, request('/a')),
    frame(FRAME.PING, 0, 0, Buffer.alloc(8))],
  ['GOAWAY last=0 PROTOCOL_ERROR']],
  ['a CONTINUATION completes a header block', [frame(FRAME.HEADERS, FLAG.END_STREAM, 1, request('/a').subarray(0, 5)),
    frame(FRAME.CONTINUATION, FLAG.END_HEADERS, 1, request('/a').subarray(5))],
  ['HEADERS 1 200', 'DATA 1 "ok /a" END_STREAM']],
  ['PUSH_PROMISE from a client is a connection error', [frame(FRAME.PUSH_PROMISE, FLAG.END_HEADERS, 1, u32(2))],
    ['GOAWAY last=0 PROTOCOL_ERROR']],
  ['an undecodable header block is COMPRESSION_ERROR', [frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, 1, Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff]))],
    ['GOAWAY last=0 COMPRESSION_ERROR']],
  ['a stream that depends on itself is a stream error', [frame(FRAME.PRIORITY, 0, 3, Buffer.from([0, 0, 0, 3, 16]))],
    ['RST_STREAM 3 PROTOCOL_ERROR']],
  ['an unknown frame type is ignored', [frame(0xfa, 0, 0, Buffer.from('x')), headers(1, request('/a'))],
    ['HEADERS 1 200', 'DATA 1 "ok /a" END_STREAM']],
  ['the peer\'s GOAWAY ends the connection once its streams are done', [headers(1, request('/a')), frame(FRAME.GOAWAY, 0, 0, u32(1, 0))],
    ['HEADERS 1 200', 'DATA 1 "ok /a" END_STREAM', 'GOAWAY last=1 NO_ERROR']],
];

for (const [name, input, expected] of CASES) {
  test(name, async () => {
    const { frames } = await answer(input);
    assert.deepEqual(frames, expected);
  });
}

test('a connection error ends our side of the connection; a stream error does not', async () => {
  const connectionError = await answer([frame(FRAME.DATA, 0, 5, Buffer.from('x'))]);
  assert.deepEqual([connectionError.frames, connectionError.ended], [['GOAWAY last=0 PROTOCOL_ERROR'], true]);
  const streamError = await answer([headers(1, request('/a', [['X-Up', '1']])), headers(3, request('/b'))]);
  assert.deepEqual([streamError.frames, streamError.ended], [['RST_STREAM 1 PROTOCOL_ERROR', 'HEADERS 3 200', 'DATA 3 "ok /b" END_STREAM'], false]);
});

// Frames after our RST_STREAM are ignored (5.1) but counted, nghttp2's glitch limit: the burst at
// once, then the rate, on a clock that moves only when told.
const { burst, perSecond } = HTTP2_FLOOD.glitch;
// Stream 1 reset by us: an uppercase field name is a malformed request (8.2.1).
const resetByUs = headers(1, request('/a', [['X-Up', '1']]));
const times = (n, make) => Array.from({ length: n }, (_, i) => make(i));
const data1 = () => frame(FRAME.DATA, 0, 1, Buffer.from('x'));
// Trailers on stream 1, each inserting a field into the decoder's dynamic table.
const trailers1 = (i) => headers(1, hpackLiteral('x-n', String(i), { index: true }));
const selfPriority1 = () => frame(FRAME.PRIORITY, 0, 1, u32(1, 0));
const CALM = 'GOAWAY last=1 ENHANCE_YOUR_CALM';

const GLITCH_CASES = [
  ['DATA: the burst is ignored', () => [resetByUs, ...times(burst, data1)], []],
  ['DATA: one past the burst ends the connection', () => [resetByUs, ...times(burst + 1, data1)], [CALM]],
  ['DATA: a second later, the rate more', (clock) => [resetByUs, ...times(burst, data1), () => clock.advance(1000), ...times(perSecond, data1)], []],
  ['DATA: a second later, one past the rate ends it', (clock) => [resetByUs, ...times(burst, data1), () => clock.advance(1000), ...times(perSecond + 1, data1)], [CALM]],
  ['HEADERS: one past the burst ends the connection', () => [resetByUs, ...times(burst + 1, trailers1)], [CALM]],
  ['HEADERS: the burst is still decoded, so the table stays in sync (5.1)', () => [resetByUs, ...times(burst, trailers1),
    // Index 62: the newest dynamic entry, which only the decoded trailers put there.
    headers(3, Buffer.concat([request('/b'), Buffer.from([0x80 | 62])]))], ['HEADERS 3 200', 'DATA 3 "ok /b" END_STREAM']],
  ['a malformed PRIORITY: one past the burst ends the connection', () => [resetByUs, ...times(burst + 1, selfPriority1)], [CALM]],
];

for (const [name, input, expected] of GLITCH_CASES) {
  test(`after our RST_STREAM, ${name}`, async () => {
    let ms = 1000;
    const clock = { advance: (by) => { ms += by; } };
    const { frames } = await answer(input(clock), { now: () => ms });
    assert.deepEqual(frames, ['RST_STREAM 1 PROTOCOL_ERROR', ...expected]);
  });
}
