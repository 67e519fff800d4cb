'use strict';
// Which DATA frames of one connection go out next. RFC 9113 leaves prioritization to the server
// (5.3), but one stream must not starve the others: the streams with content to send and send
// window open take turns, one frame each per turn (up to the peer's SETTINGS_MAX_FRAME_SIZE),
// within the connection's send window and the octets the caller's socket may take now. A stream
// whose window is shut leaves the turns until its WINDOW_UPDATE wakes it again (5.2, 6.9).

const { DEFAULT_WINDOW_SIZE, FRAME_HEADER_LENGTH } = require('./frame-types');

// Streams are objects with: sendWindow (their send window), chunk (a Buffer, or null),
// offset (chunk's next octet to send) and bodyEnded (no content follows the chunk).
function sendable(stream) {
  return stream.chunk !== null && stream.offset < stream.chunk.length && stream.sendWindow > 0;
}

class DataScheduler {
  // The connection's send window: may go negative through SETTINGS, never over 2^31-1 (flow-control.js).
  window = DEFAULT_WINDOW_SIZE;
  // Insertion order is turn order: a stream served is deleted and added back at the end.
  #turns = new Set();
  #frame;

  // frame(stream, start, end, last): sends DATA of stream.chunk[start, end) (END_STREAM when
  // last) after the scheduler has advanced stream.offset and charged both windows.
  constructor(frame) {
    this.#frame = frame;
  }

  get waiting() {
    return this.#turns.size;
  }

  // The stream has content and maybe window: it takes turns from the next run on.
  wake(stream) {
    if (sendable(stream)) this.#turns.add(stream);
  }

  drop(stream) {
    this.#turns.delete(stream);
  }

  // Frames DATA turn by turn until no stream can send, the connection window is shut, or about
  // `budget` octets (frame headers included) were framed. Returns the octets framed.
  run(budget, maxFrameSize) {
    const turns = this.#turns;
    let used = 0;
    // A Set visits the entries added during the loop: each stream served goes to the end, so
    // this is round-robin until a limit stops it.
    for (const stream of turns) {
      if (used >= budget || this.window <= 0) break;
      turns.delete(stream);
      // A SETTINGS_INITIAL_WINDOW_SIZE decrease or a closed stream since it was woken.
      if (!sendable(stream)) continue;
      const start = stream.offset;
      const available = stream.chunk.length - start;
      const n = Math.min(available, stream.sendWindow, this.window, maxFrameSize);
      stream.offset = start + n;
      stream.sendWindow -= n;
      this.window -= n;
      used += FRAME_HEADER_LENGTH + n;
      this.#frame(stream, start, start + n, stream.bodyEnded && n === available);
      if (sendable(stream)) turns.add(stream);
    }
    return used;
  }
}

module.exports = { DataScheduler };
