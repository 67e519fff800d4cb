'use strict';
// One request stream (RFC 9114 4.1): the client's HEADERS, optional DATA (read and dropped:
// a static server has no use for request content), optional trailers, then FIN; and, as the
// send-out sink (../send-out.js) of its response, HEADERS, DATA and FIN on the same stream.
// Content goes out in DATA frames of at most DATA_SLICE octets, each a view of the body's
// buffer, only while the QUIC stream takes them (write() true): once it returns false the rest
// waits for ondrain, so a client that does not read pins the transport's high-water mark plus
// one slice per stream. The connection (connection.js, `owner`) decodes field sections, sends
// requests to the core and ends streams.

const { FRAME, FrameReader, frameHeader, encodeFrame } = require('./frames');
const { ERROR, ConnectionError, StreamError } = require('./errors');
const { loggedStatus } = require('../send-out');
const { CODES } = require('../../errors');

const DATA_SLICE = 16 * 1024;
// Where the request is: waiting for HEADERS, for QPACK inserts its HEADERS need, reading
// content, after trailers.
const PHASE = Object.freeze({ HEADERS: 0, BLOCKED: 1, BODY: 2, TRAILERS: 3 });

class RequestStream {
  #reader;
  #owner;

  // quic: the QuicStream. owner: { decodeHeaders(stream, payload), decodeTrailers(stream,
  // payload), bodyReceived(stream), glitch(), encodeHeaders(stream, d), finishStream(stream),
  // resetStream(stream, code), logEnd(stream, status), remoteAddress }. headersMax: the
  // longest HEADERS payload read.
  constructor(quic, owner, headersMax) {
    this.quic = quic;
    this.id = quic.id;
    this.#owner = owner;
    this.#reader = new FrameReader(() => headersMax);
    this.phase = PHASE.HEADERS;
    this.finReceived = false;
    this.inputDone = false; // FIN read, or we stopped reading
    // The request, once its HEADERS are decoded (request-headers.js).
    this.headers = null;
    this.contentLength = -1;
    this.listSize = 0;
    this.received = 0;
    this.startedAt = 0;
    // The response.
    this.response = null;
    this.sending = null;
    this.responseDone = false; // FIN sent
    this.closed = false; // reset, or gone with its connection
    this.chunk = null;
    this.offset = 0;
    this.bodyEnded = false;
    this.waiting = false; // a write returned false: the sink owes send-out a drain()
    this.inCall = false;
    this.sent = 0;
  }

