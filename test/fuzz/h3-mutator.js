'use strict';
// Structure-aware mutation of the h3-connection target's inputs (records of h3-input.js): most
// mutations work on records (their stream and action bits, order, splitting, splicing from
// another input) or on the HTTP/3 frames and QPACK instructions inside them, and synthesize
// what gets past the first checks (frames of every type, requests with QPACK sections using the
// static table, literals or dynamic-table references, encoder- and decoder-stream
// instructions); the rest are byte-level (frame-mutator.js's), for the parsers themselves.

const { FRAME, encodeFrame } = require('../../server/engines/h3/frames');
const { encodeVarint, readVarint } = require('../../server/engines/h3/varint');
const { BYTE_MUTATIONS, MAX_INPUT_BYTES } = require('./frame-mutator');
const { qpackInt: qint, literalField } = require('../helpers/fake-quic');
const { STREAM, ACTION, UNI_SLOTS, REQUEST_SLOTS, parseRecords, encodeRecords } = require('./h3-input');

const FRAME_TYPES = [FRAME.DATA, FRAME.HEADERS, FRAME.CANCEL_PUSH, FRAME.SETTINGS, FRAME.PUSH_PROMISE, FRAME.GOAWAY,
  FRAME.MAX_PUSH_ID, 0x2, 0x6, 0x8, 0x9, 0x21, 0x3f, 0xf0700];
const STREAM_TYPES = [0x00, 0x01, 0x02, 0x03, 0x21, 0x54];
const VARINTS = [0, 1, 2, 3, 4, 8, 63, 64, 100, 16383, 16384, 0x3fffffff, 2 ** 32, 2 ** 53 - 1];
const SETTING_IDS = [0x01, 0x06, 0x07, 0x02, 0x03, 0x04, 0x05, 0x08, 0x33, 0x21];

const latin1 = (s) => [...Buffer.from(s, 'latin1')];

const METHODS = ['GET', 'HEAD', 'POST', 'OPTIONS', 'CONNECT', 'get', ''];
const PATHS = ['/', '/hello.txt', '/big.bin', '/index.html', '/dir/', '/dir', '/missing', '*', '', '/%00', '/a?b=c', '/../etc/passwd', `/${'p'.repeat(300)}`];
const EXTRA_FIELDS = [
  ['accept-encoding', 'gzip, br, zstd'], ['range', 'bytes=0-10'], ['range', 'bytes=5-1'], ['content-length', '0'],
  ['content-length', '3'], ['content-length', 'x'], ['te', 'trailers'], ['te', 'gzip'], ['connection', 'close'],
  ['if-none-match', '*'], ['if-modified-since', 'Sat, 01 Jan 2000 00:00:00 GMT'], ['host', 'localhost'],
  ['Accept', 'text/html'], ['x-crlf', 'a\r\nb'], ['', 'empty name'], [':path', '/again'], [':status', '200'],
  ['x-big', 'v'.repeat(5000)], ['available-dictionary', ':AAAA:'], ['sec-fetch-dest', 'script'],
];

// A field line of a request section: a static-table reference (index into RFC 9204 appendix A),
// a literal with a static name, a literal with a literal name, or a dynamic reference.
function fieldLine(random, [name, value]) {
  switch (random.below(6)) {
    case 0: return qint(0xc0, 6, random.pick([0, 1, 17, 23, 31, 98, 99, 200])); // indexed, static
    case 1: return [...qint(0x50, 4, random.pick([1, 17, 31, 98])), ...qint(0, 7, value.length), ...latin1(value)];
    case 2: return qint(0x80, 6, random.below(4)); // indexed, dynamic (relative)
    case 3: return qint(0x10, 4, random.below(4)); // indexed, post-base
    default: return literalField(name, value);
  }
}

// A request's field section: a prefix (Required Insert Count, Base) then field lines, mostly
// literals of a valid request.
function section(random) {
  const fields = [];
  if (random.chance(0.9)) fields.push([':method', random.chance(0.7) ? 'GET' : random.pick(METHODS)]);
  if (random.chance(0.9)) fields.push([':scheme', random.chance(0.9) ? 'https' : random.pick(['http', 'foo'])]);
  if (random.chance(0.9)) fields.push([':authority', random.pick(['localhost', '127.0.0.1:8443', '', 'a b'])]);
  if (random.chance(0.9)) fields.push([':path', random.pick(PATHS)]);
  for (let i = random.below(4); i > 0; i--) fields.push(random.pick(EXTRA_FIELDS));
  const prefix = random.chance(0.8) ? [0, 0] : [...qint(0, 8, random.pick([1, 2, 3, 9, 255])), ...qint(random.chance(0.5) ? 0x80 : 0, 7, random.below(4))];
  const lines = fields.flatMap((f) => (random.chance(0.85) ? literalField(...f) : fieldLine(random, f)));
  return Buffer.from([...prefix, ...lines]);
}

