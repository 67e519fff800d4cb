'use strict';
// The output half of an HTTP/2 connection (connection.js is the input half): the frame writer,
// the send-out sink of every stream (stream.js, ../send-out.js), DATA scheduling under both
// flow-control windows (data-scheduler.js) and batches written under the socket's backpressure.
// A stream's life stays the connection's: the output tells it, through `owner`, when a
// response went out whole, failed or ended, and asks it whether the connection has ended.

const { FrameWriter } = require('./frame-writer');
const { FRAME, FLAG } = require('./frame-types');
const { ERROR } = require('./errors');
const { DataScheduler } = require('./data-scheduler');
const { ResponseHeaders } = require('./response-headers');
const { loggedStatus } = require('../send-out');
const { CODES } = require('../../errors');

// A batch frames DATA until the socket and the batch hold OUTPUT_LIMIT octets, then waits for
// 'drain' (bounds the memory a slow reader makes us hold, and the time one write takes).
const OUTPUT_LIMIT = 256 * 1024;

class Http2Output {
  #socket;
  #peer;
  #owner;
  #log;
  #writer;
  #headers;
  #scheduler = new DataScheduler((stream, start, end, last) => this.#sendData(stream, start, end, last));

  // peer: the peer's settings, as the input half keeps them (maxFrameSize is read per frame).
  // owner: { finishStream(stream), resetStream(id, code), logEnd(stream, status), ended(),
  //          touch(), internalError(err) }.
  constructor(socket, { peer, owner, log }) {
    this.#socket = socket;
    this.#peer = peer;
    this.#owner = owner;
    this.#log = log;
    this.#headers = new ResponseHeaders();
    this.#writer = new FrameWriter(socket, () => socket.pause(), () => this.#beforeFlush());
    this.sink.remoteAddress = socket.remoteAddress;
    socket.on('drain', () => this.#onDrain());
    // Nothing is framed once the socket is closed (ended() is true by then): the encoder's
    // table goes with it.
    socket.once('close', () => this.#headers.close());
  }

  // ---- for the input half ----

  frame(type, flags, id, payload) {
    this.#writer.frame(type, flags, id, payload);
  }

  frameUint32(type, flags, id, value) {
    this.#writer.frameUint32(type, flags, id, value);
  }

  flush() {
    this.#writer.flush();
  }

  /** The connection's send window. */
  get window() {
    return this.#scheduler.window;
  }

  set window(value) {
    this.#scheduler.window = value;
  }

  /** A stream whose window opened: it takes turns again. */
  wake(stream) {
    this.#scheduler.wake(stream);
  }

  /** A closed stream: no more turns. */
  drop(stream) {
    this.#scheduler.drop(stream);
  }

  setPeerTableSize(size) {
    this.#headers.setPeerTableSize(size);
  }

  // ---- the send-out sink ----

  // The framing side of the streams' send-out sinks, one object per connection. sendTimeout
  // (nginx: send_timeout) ends in CANCEL (RFC 9113 7: the stream is no longer needed) rather
  // than INTERNAL_ERROR: nothing failed here, and the client may retry. The socket's idle timer
  // cannot see such a stall, since any frame (a PING, a 1-octet WINDOW_UPDATE on another
  // stream) restarts it.
  sink = {
    // For the access log (a stream is its client): kept, since a closed socket no longer reports it.
    remoteAddress: null,
    start: (stream, d, bytes, ends) => {
      const endStream = ends && (bytes === null || bytes.length === 0);
      const headers = this.#headers;
      this.#writer.headers(stream.id, endStream ? FLAG.END_STREAM : 0, headers, headers.list(d), this.#peer.maxFrameSize);
      if (endStream) {
        this.#owner.finishStream(stream);
        return true;
      }
      stream.bodyEnded = ends;
      return bytes === null || this.#take(stream, bytes);
    },
    write: (stream, chunk) => this.#take(stream, chunk),
    end: (stream) => {
      if (stream.closed) return;
      stream.bodyEnded = true;
      // send-out reads on only once the last chunk was all framed: END_STREAM on an empty DATA.
      this.#writer.frame(FRAME.DATA, FLAG.END_STREAM, stream.id);
      this.#owner.finishStream(stream);
    },
    abort: (stream, err) => {
      if (stream.closed) return;
      const timedOut = err.code === CODES.ERR_SEND_TIMEOUT;
      this.#log.debug(`http2 stream ${stream.id}: ${timedOut ? 'no DATA out' : 'body failed'}: ${err.message}`);
      this.#owner.resetStream(stream.id, timedOut ? ERROR.CANCEL : ERROR.INTERNAL_ERROR);
    },
    finished: (stream, outcome) => this.#owner.logEnd(stream, loggedStatus(stream.response.status, outcome)),
  };

  // A chunk that fits in one frame, both windows and the batch goes out at once, as if its turn
  // came first (each stream arriving puts the others back by one frame at most); any other
  // waits for its turns (data-scheduler.js). True when all of it was framed.
  #take(stream, chunk) {
    const n = chunk.length;
    if (n === 0) return true;
    stream.chunk = chunk;
    stream.offset = 0;
    if (n <= this.#peer.maxFrameSize && n <= stream.sendWindow && n <= this.#scheduler.window
      && this.#socket.writableLength + this.#writer.queuedBytes < OUTPUT_LIMIT) {
      stream.offset = n;
      stream.sendWindow -= n;
      this.#scheduler.window -= n;
      this.#sendData(stream, 0, n, stream.bodyEnded);
      return true;
    }
    this.#scheduler.wake(stream);
    this.#writer.schedule();
    return false;
  }

  // A batch is about to be written (or the socket drained): bytes move. DATA is framed for it,
  // turn by turn, while the socket has room: once it has not, the 'drain' that follows the
  // write flushes (and fills) again.
  #beforeFlush() {
    this.#owner.touch();
    if (this.#owner.ended() || this.#scheduler.waiting === 0) return;
    const room = OUTPUT_LIMIT - this.#socket.writableLength - this.#writer.queuedBytes;
    if (room <= 0) return;
    try {
      this.#scheduler.run(room, this.#peer.maxFrameSize);
    } catch (err) {
      this.#owner.internalError(err);
    }
  }

  // DATA of stream.chunk[start, end), windows already charged. Outside a sink call (a turn in a
  // later batch), a chunk all framed tells the stream's Sending, which reads the next one: a
  // stream whose window stays shut pins one.
  #sendData(stream, start, end, last) {
    const chunk = stream.chunk;
    this.#writer.slice(FRAME.DATA, last ? FLAG.END_STREAM : 0, stream.id, chunk, start, end);
    stream.sent += end - start;
    if (end === chunk.length) stream.chunk = null;
    if (last) {
      this.#owner.finishStream(stream);
      return;
    }
    if (stream.sending === null) return;
    stream.sending.progress();
    if (stream.chunk === null && !stream.inCall) stream.sending.drain();
  }

  #onDrain() {
    if (this.#owner.ended()) return;
    this.#socket.resume();
    this.#writer.flush();
  }
}

module.exports = { Http2Output };
