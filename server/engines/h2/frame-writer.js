'use strict';
// Serialises frames for one connection and hands them to the socket in one write per batch:
// frame headers and small payloads are copied into a slab shared by all connections (as
// Buffer.allocUnsafe shares its pool: an idle connection holds no output memory), large
// payloads are passed by reference, and flush() first lets the connection add the DATA its
// scheduler has ready, then writes everything queued since the last flush at once.

const { FRAME, FLAG, FRAME_HEADER_LENGTH } = require('./frame-types');

const SLAB_SIZE = 64 * 1024;
// Bytes handed to a socket stay referenced by it until written, so the slab is never
// rewound: a new one replaces it when full, and the old one goes with its last view.
let slab = Buffer.allocUnsafeSlow(SLAB_SIZE);
let slabUsed = 0;
// Payloads up to this size are copied next to their frame header so that a typical batch
// is one contiguous buffer (one write, no writev); larger ones are queued as they are.
const COPY_LIMIT = 8 * 1024;

class FrameWriter {
  #socket;
  #onBlocked;
  #fill;
  // This writer's bytes in the slab not yet queued as a chunk: [#start, #end) of #segment.
  #segment = null;
  #start = 0;
  #end = 0;
  #chunks = [];
  #scheduled = false;
  #flushing = false;
  #flushBound = () => { this.#scheduled = false; this.flush(); };
  queuedBytes = 0;

  // onBlocked() runs when a flush leaves the socket over its high-water mark ('drain' follows);
  // fill() runs at the start of every flush, to frame what fits in this batch.
  constructor(socket, onBlocked, fill = () => {}) {
    this.#socket = socket;
    this.#onBlocked = onBlocked;
    this.#fill = fill;
  }

  // One frame; payload (Buffer or undefined) is copied or queued (then it must not change).
  frame(type, flags, streamId, payload) {
    if (payload === undefined) this.slice(type, flags, streamId, null, 0, 0);
    else this.slice(type, flags, streamId, payload, 0, payload.length);
  }

  // A frame whose payload is bytes [start, end) of buf.
  slice(type, flags, streamId, buf, start, end) {
    const length = end - start;
    if (length > COPY_LIMIT) {
      this.#header(type, flags, streamId, length, 0);
      this.#push(start === 0 && end === buf.length ? buf : buf.subarray(start, end));
    } else {
      const at = this.#header(type, flags, streamId, length, length);
      if (length !== 0) buf.copy(slab, at + FRAME_HEADER_LENGTH, start, end);
      this.#advance(length);
    }
    this.queuedBytes += FRAME_HEADER_LENGTH + length;
    this.schedule();
  }

  // A frame whose payload is a 32-bit value (WINDOW_UPDATE, RST_STREAM) or two (GOAWAY without
  // debug data), written straight into the slab.
  frameUint32(type, flags, streamId, a, b) {
    const length = b === undefined ? 4 : 8;
    const at = this.#header(type, flags, streamId, length, length);
    slab.writeUInt32BE(a >>> 0, at + FRAME_HEADER_LENGTH);
    if (b !== undefined) slab.writeUInt32BE(b >>> 0, at + FRAME_HEADER_LENGTH + 4);
    this.#advance(length);
    this.queuedBytes += FRAME_HEADER_LENGTH + length;
    this.schedule();
  }

