'use strict';
// One HTTP/2 connection (RFC 9113) over a TLS socket, its input half: frames in (a handler per
// frame type), request header blocks decoded with one HPACK Decoder, requests handed to the
// core, and the life of its streams (stream.js) and of the connection. Responses go out
// through the output half (output.js): the sink, DATA scheduling and flushing. Emits 'close'
// once the socket is closed.

const EventEmitter = require('node:events');
const { Decoder } = require('../hpack-addon').hpack();
const { FrameReader } = require('./frame-reader');
const { FRAME, FLAG, DEFAULT_MAX_FRAME_SIZE, DEFAULT_WINDOW_SIZE } = require('./frame-types');
const { ERROR, ConnectionError, StreamError, errorName } = require('./errors');
const { defaultPeerSettings, encodeSettings, applyPeerSettings } = require('./settings');
const {
  decodeDataPayload, decodeHeadersPayload, decodePriorityPayload, decodeRstStreamPayload,
  decodeSettingsPayload, decodePingPayload, decodeGoawayPayload, decodeWindowUpdatePayload,
} = require('./frame-payloads');
const { readRequestHeaders, checkTrailers } = require('./request-headers');
const { RequestCache } = require('./request-cache');
const { ReceiveWindow, grow } = require('./flow-control');
const { FloodGuard } = require('./flood-guard');
const { IdleTimer } = require('./idle-timer');
const { Stream } = require('./stream');
const { RESPONSE } = require('../response-lifecycle');
const { Http2Output } = require('./output');
const { NO_METRICS } = require('../../metrics/recorder');
const { LINGER_MS, HTTP2_FLOOD, HEADER_LIST_HARD_FACTOR, REQUEST_BODY_LIMIT } = require('../../config/limits');
const { StreamDispatch } = require('../stream-dispatch');
const { isRenegotiation } = require('../tls-renegotiation');

// A header block split over more frames than this is a CONTINUATION flood (CVE-2024-27316).
const MAX_HEADER_FRAGMENTS = 64;
// Closed streams remembered, to tell a frame on a closed stream (STREAM_CLOSED, or ignored
// after our RST_STREAM: 5.1) from one on a stream that was never opened (PROTOCOL_ERROR).
const RECENTLY_CLOSED = 256;
const UNKNOWN = 0;
const CLOSED = 1;
const CLOSED_BY_OUR_RESET = 2;

class Http2Connection extends EventEmitter {
  #socket;
  #core;
  #log;
  #timeouts;
  #maxHeaderListSize;
  #maxConcurrentStreams;
  #reader = new FrameReader(DEFAULT_MAX_FRAME_SIZE);
  #output;
  #decoder;
  #requests = new RequestCache();
  #peer = defaultPeerSettings();
  #streams = new Map();
  // Ring of the last RECENTLY_CLOSED closed stream ids; the sign says we reset it.
  #recentlyClosed = new Int32Array(RECENTLY_CLOSED);
  #recentlyClosedNext = 0;
  #lastStreamId = 0;
  // The highest stream we reset while it was idle (a malformed PRIORITY): its HEADERS, when
  // they come, are ignored like any frame after our RST_STREAM (5.1).
  #highestIdleReset = 0;
  #receiveWindow = new ReceiveWindow(DEFAULT_WINDOW_SIZE);
  #continuation = null; // { id, flags, fragments, size, priorityError } until END_HEADERS
  #settingsReceived = false;
  #goawaySent = false;
  #goawayLastId = 0;
  #peerGoaway = false;
  #ended = false; // our side is done: GOAWAY sent after a connection error or the last stream
  #closed = false;
  #controlGuard;
  #resetGuard;
  #glitchGuard;
  #prefaceTimer;
  #idle;
  #meter;
  #answers; // StreamDispatch: requests to the core, responses out, access-log lines

