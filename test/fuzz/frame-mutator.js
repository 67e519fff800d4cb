'use strict';
// Structure-aware mutation of an HTTP/2 client byte stream (connection preface, then frames).
// Most mutations work on frames (type, flags, stream id, length field, reordering, splicing
// from another input, synthesized frames of every type, whole requests with hand-written HPACK
// literals, valid or malformed), so inputs get past the frame layer into the connection and
// stream state machines and request validation; the rest are byte-level, for the parser itself.

const { PREFACE, frame, hpackLiteral } = require('../helpers/h2-frames');

const HEADER_LENGTH = 9;
const MAX_INPUT_BYTES = 64 * 1024;
// The ten types of RFC 9113 6, one extension type number and one far past them.
const FRAME_TYPES = [0x0, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa, 0xff];
const INTERESTING_32 = [0, 1, 0x7f, 0x80, 0xff, 0x3fff, 0x4000, 0x4001, 0xffff, 0x10000, 0xffffff, 0x1000000, 0x7fffffff, 0x80000000, 0xffffffff];
const ERROR_CODES = [0, 1, 2, 3, 5, 6, 7, 8, 0xb, 0xd, 0xe, 0xffffffff];

// Splits bytes after an optional preface into frames; a trailing partial frame is kept as
// `rest`. Lengths are taken as written, so a mutated length field desynchronizes the rest.
function splitFrames(input) {
  let pos = input.subarray(0, PREFACE.length).equals(PREFACE) ? PREFACE.length : 0;
  const prefix = input.subarray(0, pos);
  const frames = [];
  while (input.length - pos >= HEADER_LENGTH) {
    const end = pos + HEADER_LENGTH + input.readUIntBE(pos, 3);
    if (end > input.length) break;
    frames.push(Buffer.from(input.subarray(pos, end)));
    pos = end;
  }
  return { prefix, frames, rest: input.subarray(pos) };
}

function joinFrames({ prefix, frames, rest }) {
  return Buffer.concat([prefix, ...frames, rest]);
}

// A frame of a random type with a plausible payload for it, on a stream the input may use.
function synthesizeFrame(random, streamIds) {
  const stream = random.chance(0.7) && streamIds.length ? random.pick(streamIds) : random.pick([0, 1, 2, 3, 5, 0x7fffffff]);
  const u32 = () => random.pick(INTERESTING_32);
  const word = (n) => { const b = Buffer.alloc(4); b.writeUInt32BE(n >>> 0); return b; };
  switch (random.below(9)) {
    case 0: { // SETTINGS: known and unknown identifiers, edge values
      const params = [];
      for (let i = random.below(4); i >= 0; i--) {
        const p = Buffer.alloc(6);
        p.writeUInt16BE(random.chance(0.8) ? 1 + random.below(6) : random.below(0x10000));
        p.writeUInt32BE(u32() >>> 0, 2);
        params.push(p);
      }
      return frame(0x4, random.chance(0.1) ? 0x1 : 0, random.chance(0.9) ? 0 : stream, Buffer.concat(params));
    }
    case 1: return frame(0x8, 0, random.chance(0.5) ? 0 : stream, word(u32() & (random.chance(0.9) ? 0x7fffffff : 0xffffffff)));
    case 2: return frame(0x6, random.chance(0.3) ? 1 : 0, random.chance(0.9) ? 0 : stream, random.bytes(random.chance(0.9) ? 8 : random.below(12)));
    case 3: return frame(0x3, 0, stream, word(random.pick(ERROR_CODES)));
    case 4: { // PRIORITY, sometimes depending on itself
      const dep = random.chance(0.3) ? stream : random.pick([0, 1, 3, stream + 2]);
      return frame(0x2, 0, stream, Buffer.concat([word((random.chance(0.3) ? 0x80000000 : 0) | dep), Buffer.from([random.below(256)])]));
    }
    case 5: return frame(0x7, 0, 0, Buffer.concat([word(random.pick([0, 1, 3, 0x7fffffff])), word(random.pick(ERROR_CODES)), random.bytes(random.below(8))]));
    case 6: return frame(0x0, random.below(256) & 0x09, stream, random.bytes(random.pick([0, 1, 10, 100, 16384])));
    case 7: return frame(0x9, random.chance(0.5) ? 0x4 : 0, stream, random.bytes(random.below(32)));
    default: return frame(random.pick(FRAME_TYPES), random.below(256), stream, random.bytes(random.below(64)));
  }
}

