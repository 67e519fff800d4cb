'use strict';
// Splits the bytes of a socket into frames (RFC 9113 4.1), checking the client preface (3.4)
// first. Incremental: a frame split across reads is kept until complete. An unusable byte
// stream throws the ConnectionError that ends the connection, like every protocol error of the
// engine; nothing is read after it.

const { PREFACE, FRAME_HEADER_LENGTH } = require('./frame-types');
const { ERROR, ConnectionError } = require('./errors');

class FrameReader {
  #prefaceSeen = 0;
  #pending = null; // bytes of an incomplete frame (or preface) from earlier reads
  #failed = false;

  // maxFrameSize: our SETTINGS_MAX_FRAME_SIZE; longer frames are a FRAME_SIZE_ERROR (4.2).
  constructor(maxFrameSize) {
    this.maxFrameSize = maxFrameSize;
  }

  // Calls onFrame(type, flags, streamId, payload) for each complete frame in order; payload
  // is a view into the read buffer. onFrame returns false to stop reading (connection over).
  push(chunk, onFrame) {
    if (this.#failed) return;
    let buf = chunk;
    if (this.#pending !== null) {
      buf = Buffer.concat([this.#pending, chunk]);
      this.#pending = null;
    }
    let pos = 0;
    if (this.#prefaceSeen < PREFACE.length) {
      const n = Math.min(PREFACE.length - this.#prefaceSeen, buf.length);
      if (buf.compare(PREFACE, this.#prefaceSeen, this.#prefaceSeen + n, 0, n) !== 0) {
        throw this.#fail(ERROR.PROTOCOL_ERROR, 'invalid connection preface');
      }
      this.#prefaceSeen += n;
      pos = n;
    }
    const end = buf.length;
    while (end - pos >= FRAME_HEADER_LENGTH) {
      const length = (buf[pos] << 16) | (buf[pos + 1] << 8) | buf[pos + 2];
      if (length > this.maxFrameSize) {
        throw this.#fail(ERROR.FRAME_SIZE_ERROR, `frame of ${length} octets exceeds SETTINGS_MAX_FRAME_SIZE ${this.maxFrameSize}`);
      }
      const frameEnd = pos + FRAME_HEADER_LENGTH + length;
      if (frameEnd > end) break;
      const type = buf[pos + 3];
      const flags = buf[pos + 4];
      const streamId = buf.readUInt32BE(pos + 5) & 0x7fffffff;
      const payload = buf.subarray(pos + FRAME_HEADER_LENGTH, frameEnd);
      pos = frameEnd;
      if (onFrame(type, flags, streamId, payload) === false) {
        this.#failed = true;
        return;
      }
    }
    if (pos < end) this.#pending = buf.subarray(pos);
  }

  #fail(code, message) {
    this.#failed = true;
    this.#pending = null;
    return new ConnectionError(code, message);
  }
}

module.exports = { FrameReader };
