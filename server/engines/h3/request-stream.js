'use strict';
// One request stream (RFC 9114 4.1): the client's HEADERS, optional DATA (read and dropped:
// a static server has no use for request content), optional trailers, then FIN; and, as the
// send-out sink (../send-out.js) of its response, HEADERS, DATA and FIN on the same stream.
// Content goes out in DATA frames of at most DATA_SLICE octets, each a view of the body's
// buffer, only while the QUIC stream takes them (write() true): once it returns false the rest
// waits for ondrain, so a client that does not read pins the transport's high-water mark plus
// one slice per stream. The connection (connection.js, `owner`) decodes field sections, sends
// requests to the core and ends streams.
//
// Four lifecycles (../lifecycle.js), each changed only along its table: the request's parts
// (PART: the peer's frames are checked against it before it changes), the receiving side
// (reading until FIN, or until we stop), the sending side (open until FIN or a reset), and where
// the response stands (../response-lifecycle.js).

const { FRAME, FrameReader, frameHeader, encodeFrame } = require('./frames');
const { ERROR, ConnectionError, StreamError } = require('./errors');
const { loggedStatus } = require('../send-out');
const { CODES } = require('../../errors');
const { Lifecycle, transitions } = require('../lifecycle');
const { responseLifecycle } = require('../response-lifecycle');

const DATA_SLICE = 16 * 1024;

// Where the request is: waiting for HEADERS, for QPACK inserts its HEADERS need, reading
// content, after trailers.
const PART = Object.freeze({ HEADERS: 'headers', BLOCKED: 'headers blocked', BODY: 'content', TRAILERS: 'trailers' });
const PART_TRANSITIONS = transitions(PART, {
  headers: { [PART.HEADERS]: PART.BLOCKED },
  decoded: { [PART.BLOCKED]: PART.BODY },
  trailers: { [PART.BODY]: PART.TRAILERS },
});

// The receiving side: FIN read, or we stopped reading (reset, or answered).
const RECEIVE = Object.freeze({ READING: 'reading', ENDED: 'ended', STOPPED: 'stopped' });
const RECEIVE_TRANSITIONS = transitions(RECEIVE, {
  fin: { [RECEIVE.READING]: RECEIVE.ENDED },
  stop: { [RECEIVE.READING]: RECEIVE.STOPPED },
});

// The sending side: FIN sent (the response is the transport's), then closed with the stream;
// closed at once by a reset, ours or the connection's end.
const SEND = Object.freeze({ OPEN: 'open', FINISHED: 'finished', CLOSED: 'closed' });
const SEND_TRANSITIONS = transitions(SEND, {
  finish: { [SEND.OPEN]: SEND.FINISHED },
  close: { [SEND.OPEN]: SEND.CLOSED, [SEND.FINISHED]: SEND.CLOSED },
});

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
    const name = `http3 stream ${this.id}`;
    this.part = new Lifecycle(`${name} request`, PART_TRANSITIONS, PART.HEADERS);
    this.receiving = new Lifecycle(`${name} receiving`, RECEIVE_TRANSITIONS, RECEIVE.READING);
    this.sendingSide = new Lifecycle(`${name} sending`, SEND_TRANSITIONS, SEND.OPEN);
    this.responseLifecycle = responseLifecycle(name);
    // The request, once its HEADERS are decoded (request-headers.js).
    this.headers = null;
    this.contentLength = -1;
    this.listSize = 0;
    this.received = 0;
    this.startedAt = 0;
    // The response.
    this.response = null;
    this.sending = null;
    this.chunk = null;
    this.offset = 0;
    this.bodyEnded = false;
    this.waiting = false; // a write returned false: the sink owes send-out a drain()
    this.inCall = false;
    this.sent = 0;
  }

  // Still reading the request (no FIN yet, and we have not stopped).
  get reading() { return this.receiving.state === RECEIVE.READING; }

  // Its header section is not decoded yet (the QPACK decoder may hold it).
  get headersPending() { return this.part.state === PART.HEADERS || this.part.state === PART.BLOCKED; }

  // Neither FIN nor a reset sent: the response may still go out.
  get sendOpen() { return this.sendingSide.state === SEND.OPEN; }

  // Reset, or gone with its connection.
  get closed() { return this.sendingSide.state === SEND.CLOSED; }

  /** Where the response stands (../response-lifecycle.js RESPONSE). */
  get phase() { return this.responseLifecycle.state; }

  // Bytes of the request; throws the StreamError or ConnectionError they make.
  input(buf, fin) {
    if (!this.reading) return;
    this.#reader.push(buf, this);
    if (!fin) return;
    this.receiving.advance('fin');
    if (this.#reader.midFrame) throw new ConnectionError(ERROR.H3_FRAME_ERROR, `stream ${this.id} ends inside a frame`);
    if (this.part.state === PART.HEADERS) throw new StreamError(this.id, ERROR.H3_REQUEST_INCOMPLETE, 'request without HEADERS');
    if (this.part.state !== PART.BLOCKED) this.#owner.requestEnded(this);
  }

  // The request's input is of no more use (we reset the stream or answered it).
  stopReading() {
    this.receiving.advance('stop');
    this.#reader.stop();
  }

  // ---- frames of the request (FrameReader handler) ----

  frame(type, payload) {
    if (type !== FRAME.HEADERS) throw new ConnectionError(ERROR.H3_FRAME_UNEXPECTED, `frame 0x${type.toString(16)} on request stream ${this.id}`);
    switch (this.part.state) {
      case PART.HEADERS:
        this.part.advance('headers');
        this.#owner.decodeHeaders(this, payload);
        break;
      case PART.BODY:
        this.part.advance('trailers');
        this.#owner.decodeTrailers(this, payload);
        break;
      case PART.BLOCKED:
        // Trailers behind a section still waiting for its inserts: the client may retry.
        throw new StreamError(this.id, ERROR.H3_REQUEST_REJECTED, 'trailers while the header section waits for QPACK inserts');
      default:
        throw new ConnectionError(ERROR.H3_FRAME_UNEXPECTED, `HEADERS after trailers on stream ${this.id}`);
    }
  }

  dataStart(length) {
    const part = this.part.state;
    if (part === PART.HEADERS || part === PART.TRAILERS) {
      throw new ConnectionError(ERROR.H3_FRAME_UNEXPECTED, `DATA ${part === PART.HEADERS ? 'before HEADERS' : 'after trailers'} on stream ${this.id}`);
    }
    if (length === 0) this.#owner.glitch();
  }

  data(piece) {
    this.received += piece.length;
    if (this.part.state === PART.BODY) this.#owner.bodyReceived(this);
  }

  skipped() {
    this.#owner.glitch();
  }

  // The header section is decoded: the request goes on.
  headersDecoded(request) {
    this.headers = request.headers;
    this.contentLength = request.contentLength;
    this.listSize = request.listSize;
    this.part.advance('decoded');
    this.#owner.bodyReceived(this);
    if (this.receiving.state === RECEIVE.ENDED) this.#owner.requestEnded(this);
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
    this.responseLifecycle.advance('finish');
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

module.exports = { RequestStream };