// Request fields, mostly valid, with the malformations of RFC 9113 8.2 and 8.3 mixed in:
// odd methods and paths, missing, repeated or late pseudo-fields, uppercase names,
// connection-specific fields, bad content-length, control characters and edge whitespace.
const METHODS = ['GET', 'HEAD', 'POST', 'OPTIONS', 'CONNECT', 'get', '', 'G ET'];
const PATHS = ['/', '/ab', '/abc', '/empty', '*', '', 'x', '/a?b=c', '/%00', '/a\x00b', `/${'p'.repeat(300)}`];
const EXTRA_FIELDS = [
  ['accept-encoding', 'gzip, br'], ['range', 'bytes=0-10'], ['content-length', '0'], ['content-length', '5'],
  ['content-length', '-1'], ['content-length', '1, 2'], ['te', 'trailers'], ['te', 'gzip'], ['connection', 'close'],
  ['transfer-encoding', 'chunked'], ['keep-alive', '5'], ['upgrade', 'h2c'], ['host', 'localhost'], ['cookie', 'a=b'],
  ['Accept', 'text/html'], ['x-sp', ' lead'], ['x-sp', 'trail '], ['x-crlf', 'a\r\nb'], ['x-nul', 'a\x00b'], ['', 'empty name'],
  [':path', '/again'], [':protocol', 'websocket'], [':status', '200'], ['x-big', 'v'.repeat(5000)],
];

function requestBlock(random) {
  const fields = [];
  if (random.chance(0.9)) fields.push([':method', random.chance(0.7) ? 'GET' : random.pick(METHODS)]);
  if (random.chance(0.9)) fields.push([':scheme', random.chance(0.9) ? 'https' : random.pick(['http', '', 'foo'])]);
  if (random.chance(0.8)) fields.push([':authority', random.pick(['localhost', '127.0.0.1:8443', '', 'a b'])]);
  if (random.chance(0.9)) fields.push([':path', random.pick(PATHS)]);
  for (let i = random.below(4); i > 0; i--) {
    const field = random.pick(EXTRA_FIELDS);
    fields.splice(random.chance(0.1) ? random.below(fields.length + 1) : fields.length, 0, field);
  }
  return Buffer.concat(fields.map(([name, value]) => hpackLiteral(name, value, { index: random.chance(0.2) })));
}

// A request on the next client stream (or a random one): HEADERS, sometimes split into
// CONTINUATION frames, sometimes followed by DATA and trailers.
function synthesizeRequest(random, frames) {
  const ids = streamIdsOf(frames).filter((id) => id % 2 === 1);
  const id = random.chance(0.8) ? (ids.length ? Math.max(...ids) + 2 : 1) : random.pick([1, 3, 2, 0, 0x7fffffff]);
  const block = requestBlock(random);
  const withBody = random.chance(0.3);
  const split = random.chance(0.2) ? 1 + random.below(block.length || 1) : block.length;
  const out = [frame(0x1, (withBody ? 0 : 0x1) | (split >= block.length ? 0x4 : 0), id, block.subarray(0, split))];
  if (split < block.length) out.push(frame(0x9, 0x4, id, block.subarray(split)));
  if (withBody) {
    out.push(frame(0x0, 0, id, random.bytes(random.pick([0, 1, 5, 100]))));
    out.push(random.chance(0.5)
      ? frame(0x0, 0x1, id, Buffer.alloc(0))
      : frame(0x1, 0x5, id, hpackLiteral(random.chance(0.5) ? 'x-trailer' : ':path', '1')));
  }
  return out;
}

function streamIdsOf(frames) {
  return [...new Set(frames.filter((f) => f.length >= HEADER_LENGTH).map((f) => f.readUInt32BE(5) & 0x7fffffff))];
}

