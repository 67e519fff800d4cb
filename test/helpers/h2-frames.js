'use strict';
// The few HTTP/2 frames (RFC 7540 4, 6) the HPACK interop tests exchange over a
// raw socket: the connection preface, SETTINGS and its ACK, HEADERS and CONTINUATION; and
// HPACK literals written by hand, for header blocks no encoder would produce.

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
const TYPE = { DATA: 0x0, HEADERS: 0x1, SETTINGS: 0x4, GOAWAY: 0x7, CONTINUATION: 0x9 };
const FLAG = { END_STREAM: 0x1, ACK: 0x1, END_HEADERS: 0x4, PADDED: 0x8, PRIORITY: 0x20 };
const HEADER_LENGTH = 9;
const DEFAULT_MAX_FRAME_SIZE = 16384;

function frame(type, flags, streamId, payload = Buffer.alloc(0)) {
  const head = Buffer.alloc(HEADER_LENGTH);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(streamId & 0x7fffffff, 5);
  return Buffer.concat([head, payload]);
}

const settings = () => frame(TYPE.SETTINGS, 0, 0);
const settingsAck = () => frame(TYPE.SETTINGS, FLAG.ACK, 0);

// RFC 7541 5.1: an integer with an n-bit prefix, the first byte's other bits from `flags`.
function hpackInteger(n, flags, value) {
  const max = (1 << n) - 1;
  if (value < max) return Buffer.from([flags | value]);
  const out = [flags | max];
  for (value -= max; value >= 128; value = Math.floor(value / 128)) out.push((value % 128) | 128);
  out.push(value);
  return Buffer.from(out);
}

// A literal field with a new name and plain (not Huffman) strings (RFC 7541 6.2), without
// indexing unless `index` (then it is inserted into the dynamic table). No validation, so
// tests can send names and values no encoder would.
function hpackLiteral(name, value, { index = false } = {}) {
  const n = Buffer.from(name, 'latin1');
  const v = Buffer.from(value, 'latin1');
  return Buffer.concat([Buffer.from([index ? 0x40 : 0x00]), hpackInteger(7, 0, n.length), n, hpackInteger(7, 0, v.length), v]);
}

// A header block as HEADERS plus as many CONTINUATION frames as the frame size needs.
function headers(streamId, block, { endStream = true, maxFrameSize = DEFAULT_MAX_FRAME_SIZE } = {}) {
  const frames = [];
  for (let offset = 0; offset === 0 || offset < block.length; offset += maxFrameSize) {
    const chunk = block.subarray(offset, offset + maxFrameSize);
    const last = offset + maxFrameSize >= block.length;
    const type = offset === 0 ? TYPE.HEADERS : TYPE.CONTINUATION;
    const flags = (last ? FLAG.END_HEADERS : 0) | (offset === 0 && endStream ? FLAG.END_STREAM : 0);
    frames.push(frame(type, flags, streamId, chunk));
  }
  return Buffer.concat(frames);
}

// The header block fragment of a HEADERS payload, without padding and priority.
function headersFragment({ flags, payload }) {
  let start = 0;
  let end = payload.length;
  if (flags & FLAG.PADDED) {
    end -= payload[0];
    start = 1;
  }
  if (flags & FLAG.PRIORITY) start += 5;
  if (start > end) throw new Error('HEADERS padding or priority longer than the frame');
  return payload.subarray(start, end);
}

// Splits a byte stream into frames; optionally expects the client preface first.
// onFrame({ type, flags, streamId, payload }) is called per frame, and
// onHeaderBlock(streamId, block) per complete HEADERS + CONTINUATION sequence.
class FrameReader {
  constructor({ expectPreface = false, onFrame = () => {}, onHeaderBlock = () => {} } = {}) {
    this.buffer = Buffer.alloc(0);
    this.needPreface = expectPreface;
    this.onFrame = onFrame;
    this.onHeaderBlock = onHeaderBlock;
    this.pending = null; // { streamId, fragments } while waiting for END_HEADERS
  }

  push(data) {
    this.buffer = Buffer.concat([this.buffer, data]);
    if (this.needPreface) {
      if (this.buffer.length < PREFACE.length) return;
      if (!this.buffer.subarray(0, PREFACE.length).equals(PREFACE)) throw new Error('bad HTTP/2 connection preface');
      this.buffer = this.buffer.subarray(PREFACE.length);
      this.needPreface = false;
    }
    while (this.buffer.length >= HEADER_LENGTH) {
      const length = this.buffer.readUIntBE(0, 3);
      if (this.buffer.length < HEADER_LENGTH + length) break;
      const f = {
        type: this.buffer[3],
        flags: this.buffer[4],
        streamId: this.buffer.readUInt32BE(5) & 0x7fffffff,
        payload: this.buffer.subarray(HEADER_LENGTH, HEADER_LENGTH + length),
      };
      this.buffer = this.buffer.subarray(HEADER_LENGTH + length);
      this.#collect(f);
      this.onFrame(f);
    }
  }

  #collect(f) {
    if (f.type === TYPE.HEADERS) {
      this.pending = { streamId: f.streamId, fragments: [headersFragment(f)] };
    } else if (f.type === TYPE.CONTINUATION) {
      if (!this.pending || this.pending.streamId !== f.streamId) throw new Error('unexpected CONTINUATION');
      this.pending.fragments.push(f.payload);
    } else {
      if (this.pending) throw new Error('frame interleaved in a header block');
      return;
    }
    if (f.flags & FLAG.END_HEADERS) {
      const { streamId, fragments } = this.pending;
      this.pending = null;
      this.onHeaderBlock(streamId, Buffer.concat(fragments));
    }
  }
}

module.exports = { PREFACE, TYPE, FLAG, frame, settings, settingsAck, headers, hpackInteger, hpackLiteral, FrameReader };