  // Writes the 9-byte header with room for `room` payload bytes after it; returns its offset.
  #header(type, flags, streamId, length, room) {
    const at = this.#reserve(FRAME_HEADER_LENGTH + room);
    this.#writeHeader(at, type, flags, streamId, length);
    this.#advance(FRAME_HEADER_LENGTH);
    return at;
  }

  #writeHeader(at, type, flags, streamId, length) {
    slab[at] = length >>> 16;
    slab[at + 1] = (length >>> 8) & 0xff;
    slab[at + 2] = length & 0xff;
    slab[at + 3] = type;
    slab[at + 4] = flags;
    slab.writeUInt32BE(streamId, at + 5);
  }

  // The slab offset where `need` bytes can be written. They extend this writer's segment
  // when no other writer wrote since (the common case: a batch is made in one go).
  #reserve(need) {
    if (slab.length - slabUsed < need) {
      slab = Buffer.allocUnsafeSlow(Math.max(SLAB_SIZE, need));
      slabUsed = 0;
    }
    if (this.#segment !== slab || this.#end !== slabUsed) {
      this.#cut();
      this.#segment = slab;
      this.#start = slabUsed;
      this.#end = slabUsed;
    }
    return slabUsed;
  }

  #advance(n) {
    slabUsed += n;
    this.#end = slabUsed;
  }

  // Queues the slab bytes written since the last cut as one chunk.
  #cut() {
    if (this.#end > this.#start) {
      this.#chunks.push(this.#segment.subarray(this.#start, this.#end));
      this.#start = this.#end;
    }
  }

  #push(buf) {
    this.#cut();
    this.#chunks.push(buf);
  }

  // A flush at the end of this event-loop turn: frames queued now, or DATA ready for fill().
  schedule() {
    if (!this.#scheduled && !this.#flushing) {
      this.#scheduled = true;
      setImmediate(this.#flushBound);
    }
  }

  // Writes everything queued; returns false when the socket asks us to wait for 'drain'.
  flush() {
    this.#flushing = true;
    this.#fill();
    this.#flushing = false;
    this.#cut();
    const chunks = this.#chunks;
    if (chunks.length === 0) return true;
    this.#chunks = [];
    this.queuedBytes = 0;
    const socket = this.#socket;
    if (socket.destroyed || socket.writableEnded) return false;
    let ok;
    if (chunks.length === 1) {
      ok = socket.write(chunks[0]);
    } else {
      socket.cork();
      for (const chunk of chunks) ok = socket.write(chunk);
      socket.uncork();
    }
    if (!ok) this.#onBlocked();
    return ok;
  }

  // A header block as HEADERS plus CONTINUATION frames of at most maxFrameSize octets, encoded
  // by source.encodeInto(list, buffer, offset) (response-headers.js) straight after its frame
  // header in the slab; encodeInto returns the block's length, or the room it needs when there
  // is less, having written nothing. A block is encoded as it is framed, so blocks leave in the
  // order their encoder made them (RFC 7541 2.2: the peer's table follows ours).
  headers(streamId, flags, source, list, maxFrameSize) {
    let at = this.#reserve(FRAME_HEADER_LENGTH);
    let length = source.encodeInto(list, slab, at + FRAME_HEADER_LENGTH);
    if (length > slab.length - at - FRAME_HEADER_LENGTH) {
      at = this.#reserve(FRAME_HEADER_LENGTH + length);
      length = source.encodeInto(list, slab, at + FRAME_HEADER_LENGTH);
    }
    if (length <= maxFrameSize) {
      this.#writeHeader(at, FRAME.HEADERS, flags | FLAG.END_HEADERS, streamId, length);
      this.#advance(FRAME_HEADER_LENGTH + length);
      this.queuedBytes += FRAME_HEADER_LENGTH + length;
      this.schedule();
      return;
    }
    // Rare (a peer's 16 KiB frames and a larger block): framed from a copy, since the frames
    // are written over the slab bytes the block was encoded into.
    const block = Buffer.from(slab.subarray(at + FRAME_HEADER_LENGTH, at + FRAME_HEADER_LENGTH + length));
    for (let offset = 0; offset < length; offset += maxFrameSize) {
      const last = offset + maxFrameSize >= length;
      const type = offset === 0 ? FRAME.HEADERS : FRAME.CONTINUATION;
      const frameFlags = (offset === 0 ? flags : 0) | (last ? FLAG.END_HEADERS : 0);
      this.frame(type, frameFlags, streamId, block.subarray(offset, offset + maxFrameSize));
    }
  }
}

module.exports = { FrameWriter };