const FRAME_MUTATIONS = [
  function setType(random, s) { const f = random.pick(s.frames); f[3] = random.pick(FRAME_TYPES); },
  function flipFlag(random, s) { const f = random.pick(s.frames); f[4] ^= 1 << random.below(8); },
  function setFlags(random, s) { random.pick(s.frames)[4] = random.below(256); },
  function setStream(random, s) {
    const f = random.pick(s.frames);
    const ids = streamIdsOf(s.frames);
    f.writeUInt32BE((random.chance(0.5) ? random.pick([0, 1, 2, 3, 5, 7, 0x7fffffff, 0x80000001]) : random.pick(ids) + random.pick([-2, 0, 2])) >>> 0, 5);
  },
  function setLengthField(random, s) {
    const f = random.pick(s.frames);
    const n = f.length - HEADER_LENGTH;
    f.writeUIntBE(Math.max(0, Math.min(0xffffff, random.pick([0, n - 1, n + 1, 16384, 16385, 0xffffff, random.below(n + 16)]))), 0, 3);
  },
  function resizePayload(random, s) {
    const i = random.below(s.frames.length);
    const f = s.frames[i];
    let payload = f.subarray(HEADER_LENGTH);
    payload = random.chance(0.5) ? payload.subarray(0, random.below(payload.length + 1)) : Buffer.concat([payload, random.bytes(1 + random.below(32))]);
    s.frames[i] = Buffer.concat([f.subarray(0, HEADER_LENGTH), payload]);
    s.frames[i].writeUIntBE(payload.length, 0, 3);
  },
  function mutatePayloadByte(random, s) {
    const f = random.pick(s.frames);
    if (f.length > HEADER_LENGTH) f[HEADER_LENGTH + random.below(f.length - HEADER_LENGTH)] = random.below(256);
  },
  function duplicateFrame(random, s) {
    const i = random.below(s.frames.length);
    const copies = random.chance(0.1) ? 1 + random.below(200) : 1;
    s.frames.splice(i, 0, ...Array.from({ length: copies }, () => Buffer.from(s.frames[i])));
  },
  function dropFrame(random, s) { s.frames.splice(random.below(s.frames.length), 1); },
  function swapFrames(random, s) {
    const i = random.below(s.frames.length);
    const j = random.below(s.frames.length);
    [s.frames[i], s.frames[j]] = [s.frames[j], s.frames[i]];
  },
  function insertFrame(random, s) { s.frames.splice(random.below(s.frames.length + 1), 0, synthesizeFrame(random, streamIdsOf(s.frames))); },
  function insertRequest(random, s) { s.frames.splice(random.chance(0.7) ? s.frames.length : random.below(s.frames.length + 1), 0, ...synthesizeRequest(random, s.frames)); },
  function spliceFrames(random, s, other) {
    const from = splitFrames(other).frames;
    if (from.length === 0) return;
    const start = random.below(from.length);
    const taken = from.slice(start, start + 1 + random.below(4)).map((f) => Buffer.from(f));
    s.frames.splice(random.below(s.frames.length + 1), 0, ...taken);
  },
  function truncateStream(random, s) { s.frames.length = random.below(s.frames.length + 1); s.rest = Buffer.alloc(0); },
];

const BYTE_MUTATIONS = [
  function flipBit(random, b) { const i = random.below(b.length); b[i] ^= 1 << random.below(8); return b; },
  function setByte(random, b) { b[random.below(b.length)] = random.pick([0, 1, 0x7f, 0x80, 0xff, random.below(256)]); return b; },
  function setWord(random, b) {
    if (b.length < 4) return b;
    b.writeUInt32BE(random.pick(INTERESTING_32) >>> 0, random.below(b.length - 3));
    return b;
  },
  function insertBytes(random, b) { const i = random.below(b.length + 1); return Buffer.concat([b.subarray(0, i), random.bytes(1 + random.below(16)), b.subarray(i)]); },
  function deleteBytes(random, b) { const i = random.below(b.length); return Buffer.concat([b.subarray(0, i), b.subarray(i + 1 + random.below(16))]); },
  function duplicateBytes(random, b) { const i = random.below(b.length); const n = 1 + random.below(64); return Buffer.concat([b.subarray(0, i + n), b.subarray(i, i + n), b.subarray(i + n)]); },
  function crossOver(random, b, other) { const i = random.below(b.length + 1); return Buffer.concat([b.subarray(0, i), other.subarray(random.below(other.length + 1))]); },
];

// One mutant of `input` (never the same Buffer), using `other` (another corpus input) for
// splicing. Stacks 1-4 mutations; keeps the result under MAX_INPUT_BYTES.
function mutate(random, input, other) {
  let out = Buffer.from(input);
  for (let n = 1 + random.below(4); n > 0; n--) {
    const s = splitFrames(out);
    if (s.frames.length > 0 && random.chance(0.6)) {
      random.pick(FRAME_MUTATIONS)(random, s, other);
      out = joinFrames(s);
    } else if (out.length > 0) {
      out = Buffer.from(random.pick(BYTE_MUTATIONS)(random, out, other));
    } else {
      out = Buffer.concat([PREFACE, synthesizeFrame(random, [])]);
    }
  }
  return out.length > MAX_INPUT_BYTES ? out.subarray(0, MAX_INPUT_BYTES) : out;
}

module.exports = { mutate, splitFrames, BYTE_MUTATIONS, MAX_INPUT_BYTES };