// Encoder-stream instructions (RFC 9204 4.3): capacity, inserts with a static or literal name,
// duplicates; sometimes past the table's capacity.
function encoderInstructions(random) {
  const out = [];
  for (let i = 1 + random.below(4); i > 0; i--) {
    switch (random.below(4)) {
      case 0: out.push(...qint(0x20, 5, random.pick([0, 100, 4096, 4097, 1 << 20]))); break;
      case 1: out.push(...qint(0xc0, 6, random.pick([0, 1, 31, 98, 200])), ...qint(0, 7, 3), ...latin1('abc')); break;
      case 2: {
        const [name, value] = random.pick(EXTRA_FIELDS);
        const big = random.chance(0.1) ? 'x'.repeat(5000) : value;
        out.push(...qint(0x40, 5, name.length), ...latin1(name), ...qint(0, 7, big.length), ...latin1(big));
        break;
      }
      default: out.push(...qint(0x00, 5, random.below(8)));
    }
  }
  return Buffer.from(out);
}

// Decoder-stream instructions (4.4): Section Acknowledgment, Stream Cancellation, Insert Count
// Increment.
function decoderInstructions(random) {
  const id = random.pick([0, 4, 8, 1, 3]);
  return Buffer.from(random.pick([qint(0x80, 7, id), qint(0x40, 6, id), qint(0x00, 6, random.pick([0, 1, 5]))]));
}

function synthesizeFrame(random) {
  const type = random.pick(FRAME_TYPES);
  let payload;
  if (type === FRAME.HEADERS || type === FRAME.PUSH_PROMISE) payload = section(random);
  else if (type === FRAME.SETTINGS) {
    payload = Buffer.concat(Array.from({ length: random.below(4) }, () => Buffer.concat([encodeVarint(random.pick(SETTING_IDS)), encodeVarint(random.pick(VARINTS))])));
  } else if (type === FRAME.GOAWAY || type === FRAME.MAX_PUSH_ID || type === FRAME.CANCEL_PUSH) payload = encodeVarint(random.pick(VARINTS));
  else payload = random.bytes(random.pick([0, 1, 8, 100]));
  const frame = encodeFrame(type, payload);
  // Sometimes a length field that lies, or a frame cut short.
  if (random.chance(0.1)) return frame.subarray(0, random.below(frame.length));
  return frame;
}

// A new record of a given kind on a stream that suits it.
function synthesizeRecord(random, records) {
  const request = STREAM.REQUEST + random.below(REQUEST_SLOTS);
  const uni = random.below(UNI_SLOTS);
  const opened = new Set(records.map((r) => r.slot));
  const turn = random.chance(0.2);
  const read = random.chance(0.2);
  switch (random.below(7)) {
    case 0: { // a request, sometimes with a body
      const parts = [encodeFrame(FRAME.HEADERS, section(random))];
      if (random.chance(0.3)) parts.push(encodeFrame(FRAME.DATA, random.bytes(random.pick([0, 3, 100]))));
      return { slot: request, action: random.chance(0.8) ? ACTION.FIN : ACTION.DATA, turn, read, bytes: Buffer.concat(parts) };
    }
    case 1: return { slot: random.chance(0.7) ? STREAM.B : uni, action: ACTION.DATA, turn, read, bytes: encoderInstructions(random) };
    case 2: return { slot: random.chance(0.7) ? STREAM.C : uni, action: ACTION.DATA, turn, read, bytes: decoderInstructions(random) };
    case 3: { // a frame on a stream already open, or a new stream's type and frame
      const slot = random.chance(0.5) ? random.pick([STREAM.A, request]) : uni;
      const head = opened.has(slot) || slot >= UNI_SLOTS ? Buffer.alloc(0) : encodeVarint(random.pick(STREAM_TYPES));
      return { slot, action: ACTION.DATA, turn, read, bytes: Buffer.concat([head, synthesizeFrame(random)]) };
    }
    case 4: return { slot: random.chance(0.8) ? request : uni, action: random.pick([ACTION.RESET, ACTION.STOP, ACTION.FIN]), turn, read, bytes: Buffer.alloc(0) };
    case 5: return { slot: request, action: ACTION.DATA, turn: true, read: true, bytes: Buffer.alloc(0) };
    default: return { slot: random.below(8), action: random.below(4), turn, read, bytes: random.bytes(random.below(16)) };
  }
}