  // Bytes of the request; throws the StreamError or ConnectionError they make.
  input(buf, fin) {
    if (this.inputDone) return;
    this.#reader.push(buf, this);
    if (!fin) return;
    this.finReceived = true;
    this.inputDone = true;
    if (this.#reader.midFrame) throw new ConnectionError(ERROR.H3_FRAME_ERROR, `stream ${this.id} ends inside a frame`);
    if (this.phase === PHASE.HEADERS) throw new StreamError(this.id, ERROR.H3_REQUEST_INCOMPLETE, 'request without HEADERS');
    if (this.phase !== PHASE.BLOCKED) this.#owner.requestEnded(this);
  }

  // The request's input is of no more use (we reset the stream or answered it).
  stopReading() {
    this.inputDone = true;
    this.#reader.stop();
  }

  // ---- frames of the request (FrameReader handler) ----

  frame(type, payload) {
    if (type !== FRAME.HEADERS) throw new ConnectionError(ERROR.H3_FRAME_UNEXPECTED, `frame 0x${type.toString(16)} on request stream ${this.id}`);
    switch (this.phase) {
      case PHASE.HEADERS:
        this.phase = PHASE.BLOCKED;
        this.#owner.decodeHeaders(this, payload);
        break;
      case PHASE.BODY:
        this.phase = PHASE.TRAILERS;
        this.#owner.decodeTrailers(this, payload);
        break;
      case PHASE.BLOCKED:
        // Trailers behind a section still waiting for its inserts: the client may retry.
        throw new StreamError(this.id, ERROR.H3_REQUEST_REJECTED, 'trailers while the header section waits for QPACK inserts');
      default:
        throw new ConnectionError(ERROR.H3_FRAME_UNEXPECTED, `HEADERS after trailers on stream ${this.id}`);
    }
  }

  dataStart(length) {
    if (this.phase === PHASE.HEADERS || this.phase === PHASE.TRAILERS) {
      throw new ConnectionError(ERROR.H3_FRAME_UNEXPECTED, `DATA ${this.phase === PHASE.HEADERS ? 'before HEADERS' : 'after trailers'} on stream ${this.id}`);
    }
    if (length === 0) this.#owner.glitch();
  }

  data(piece) {
    this.received += piece.length;
    if (this.phase === PHASE.BODY) this.#owner.bodyReceived(this);
  }

  skipped() {
    this.#owner.glitch();
  }

  // The header section is decoded: the request goes on.
  headersDecoded(request) {
    this.headers = request.headers;
    this.contentLength = request.contentLength;
    this.listSize = request.listSize;
    this.phase = PHASE.BODY;
    this.#owner.bodyReceived(this);
    if (this.finReceived) this.#owner.requestEnded(this);
  }

  // ---- the send-out sink ----

  start(d, bytes, ends) {
    if (this.closed) return true;
    const section = this.#owner.encodeHeaders(this, d);
    const endNow = ends && (bytes === null || bytes.length === 0);
    const taken = this.quic.write(encodeFrame(FRAME.HEADERS, section), endNow);
    if (endNow) {
      this.#owner.finishStream(this);
      return true;
    }
    this.bodyEnded = ends;
    if (bytes === null) return taken;
    this.inCall = true;
    const all = this.#take(bytes);
    this.inCall = false;
    return all;
  }

  write(chunk) {
    if (this.closed) return true;
    this.inCall = true;
    const all = this.#take(chunk);
    this.inCall = false;
    return all;
  }

  end() {
    if (this.closed) return;
    this.quic.end();
    this.#owner.finishStream(this);
  }

  abort(err) {
    if (this.closed) return;
    this.#owner.resetStream(this, err.code === CODES.ERR_SEND_TIMEOUT ? ERROR.H3_REQUEST_CANCELLED : ERROR.H3_INTERNAL_ERROR);
  }

  listen(sending) {
    this.sending = sending;
  }

  finished(outcome) {
    this.#owner.logEnd(this, loggedStatus(this.response.status, outcome));
  }

  // The access log's client (log/access-log.js), with this.headers.
  get protocol() {
    return 'h3';
  }

  get remoteAddress() {
    return this.#owner.remoteAddress;
  }

  // The transport took our queue below its high-water mark.
  drained() {
    if (!this.waiting || this.closed) return;
    if (this.chunk !== null && !this.#pump()) return;
    this.waiting = false;
    this.sending?.progress();
    this.sending?.drain();
  }

  // True when all of chunk went out without the stream asking us to wait.
  #take(chunk) {
    if (chunk.length === 0) return true;
    this.chunk = chunk;
    this.offset = 0;
    const all = this.#pump();
    this.waiting = !all;
    return all;
  }

  #pump() {
    const chunk = this.chunk;
    while (this.offset < chunk.length) {
      const start = this.offset;
      const end = Math.min(chunk.length, start + DATA_SLICE);
      const last = this.bodyEnded && end === chunk.length;
      this.quic.write(frameHeader(FRAME.DATA, end - start));
      const more = this.quic.write(chunk.subarray(start, end), last);
      this.offset = end;
      this.sent += end - start;
      if (last) {
        // Everything is the transport's now: nothing to wait for.
        this.chunk = null;
        this.#owner.finishStream(this);
        return true;
      }
      if (!more) {
        if (end === chunk.length) this.chunk = null;
        return false;
      }
    }
    this.chunk = null;
    return true;
  }
}

module.exports = { RequestStream, PHASE };
