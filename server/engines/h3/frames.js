'use strict';
// HTTP/3 frames (RFC 9114 7): type and length varints, then the payload. The reader is
// incremental over one stream's bytes, split anywhere; HEADERS and control frames are handed
// over whole (after a bound on their length, checked before anything is buffered), DATA and
// frame types the engine does not know are streamed through or skipped as they arrive, so no
// frame makes us hold more than its bound. Which frame may come on which stream is the
// connection's question (connection.js), not the reader's.

const { readVarint, writeVarint, varintLength } = require('./varint');
const { ERROR, ConnectionError } = require('./errors');

const FRAME = {
  DATA: 0x0,
  HEADERS: 0x1,
  CANCEL_PUSH: 0x3,
  SETTINGS: 0x4,
  PUSH_PROMISE: 0x5,
  GOAWAY: 0x7,
  MAX_PUSH_ID: 0xd,
};
// 7.2.8: types HTTP/2 has and HTTP/3 reserved, whose receipt is H3_FRAME_UNEXPECTED (PRIORITY,
// PING, WINDOW_UPDATE, CONTINUATION).
const HTTP2_ONLY = new Set([0x2, 0x6, 0x8, 0x9]);
const KNOWN = new Set(Object.values(FRAME));

// What becomes of a frame type: read whole, streamed (DATA), refused, or skipped (7.2.8:
// reserved and unknown types are ignored, wherever they come).
function frameKind(type) {
  if (type === FRAME.DATA) return 'data';
  if (KNOWN.has(type)) return 'whole';
  if (HTTP2_ONLY.has(type)) return 'refused';
  return 'skipped';
}

function frameHeader(type, length) {
  const buf = Buffer.allocUnsafe(varintLength(type) + varintLength(length));
  writeVarint(buf, writeVarint(buf, 0, type), length);
  return buf;
}

function encodeFrame(type, payload) {
  return Buffer.concat([frameHeader(type, payload.length), payload]);
}

// handler: {
//   frame(type, payload): a whole frame of kind 'whole' (return false: read no further),
//   dataStart(length), data(piece): a DATA frame's length, then its payload in pieces,
//   skipped(type, length): a frame of a type ignored (its payload is dropped as it comes),
// }. maxLength(type): the longest payload of a whole frame read, past which the peer makes us
// buffer too much (H3_EXCESSIVE_LOAD). Refused types throw H3_FRAME_UNEXPECTED.
class FrameReader {
  #maxLength;
  #pending = null; // an incomplete frame header, or the start of a whole frame's payload
  #type = -1; // the frame whose payload is being read; -1 between frames
  #left = 0; // its payload octets still to come
  #kind = null;
  #failed = false;

  constructor(maxLength) {
    this.#maxLength = maxLength;
  }

  /** Inside a frame (its header or payload begun): a stream ending here is truncated (7.1). */
  get midFrame() {
    return this.#type !== -1 || this.#pending !== null;
  }

  push(chunk, handler) {
    if (this.#failed) return;
    let buf = chunk;
    let pos = 0;
    while (pos < buf.length || (this.#type !== -1 && this.#left === 0)) {
      if (this.#type === -1) {
        if (this.#pending !== null) {
          buf = Buffer.concat([this.#pending, buf.subarray(pos)]);
          pos = 0;
          this.#pending = null;
        }
        const type = readVarint(buf, pos);
        const length = type === null ? null : readVarint(buf, pos + type.length);
        if (length === null) {
          this.#pending = Buffer.from(buf.subarray(pos));
          return;
        }
        pos += type.length + length.length;
        this.#begin(type.value, length.value, handler);
        if (this.#failed) return;
        continue;
      }
      const n = Math.min(this.#left, buf.length - pos);
      if (this.#kind === 'whole') {
        const part = buf.subarray(pos, pos + n);
        this.#pending = this.#pending === null ? Buffer.from(part) : Buffer.concat([this.#pending, part]);
        this.#left -= n;
        pos += n;
        if (this.#left > 0) return;
        const payload = this.#pending;
        const type = this.#type;
        this.#pending = null;
        this.#type = -1;
        if (handler.frame(type, payload) === false) {
          this.#failed = true;
          return;
        }
        continue;
      }
      if (this.#kind === 'data' && n > 0) handler.data(buf.subarray(pos, pos + n));
      this.#left -= n;
      pos += n;
      if (this.#left === 0) this.#type = -1;
      if (this.#failed) return;
    }
  }

  // Everything after this is dropped (the stream or connection failed).
  stop() {
    this.#failed = true;
    this.#pending = null;
  }

  #begin(type, length, handler) {
    const kind = frameKind(type);
    if (kind === 'refused') {
      this.stop();
      throw new ConnectionError(ERROR.H3_FRAME_UNEXPECTED, `HTTP/2 frame type 0x${type.toString(16)}`);
    }
    if (kind === 'whole' && length > this.#maxLength(type)) {
      this.stop();
      throw new ConnectionError(ERROR.H3_EXCESSIVE_LOAD, `frame 0x${type.toString(16)} of ${length} octets`);
    }
    this.#type = type;
    this.#left = length;
    this.#kind = kind;
    if (kind === 'whole') this.#pending = Buffer.alloc(0);
    else if (kind === 'data') handler.dataStart(length);
    else handler.skipped(type, length);
    if (kind !== 'whole' && length === 0) this.#type = -1;
  }
}

// A payload that is one varint (GOAWAY, MAX_PUSH_ID, CANCEL_PUSH): its value, or H3_FRAME_ERROR.
function decodeVarintPayload(payload, what) {
  const v = readVarint(payload, 0);
  if (v === null || v.length !== payload.length) throw new ConnectionError(ERROR.H3_FRAME_ERROR, `malformed ${what}`);
  return v.value;
}

module.exports = { FRAME, FrameReader, frameHeader, encodeFrame, decodeVarintPayload, frameKind };