  // ctx: { core, log, timeouts, isClosing, settings: { maxConcurrentStreams, maxHeaderListSize },
  //        now (optional: the flood limits' monotonic clock in ms; tests pass their own),
  //        metrics (server/metrics/recorder.js; none: NO_METRICS) }
  constructor(socket, ctx) {
    super();
    const clock = ctx.now === undefined ? {} : { now: ctx.now };
    this.#controlGuard = new FloodGuard(HTTP2_FLOOD.control.burst, HTTP2_FLOOD.control.perSecond, clock);
    this.#resetGuard = new FloodGuard(HTTP2_FLOOD.reset.burst, HTTP2_FLOOD.reset.perSecond, clock);
    this.#glitchGuard = new FloodGuard(HTTP2_FLOOD.glitch.burst, HTTP2_FLOOD.glitch.perSecond, clock);
    this.#socket = socket;
    this.#core = ctx.core;
    this.#log = ctx.log;
    this.#timeouts = ctx.timeouts;
    this.#meter = (ctx.metrics ?? NO_METRICS).h2;
    this.#maxHeaderListSize = ctx.settings.maxHeaderListSize;
    this.#maxConcurrentStreams = ctx.settings.maxConcurrentStreams;
    this.#answers = new StreamDispatch({
      core: this.#core, log: this.#log, timeouts: this.#timeouts, meter: this.#meter, connection: this,
      maxHeaderListSize: this.#maxHeaderListSize,
      ended: () => this.#ended,
      internalError: (stream) => this.#resetStream(stream.id, ERROR.INTERNAL_ERROR),
      lengthError: (stream, message) => new StreamError(stream.id, ERROR.PROTOCOL_ERROR, message),
    });
    const hardLimit = this.#maxHeaderListSize * HEADER_LIST_HARD_FACTOR;
    this.#decoder = new Decoder({ maxHeaderListSize: hardLimit, maxStringLength: hardLimit });
    this.#output = new Http2Output(socket, {
      peer: this.#peer,
      log: this.#log,
      owner: {
        finishStream: (stream) => this.#finishStream(stream),
        resetStream: (id, code) => this.#resetStream(id, code),
        logEnd: (stream, status) => this.#answers.logEnd(stream, status),
        ended: () => this.#ended,
        touch: () => this.#touch(),
        internalError: (err) => this.#internalError(err),
      },
    });

    socket.on('data', (chunk) => this.#onData(chunk));
    socket.on('error', (err) => this.#onSocketError(err));
    socket.once('close', () => this.#onClose());
    this.#prefaceTimer = setTimeout(() => socket.destroy(), this.#timeouts.headersTimeout).unref();
    const { idleTimeout, http2IdleTimeout } = this.#timeouts;
    this.#idle = new IdleTimer(Math.min(idleTimeout, http2IdleTimeout),
      () => (this.#streams.size === 0 ? http2IdleTimeout : idleTimeout), (quiet) => this.#onTimeout(quiet));

    this.#output.frame(FRAME.SETTINGS, 0, 0, encodeSettings(ctx.settings));
    this.#output.flush();
    if (ctx.isClosing()) this.close();
  }

  // Graceful: GOAWAY with the last stream we accepted; those streams finish, then the socket
  // closes. Requests the peer sent after it are ignored (it may retry them elsewhere).
  close() {
    if (this.#goawaySent || this.#closed) return;
    this.#goaway(ERROR.NO_ERROR, '');
    this.#output.flush();
    if (this.#streams.size === 0) this.#end();
  }

  destroy() {
    this.#socket.destroy();
  }

  // RFC 9113 9.2.1: a TLS 1.2 renegotiation is a connection error (tls-renegotiation.js);
  // Node leaves the socket open after it.
  #onSocketError(err) {
    this.#log.debug(`http2 socket error: ${err.message}`);
    if (isRenegotiation(err)) this.#fail(new ConnectionError(ERROR.PROTOCOL_ERROR, 'TLS renegotiation'));
  }

  #onData(chunk) {
    this.#touch();
    if (this.#ended) return;
    try {
      this.#reader.push(chunk, this.#onFrame);
    } catch (err) {
      this.#fail(err);
    }
    // Everything this read produced goes out in one write.
    this.#output.flush();
  }

  #onFrame = (type, flags, id, payload) => {
    try {
      if (this.#continuation !== null && type !== FRAME.CONTINUATION) {
        throw new ConnectionError(ERROR.PROTOCOL_ERROR, 'frame other than CONTINUATION inside a header block');
      }
      if (!this.#settingsReceived && type !== FRAME.SETTINGS) {
        throw new ConnectionError(ERROR.PROTOCOL_ERROR, 'preface not followed by SETTINGS');
      }
      switch (type) {
        case FRAME.DATA: this.#onDataFrame(flags, id, payload); break;
        case FRAME.HEADERS: this.#onHeaders(flags, id, payload); break;
        case FRAME.PRIORITY: this.#onPriority(id, payload); break;
        case FRAME.RST_STREAM: this.#onRstStream(id, payload); break;
        case FRAME.SETTINGS: this.#onSettings(flags, id, payload); break;
        case FRAME.PUSH_PROMISE: throw new ConnectionError(ERROR.PROTOCOL_ERROR, 'PUSH_PROMISE from a client');
        case FRAME.PING: this.#onPing(flags, id, payload); break;
        case FRAME.GOAWAY: this.#onGoaway(id, payload); break;
        case FRAME.WINDOW_UPDATE: this.#onWindowUpdate(id, payload); break;
        case FRAME.CONTINUATION: this.#onContinuation(flags, id, payload); break;
        default: break; // 5.5: unknown frame types are ignored
      }
    } catch (err) {
      this.#fail(err);
    }
    return !this.#ended;
  };

  // The one place a protocol error becomes a frame: whatever the input half throws, a
  // StreamError resets its stream, a ConnectionError ends the connection with GOAWAY, and
  // anything else is a bug of ours that costs this connection, not the process.
  #fail(err) {
    if (err instanceof StreamError) {
      this.#log.debug(`http2 ${err.message}`);
      this.#resetStream(err.streamId, err.code);
      // Each costs us a RST_STREAM and maybe a response begun in vain.
      if (!this.#resetGuard.take()) this.#connectionError(new ConnectionError(ERROR.ENHANCE_YOUR_CALM, 'too many stream errors'));
    } else if (err instanceof ConnectionError) {
      this.#connectionError(err);
    } else {
      this.#internalError(err);
    }
  }

  #onDataFrame(flags, id, payload) {
    const { length } = decodeDataPayload(flags, payload, id).data;
    // The whole frame counts against the connection window, whatever becomes of the stream (6.9).
    if (!this.#receiveWindow.consume(payload.length)) {
      throw new ConnectionError(ERROR.FLOW_CONTROL_ERROR, 'DATA beyond the connection window');
    }
    const increment = this.#receiveWindow.refill();
    if (increment !== 0) this.#output.frameUint32(FRAME.WINDOW_UPDATE, 0, 0, increment);
    const endStream = (flags & FLAG.END_STREAM) !== 0;
    if (length === 0 && !endStream) this.#control();
    const stream = this.#streams.get(id);
    if (stream === undefined) {
      this.#onClosedStreamFrame(id, 'DATA');
      return;
    }
    if (stream.remoteEnded) throw new StreamError(id, ERROR.STREAM_CLOSED, 'DATA after END_STREAM');
    stream.receiveWindow ??= new ReceiveWindow(DEFAULT_WINDOW_SIZE);
    if (!stream.receiveWindow.consume(payload.length)) {
      throw new StreamError(id, ERROR.FLOW_CONTROL_ERROR, 'DATA beyond the stream window');
    }
    stream.received += length;
    this.#answers.bodyReceived(stream);
    if (endStream) {
      this.#endRequest(stream);
    } else if (stream.phase === RESPONSE.WAITING) {
      if (stream.received > REQUEST_BODY_LIMIT) {
        this.#answers.dispatch(stream);
        return;
      }
      const streamIncrement = stream.receiveWindow.refill();
      if (streamIncrement !== 0) this.#output.frameUint32(FRAME.WINDOW_UPDATE, 0, id, streamIncrement);
    }
  }

  // A frame for a stream not open now: never opened (PROTOCOL_ERROR, 5.1), reset by us
  // (ignored: it may have crossed our RST_STREAM) or closed otherwise (STREAM_CLOSED).
  #onClosedStreamFrame(id, what) {
    if (id > this.#lastStreamId) throw new ConnectionError(ERROR.PROTOCOL_ERROR, `${what} on idle stream ${id}`);
    if (this.#closedHow(id) === CLOSED_BY_OUR_RESET) {
      this.#glitch();
      return;
    }
    throw new StreamError(id, ERROR.STREAM_CLOSED, `${what} on a closed stream`);
  }

  #onHeaders(flags, id, payload) {
    const { fragment, error: priorityError } = decodeHeadersPayload(flags, payload, id);
    if (flags & FLAG.END_HEADERS) {
      this.#onHeaderBlock(id, flags, fragment, priorityError);
      return;
    }
    if (fragment.length === 0) this.#control();
    this.#continuation = { id, flags, fragments: [fragment], size: fragment.length, priorityError };
  }

  #onContinuation(flags, id, payload) {
    const pending = this.#continuation;
    if (pending === null || pending.id !== id) throw new ConnectionError(ERROR.PROTOCOL_ERROR, `unexpected CONTINUATION on stream ${id}`);
    pending.fragments.push(payload);
    pending.size += payload.length;
    if (pending.size > this.#maxHeaderListSize * HEADER_LIST_HARD_FACTOR || pending.fragments.length > MAX_HEADER_FRAGMENTS) {
      throw new ConnectionError(ERROR.ENHANCE_YOUR_CALM, 'header block too large');
    }
    if (!(flags & FLAG.END_HEADERS)) {
      if (payload.length === 0) this.#control();
      return;
    }
    this.#continuation = null;
    this.#onHeaderBlock(id, pending.flags, Buffer.concat(pending.fragments, pending.size), pending.priorityError);
  }

  // priorityError: the stream error of the HEADERS' priority fields, or null.
  #onHeaderBlock(id, flags, block, priorityError) {
    const endStream = (flags & FLAG.END_STREAM) !== 0;
    // Ignored after our RST_STREAM (5.1), yet decoded like any block: counted, since decoding costs.
    const afterOurReset = !this.#streams.has(id) && id <= Math.max(this.#lastStreamId, this.#highestIdleReset)
      && this.#closedHow(id) === CLOSED_BY_OUR_RESET;
    if (afterOurReset) this.#glitch();
    if (id <= this.#lastStreamId) {
      const fields = this.#decode(block);
      this.#requests.decoded(block, null);
      this.#onLaterHeaders(id, endStream, fields, priorityError);
      return;
    }
    // Decoded whatever becomes of the stream: the HPACK state must stay in sync. A block seen
    // before (request-cache.js) is neither decoded nor validated again.
    let request = this.#requests.get(block);
    const fields = request === undefined ? this.#decode(block) : null;
    this.#lastStreamId = id;
    try {
      if (afterOurReset) return;
      if (this.#goawaySent) {
        // Past our GOAWAY: ignored, as the peer was told (6.8).
        this.#rememberClosed(id, true);
        return;
      }
      if (priorityError !== null) throw priorityError;
      if (this.#streams.size >= this.#maxConcurrentStreams) {
        throw new StreamError(id, ERROR.REFUSED_STREAM, 'too many concurrent streams');
      }
      if (request === undefined) {
        request = readRequestHeaders(id, fields);
        // It may serve later streams.
        Object.freeze(request.headers);
      }
    } finally {
      if (fields !== null) this.#requests.decoded(block, request ?? null);
    }
    const stream = new Stream(id, this.#peer.initialWindowSize, this.#output.sink, request);
    this.#streams.set(id, stream);
    this.#idle.touch();
    if (endStream) this.#endRequest(stream);
  }

  #decode(block) {
    try {
      return this.#decoder.decode(block);
    } catch (err) {
      throw new ConnectionError(ERROR.COMPRESSION_ERROR, `header block: ${err.code || err.message}`);
    }
  }

  // HEADERS on a stream already used: trailers, or an error.
  #onLaterHeaders(id, endStream, fields, priorityError) {
    const stream = this.#streams.get(id);
    if (stream === undefined) {
      const how = this.#closedHow(id);
      if (how === CLOSED_BY_OUR_RESET) return;
      if (how === CLOSED) throw new ConnectionError(ERROR.STREAM_CLOSED, `HEADERS on closed stream ${id}`);
      throw new ConnectionError(ERROR.PROTOCOL_ERROR, `HEADERS on stream ${id}, below the last one opened`);
    }
    if (stream.remoteEnded) throw new StreamError(id, ERROR.STREAM_CLOSED, 'HEADERS after END_STREAM');
    if (priorityError !== null) throw priorityError;
    checkTrailers(id, fields, endStream);
    this.#endRequest(stream);
  }

  // The request is complete (half-closed remote): check its length and answer it.
  #endRequest(stream) {
    stream.lifecycle.advance('recvEndStream');
    this.#answers.requestEnded(stream);
  }

  #onPriority(id, payload) {
    // No priority tree is kept (5.3.2 deprecates the scheme), so PRIORITY frames cost next to
    // nothing (CVE-2019-9513); only their errors count.
    const { error: problem } = decodePriorityPayload(payload, id);
    // A stream we reset gets no second RST_STREAM: frames after ours are ignored (5.1).
    if (problem === null) return;
    if (this.#closedHow(id) !== CLOSED_BY_OUR_RESET) throw problem;
    this.#glitch();
  }

  #onRstStream(id, payload) {
    const { errorCode } = decodeRstStreamPayload(payload, id);
    if (id > this.#lastStreamId) throw new ConnectionError(ERROR.PROTOCOL_ERROR, `RST_STREAM on idle stream ${id}`);
    const stream = this.#streams.get(id);
    if (stream === undefined) return;
    if (!this.#resetGuard.take()) throw new ConnectionError(ERROR.ENHANCE_YOUR_CALM, 'too many streams reset');
    const outcome = `reset by peer (${errorName(errorCode)})`;
    // A response being sent is logged by send-out when it gives up; any other is logged here.
    if (stream.phase !== RESPONSE.SENDING) this.#answers.logEnd(stream, `${stream.response ? stream.response.status : '-'} ${outcome}`);
    this.#closeStream(stream, false, outcome);
  }

  #onSettings(flags, id, payload) {
    if (decodeSettingsPayload(flags, payload, id).ack) return;
    if (!this.#settingsReceived) {
      this.#settingsReceived = true;
      clearTimeout(this.#prefaceTimer);
    } else {
      this.#control();
    }
    const delta = applyPeerSettings(payload, this.#peer, (size) => this.#output.setPeerTableSize(size));
    this.#output.frame(FRAME.SETTINGS, FLAG.ACK, 0);
    if (delta === 0) return;
    for (const stream of this.#streams.values()) {
      const window = grow(stream.sendWindow, delta);
      if (window === null) throw new ConnectionError(ERROR.FLOW_CONTROL_ERROR, 'SETTINGS_INITIAL_WINDOW_SIZE overflows a stream window');
      stream.sendWindow = window;
    }
    if (delta > 0) for (const stream of this.#streams.values()) this.#output.wake(stream);
  }

  #onPing(flags, id, payload) {
    const { ack, data } = decodePingPayload(flags, payload, id);
    if (ack) return;
    this.#control();
    this.#output.frame(FRAME.PING, FLAG.ACK, 0, data);
  }

  #onGoaway(id, payload) {
    decodeGoawayPayload(payload, id);
    // The client opens no more streams; the ones in flight are still answered.
    this.#peerGoaway = true;
    if (this.#streams.size === 0) this.#goawayAndEnd();
  }

  #onWindowUpdate(id, payload) {
    const { increment, error } = decodeWindowUpdatePayload(payload, id);
    if (id === 0) {
      const window = grow(this.#output.window, increment);
      if (window === null) throw new ConnectionError(ERROR.FLOW_CONTROL_ERROR, 'connection window over 2^31-1');
      this.#output.window = window;
      return;
    }
    const stream = this.#streams.get(id);
    if (stream === undefined) {
      // Allowed on a closed stream (it may cross our END_STREAM), an error on an idle one.
      if (id > this.#lastStreamId) throw new ConnectionError(ERROR.PROTOCOL_ERROR, `WINDOW_UPDATE on idle stream ${id}`);
      return;
    }
    if (error !== null) throw error;
    const window = grow(stream.sendWindow, increment);
    if (window === null) throw new StreamError(id, ERROR.FLOW_CONTROL_ERROR, 'stream window over 2^31-1');
    stream.sendWindow = window;
    this.#output.wake(stream);
  }

  #control() {
    if (!this.#controlGuard.take()) throw new ConnectionError(ERROR.ENHANCE_YOUR_CALM, 'control frame flood');
  }

  // A frame ignored because it came after our RST_STREAM.
  #glitch() {
    if (!this.#glitchGuard.take()) throw new ConnectionError(ERROR.ENHANCE_YOUR_CALM, 'too many frames on streams we reset');
  }

  // ---- responses ----

  // The response went out whole (END_STREAM sent). A request body still coming is cut off.
  #finishStream(stream) {
    stream.lifecycle.advance('sendEndStream');
    if (stream.closed) this.#closeStream(stream, false, null);
    else this.#resetStream(stream.id, ERROR.NO_ERROR, null);
    if (!stream.inCall) stream.sending.drain();
  }

  // ---- stream and connection ends ----

  // outcome: why a response still going out is given up (for its access-log line); null when
  // it went out whole.
  #resetStream(id, code, outcome = 'aborted') {
    this.#output.frameUint32(FRAME.RST_STREAM, 0, id, code);
    const stream = this.#streams.get(id);
    if (stream !== undefined) {
      this.#closeStream(stream, true, outcome);
      return;
    }
    this.#rememberClosed(id, true);
    if (id > this.#lastStreamId) this.#highestIdleReset = Math.max(this.#highestIdleReset, id);
  }

  // Closed by END_STREAM both ways (already in state closed) or by a reset either way.
  #closeStream(stream, resetByUs, outcome) {
    if (this.#streams.get(stream.id) !== stream) return;
    if (!stream.closed) stream.lifecycle.advance('reset');
    this.#streams.delete(stream.id);
    this.#output.drop(stream);
    this.#rememberClosed(stream.id, resetByUs);
    stream.chunk = null;
    if (outcome !== null && stream.sending !== null) stream.sending.close(outcome);
    if (this.#streams.size === 0 && !this.#ended && (this.#goawaySent || this.#peerGoaway)) this.#goawayAndEnd();
  }

  #rememberClosed(id, resetByUs) {
    this.#recentlyClosed[this.#recentlyClosedNext] = resetByUs ? -id : id;
    this.#recentlyClosedNext = (this.#recentlyClosedNext + 1) % RECENTLY_CLOSED;
  }

  // Only asked about frames on streams that are not open, which well-behaved peers rarely send.
  // Newest first: a stream closed, then reset by us for a frame on it, is in the ring twice,
  // and the reset is what counts.
  #closedHow(id) {
    for (let n = 1; n <= RECENTLY_CLOSED; n++) {
      const entry = this.#recentlyClosed[(this.#recentlyClosedNext - n + RECENTLY_CLOSED) % RECENTLY_CLOSED];
      if (entry === id) return CLOSED;
      if (entry === -id) return CLOSED_BY_OUR_RESET;
    }
    return UNKNOWN;
  }

  // A later GOAWAY (an error after a graceful one) repeats the first one's last stream.
  #goaway(code, message) {
    if (!this.#goawaySent) this.#goawayLastId = this.#lastStreamId;
    this.#goawaySent = true;
    const debug = Buffer.from(message.slice(0, 256), 'latin1');
    const payload = Buffer.allocUnsafe(8 + debug.length);
    payload.writeUInt32BE(this.#goawayLastId, 0);
    payload.writeUInt32BE(code, 4);
    debug.copy(payload, 8);
    this.#output.frame(FRAME.GOAWAY, 0, 0, payload);
  }

  // Done without error: the last stream ended after a GOAWAY from either side, or idle.
  #goawayAndEnd(message = '') {
    if (!this.#goawaySent) this.#goaway(ERROR.NO_ERROR, message);
    this.#end();
  }

  #connectionError(err) {
    if (this.#ended) return;
    this.#log.debug(`http2 connection error: ${err.message}`);
    if (err.code === ERROR.ENHANCE_YOUR_CALM) this.#meter.floodClosed();
    this.#goaway(err.code, err.message);
    this.#ended = true;
    this.#abortStreams();
    this.#closeSocket();
  }

  // A bug of ours must cost this connection, not the process.
  #internalError(err) {
    this.#log.error(`http2 internal error: ${err.stack || err}`);
    this.#connectionError(new ConnectionError(ERROR.INTERNAL_ERROR, 'internal error'));
  }

  #abortStreams() {
    for (const stream of [...this.#streams.values()]) this.#closeStream(stream, true, 'aborted');
  }

  #end() {
    if (this.#ended) return;
    this.#ended = true;
    this.#closeSocket();
  }

  // Sends what is queued and closes our side. Once all of it is written the peer has
  // LINGER_MS to close its side; a peer that stops reading meets the idle timeout instead.
  #closeSocket() {
    this.#continuation = null;
    this.#output.flush();
    const socket = this.#socket;
    socket.end();
    // Keep reading (and discarding) so that unread input does not turn our close into a TCP
    // reset that could destroy the GOAWAY before the peer reads it.
    socket.resume();
    socket.once('finish', () => setTimeout(() => socket.destroy(), LINGER_MS).unref());
  }

  // Activity for the idle timer: with a stream open, bytes in either direction; with none, only
  // a request (a stream opened). PING, SETTINGS, WINDOW_UPDATE and their answers keep no
  // connection without requests open, nor does a frame trickled a byte at a time.
  #touch() {
    if (this.#streams.size > 0) this.#idle.touch();
  }

  // How long (ms) the connection has had no stream open and no request; -1 while it has one or
  // is closing. Under descriptor pressure the listener closes the longest idle first.
  idleMs() {
    return this.#streams.size === 0 && !this.#goawaySent && !this.#ended ? this.#idle.quiet : -1;
  }

  // Nothing moved for the limit in force (idle-timer.js, #touch()); a connection that
  // went idle gets GOAWAY, and is destroyed if it is still there at the next expiry.
  #onTimeout(quiet) {
    if (this.#streams.size === 0 && !this.#ended) {
      this.#goawayAndEnd('idle');
      return;
    }
    this.#log.debug(`http2: no progress for ${quiet} ms, ${this.#streams.size} stream(s) open`);
    this.#socket.destroy();
  }

  #onClose() {
    this.#closed = true;
    this.#ended = true;
    clearTimeout(this.#prefaceTimer);
    this.#idle.stop();
    this.#abortStreams();
    this.emit('close');
  }
}

module.exports = { Http2Connection };