// A frame boundary inside a record's octets (after the stream type on a unidirectional
// stream's first record), for frame-level edits: [start, end) of one frame, or null.
function frameAt(random, bytes) {
  const bounds = [];
  for (let pos = 0; pos < bytes.length;) {
    const type = readVarint(bytes, pos);
    const length = type === null ? null : readVarint(bytes, pos + type.length);
    if (length === null) break;
    const end = pos + type.length + length.length + length.value;
    if (end > bytes.length) break;
    bounds.push([pos, end, pos + type.length + length.length]);
    pos = end;
  }
  return bounds.length === 0 ? null : random.pick(bounds);
}

const RECORD_MUTATIONS = [
  function setSlot(random, rs) { random.pick(rs).slot = random.below(8); },
  function setAction(random, rs) { random.pick(rs).action = random.below(4); },
  function toggleRead(random, rs) { const r = random.pick(rs); r.read = !r.read; },
  function toggleTurn(random, rs) { const r = random.pick(rs); r.turn = !r.turn; },
  function toggleWait(random, rs) { const r = random.pick(rs); r.wait = !r.wait; },
  function dropRecord(random, rs) { rs.splice(random.below(rs.length), 1); },
  function duplicateRecord(random, rs) {
    const i = random.below(rs.length);
    const copies = random.chance(0.1) ? 1 + random.below(100) : 1;
    rs.splice(i, 0, ...Array.from({ length: copies }, () => ({ ...rs[i] })));
  },
  function swapRecords(random, rs) {
    const i = random.below(rs.length);
    const j = random.below(rs.length);
    [rs[i], rs[j]] = [rs[j], rs[i]];
  },
  // The same octets in two records: frames split across arrivals.
  function splitRecord(random, rs) {
    const i = random.below(rs.length);
    const r = rs[i];
    const at = random.below(r.bytes.length + 1);
    rs.splice(i, 1, { ...r, action: ACTION.DATA, bytes: r.bytes.subarray(0, at) }, { ...r, read: false, turn: false, bytes: r.bytes.subarray(at) });
  },
  function mutateBytes(random, rs, other) {
    const r = random.pick(rs);
    if (r.bytes.length > 0) r.bytes = Buffer.from(random.pick(BYTE_MUTATIONS)(random, Buffer.from(r.bytes), other));
  },
  function frameEdit(random, rs) {
    const r = random.pick(rs);
    const f = frameAt(random, r.bytes);
    if (f === null) return;
    const [start, end, payloadStart] = f;
    const payload = r.bytes.subarray(payloadStart, end);
    let frame;
    switch (random.below(4)) {
      case 0: frame = encodeFrame(random.pick(FRAME_TYPES), payload); break; // another type
      case 1: frame = Buffer.concat([encodeVarint(readVarint(r.bytes, start).value), encodeVarint(random.pick(VARINTS)), payload]); break; // a lying length
      case 2: frame = Buffer.concat([r.bytes.subarray(start, end), r.bytes.subarray(start, end)]); break; // twice
      default: frame = Buffer.alloc(0); // gone
    }
    r.bytes = Buffer.concat([r.bytes.subarray(0, start), frame, r.bytes.subarray(end)]);
  },
  function insertRecord(random, rs) { rs.splice(random.chance(0.6) ? rs.length : random.below(rs.length + 1), 0, synthesizeRecord(random, rs)); },
  function spliceRecords(random, rs, other) {
    const from = parseRecords(other);
    if (from.length === 0) return;
    const start = random.below(from.length);
    rs.splice(random.below(rs.length + 1), 0, ...from.slice(start, start + 1 + random.below(4)));
  },
  function truncate(random, rs) { rs.length = random.below(rs.length + 1); },
];

// One mutant of `input` (never the same Buffer), using `other` (another corpus input) for
// splicing. Stacks 1-4 mutations; keeps the result under MAX_INPUT_BYTES.
function mutate(random, input, other) {
  let out = Buffer.from(input);
  for (let n = 1 + random.below(4); n > 0; n--) {
    const records = parseRecords(out);
    if (records.length > 0 && random.chance(0.85)) {
      random.pick(RECORD_MUTATIONS)(random, records, other);
      out = encodeRecords(records);
    } else if (out.length > 0) {
      out = Buffer.from(random.pick(BYTE_MUTATIONS)(random, out, other));
    } else {
      out = encodeRecords([synthesizeRecord(random, [])]);
    }
  }
  return out.length > MAX_INPUT_BYTES ? out.subarray(0, MAX_INPUT_BYTES) : out;
}

module.exports = { mutate };
