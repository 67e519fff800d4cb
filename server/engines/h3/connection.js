'use strict';
// One HTTP/3 connection (RFC 9114) over a QUIC connection of native/quic.js (the interface in
// docs/http3.md): our control stream with SETTINGS and our QPACK encoder and decoder streams
// opened first; the peer's unidirectional streams by type (6.2); its request streams
// (request-stream.js) decoded with one QpackDecoder, handed to the core like HTTP/2's and
// answered through send-out with the stream as the sink; and the connection's end: GOAWAY on a
// graceful close, CONNECTION_CLOSE with the code of a connection error. Emits 'close' once the
// QUIC connection is gone.

const EventEmitter = require('node:events');
const { QpackDecoder } = require('../../../native/qpack');
const { FRAME, encodeFrame } = require('./frames');
const { encodeVarint, readVarint } = require('./varint');
const { encodeSettings } = require('./settings');
const { ERROR, ConnectionError, StreamError, errorName } = require('./errors');
const { PeerControl } = require('./control-stream');
const { RequestStream } = require('./request-stream');
const { RESPONSE } = require('../response-lifecycle');
const { ResponseFields } = require('./response-fields');
const { readRequest, checkRequestTrailers } = require('./request-headers');
const { FloodGuard } = require('../h2/flood-guard');
const { StreamDispatch } = require('../stream-dispatch');
const { CODES } = require('../../errors');
const { NO_METRICS } = require('../../metrics/recorder');
const { HTTP3, HEADER_LIST_HARD_FACTOR, REQUEST_BODY_LIMIT } = require('../../config/limits');

// Unidirectional stream types (6.2, RFC 9204 4.2).
const UNI = { CONTROL: 0x00, PUSH: 0x01, ENCODER: 0x02, DECODER: 0x03 };
const CRITICAL = new Map([[UNI.CONTROL, 'control'], [UNI.ENCODER, 'QPACK encoder'], [UNI.DECODER, 'QPACK decoder']]);
// The QPACK codec's stream ids are 32-bit (native/qpack.js): a client bidirectional stream past
// them (a billion requests on one connection) is refused.
const MAX_QPACK_STREAM_ID = 0xffffffff;

class Http3Connection extends EventEmitter {
  #quic;
  #log;
  #limits;
  #metrics;
  #meter;
  #guard;
  #decoder;
  #decoderMeter;
  #fields;
  #answers; // StreamDispatch: requests to the core, responses out, access-log lines
  #control = null; // our control stream
  #encoderStream = null;
  #decoderStream = null;
  #peerStreams = new Map(); // type -> the peer's critical stream of that type
  #streams = new Map(); // id -> RequestStream, while its request or response is going on
  #nextRequestId = 0; // one past the highest client request stream id seen
  #goawaySent = false;
  #goawayId = 0;
  #peerGoaway = false;
  #ended = false;

  // ctx: { core, log, timeouts, isClosing, metrics, limits (config/limits.js HTTP3; tests
  // pass smaller ones), now (the flood guard's clock, for tests) }.
  constructor(quic, ctx) {
    super();
    this.#quic = quic;
    this.#log = ctx.log;
    this.#limits = ctx.limits ?? HTTP3;
    this.#metrics = ctx.metrics ?? NO_METRICS;
    this.#meter = this.#metrics.h3;
    this.#answers = new StreamDispatch({
      core: ctx.core, log: ctx.log, timeouts: ctx.timeouts, meter: this.#meter, connection: this,
      maxHeaderListSize: this.#limits.settings.maxFieldSectionSize,
      ended: () => this.#ended,
      internalError: (stream) => this.#resetStream(stream, ERROR.H3_INTERNAL_ERROR),
      lengthError: (stream, message) => new StreamError(stream.id, ERROR.H3_MESSAGE_ERROR, message),
    });
    const { settings, flood, blockedBytes } = this.#limits;
    this.#guard = new FloodGuard(flood.burst, flood.perSecond, ctx.now === undefined ? {} : { now: ctx.now });
    this.#decoder = new QpackDecoder({
      maxTableCapacity: settings.qpackMaxTableCapacity,
      maxBlockedStreams: settings.qpackBlockedStreams,
      maxFieldSectionSize: settings.maxFieldSectionSize * HEADER_LIST_HARD_FACTOR,
      maxBlockedBytes: blockedBytes,
    });
    this.#decoderMeter = this.#metrics.qpackDecoder();
    this.#fields = new ResponseFields(settings);
    this.#owner.remoteAddress = quic.remoteAddress;
    quic.onstream = (stream) => this.#guarded(() => this.#onStream(stream));
    quic.onclose = (info) => this.#onClose(info);
    this.#guarded(() => {
      this.#control = this.#openUni(UNI.CONTROL, encodeFrame(FRAME.SETTINGS, encodeSettings(settings)));
      this.#encoderStream = this.#openUni(UNI.ENCODER);
      this.#decoderStream = this.#openUni(UNI.DECODER);
    });
    if (ctx.isClosing()) this.close();
  }

  get alpnProtocol() {
    return 'h3';
  }

  get remoteAddress() {
    return this.#quic.remoteAddress;
  }

  // Graceful (5.2): GOAWAY naming the first request we will not process; those before it
  // finish, then the connection closes with H3_NO_ERROR.
  close() {
    if (this.#goawaySent || this.#ended) return;
    this.#goawaySent = true;
    this.#goawayId = this.#nextRequestId;
    this.#guarded(() => this.#control.write(encodeFrame(FRAME.GOAWAY, encodeVarint(this.#goawayId))));
    if (this.#streams.size === 0) this.#end();
  }

  destroy() {
    this.#closeQuic(ERROR.H3_NO_ERROR, 'shutdown');
  }

  #openUni(type, first = null) {
    const stream = this.#quic.openUniStream();
    const typeByte = encodeVarint(type);
    stream.write(first === null ? typeByte : Buffer.concat([typeByte, first]));
    return stream;
  }

  // Runs fn; what it throws becomes the error it stands for (see #fail).
  #guarded(fn) {
    try {
      fn();
    } catch (err) {
      this.#fail(err);
    }
  }

  // The one place a protocol error becomes an action: a StreamError resets its request
  // stream, a ConnectionError (or a QPACK error with its h3Code) closes the connection, and
  // anything else is a bug of ours that costs this connection, not the process.
  #fail(err) {
    if (this.#ended) return;
    if (err instanceof StreamError) {
      this.#log.debug(`http3 ${err.message}`);
      const stream = this.#streams.get(err.streamId);
      if (stream !== undefined) this.#resetStream(stream, err.code);
      this.#glitch();
    } else if (err instanceof ConnectionError) {
      this.#connectionError(err);
    } else if (err.h3Code !== undefined) {
      this.#connectionError(new ConnectionError(err.h3Code, err.message));
    } else if (err.code === CODES.ERR_QPACK_FIELD_SECTION_TOO_LARGE || err.code === CODES.ERR_QPACK_BLOCKED_TOO_LARGE) {
      this.#connectionError(new ConnectionError(ERROR.H3_EXCESSIVE_LOAD, err.message));
    } else {
      this.#log.error(`http3 internal error: ${err.stack || err}`);
      this.#connectionError(new ConnectionError(ERROR.H3_INTERNAL_ERROR, 'internal error'));
    }
  }

  #connectionError(err) {
    this.#log.debug(`http3 connection error: ${err.message}`);
    if (err.code === ERROR.H3_EXCESSIVE_LOAD) this.#meter.floodClosed();
    this.#closeQuic(err.code, err.message);
  }

  // Junk that costs us (streams reset or refused, unknown frames and streams, empty DATA):
  // past the budget the connection closes.
  #glitch() {
    if (!this.#guard.take()) throw new ConnectionError(ERROR.H3_EXCESSIVE_LOAD, 'too many reset streams or ignored frames');
  }

  // ---- streams the peer opens ----

  #onStream(quic) {
    if (this.#ended) return;
    if (!quic.bidi) {
      this.#onUniStream(quic);
      return;
    }
    const id = quic.id;
    // 6.1: clients open client-initiated bidirectional streams (id % 4 === 0) only.
    if (id % 4 !== 0) throw new ConnectionError(ERROR.H3_STREAM_CREATION_ERROR, `bidirectional stream ${id} not a client request stream`);
    this.#nextRequestId = Math.max(this.#nextRequestId, id + 4);
    const refuse = (why) => {
      quic.ondata = () => {};
      quic.stopSending(ERROR.H3_REQUEST_REJECTED);
      quic.reset(ERROR.H3_REQUEST_REJECTED);
      this.#log.debug(`http3 stream ${id} refused: ${why}`);
      this.#glitch();
    };
    if (this.#goawaySent && id >= this.#goawayId) return refuse('after GOAWAY');
    if (this.#streams.size >= this.#limits.maxRequests) return refuse('too many requests at once');
    if (id > MAX_QPACK_STREAM_ID) return refuse('stream id past 2^32');
    const headersMax = this.#limits.settings.maxFieldSectionSize * HEADER_LIST_HARD_FACTOR;
    const stream = new RequestStream(quic, this.#owner, headersMax);
    this.#streams.set(id, stream);
    quic.ondata = (buf, fin) => this.#guarded(() => stream.input(buf, fin));
    quic.ondrain = () => this.#guarded(() => stream.drained());
    quic.onreset = (code) => this.#guarded(() => this.#onPeerReset(stream, code));
    quic.onstopsending = (code) => this.#guarded(() => this.#onStopSending(stream, code));
    quic.onclose = () => this.#streamGone(stream);
  }

  #onUniStream(quic) {
    let head = null;
    let reader = null;
    quic.ondata = (buf, fin) => this.#guarded(() => {
      if (reader === null) {
        head = head === null ? buf : Buffer.concat([head, buf]);
        const type = readVarint(head, 0);
        if (type === null) return;
        reader = this.#uniReader(quic, type.value);
        buf = head.subarray(type.length);
        head = null;
      }
      reader(buf);
      if (fin) this.#uniEnded(quic, reader);
    });
    quic.onreset = () => this.#guarded(() => this.#uniEnded(quic, reader));
  }

  // The function that takes the bytes of the peer's unidirectional stream of this type.
  #uniReader(quic, type) {
    if (type === UNI.PUSH) throw new ConnectionError(ERROR.H3_STREAM_CREATION_ERROR, 'push stream from a client');
    if (!CRITICAL.has(type)) {
      // 6.2: unknown types are ignored; we ask the peer to stop sending them.
      this.#glitch();
      quic.stopSending(ERROR.H3_STREAM_CREATION_ERROR);
      return () => {};
    }
    if (this.#peerStreams.has(type)) throw new ConnectionError(ERROR.H3_STREAM_CREATION_ERROR, `second ${CRITICAL.get(type)} stream`);
    this.#peerStreams.set(type, quic);
    if (type === UNI.CONTROL) {
      const control = new PeerControl(this.#owner, this.#limits.controlFrameMax);
      return (buf) => control.push(buf);
    }
    if (type === UNI.ENCODER) return (buf) => this.#onEncoderStream(buf);
    return (buf) => this.#fields.decoderStream(buf);
  }

  #uniEnded(quic, reader) {
    for (const [type, critical] of this.#peerStreams) {
      if (critical === quic) throw new ConnectionError(ERROR.H3_CLOSED_CRITICAL_STREAM, `${CRITICAL.get(type)} stream closed`);
    }
    // A stream that ends before its type (reader null) or of a type we ignore: nothing to do.
    return reader;
  }

  // Inserts from the peer's encoder: the request streams they unblock go on, in order.
  #onEncoderStream(buf) {
    const unblocked = this.#decoder.feedEncoder(buf);
    this.#decoderMeter.encoderStream(buf.length, unblocked);
    this.#flushDecoder();
    for (const { streamId, headers } of unblocked) {
      const stream = this.#streams.get(streamId);
      if (stream !== undefined) this.#guarded(() => this.#requestFields(stream, headers));
    }
  }

  #flushDecoder() {
    const bytes = this.#decoder.readDecoderStream();
    if (bytes.length > 0) this.#decoderStream.write(bytes);
  }

  // What request streams and the control stream ask of the connection.
  #owner = {
    decodeHeaders: (stream, payload) => {
      const fields = this.#decode(stream, payload);
      if (fields !== null) this.#requestFields(stream, fields);
    },
    decodeTrailers: (stream, payload) => {
      const fields = this.#decode(stream, payload);
      if (fields === null) throw new StreamError(stream.id, ERROR.H3_REQUEST_REJECTED, 'trailers waiting for QPACK inserts');
      checkRequestTrailers(stream.id, fields);
    },
    bodyReceived: (stream) => this.#bodyReceived(stream),
    requestEnded: (stream) => this.#answers.requestEnded(stream),
    glitch: () => this.#glitch(),
    encodeHeaders: (stream, d) => {
      const { section, encoderStream, fieldBytes } = this.#fields.encode(stream.id, d);
      if (encoderStream.length > 0) this.#encoderStream.write(encoderStream);
      this.#metrics.qpackEncoded(section.length, encoderStream.length, fieldBytes);
      return section;
    },
    finishStream: (stream) => this.#finishStream(stream),
    resetStream: (stream, code) => this.#resetStream(stream, code),
    logEnd: (stream, status) => this.#answers.logEnd(stream, status),
    settings: (peer) => this.#fields.peerSettings(peer),
    goaway: () => {
      this.#peerGoaway = true;
      if (this.#streams.size === 0) this.#end();
    },
    remoteAddress: null, // the access log's, set once the QUIC connection is known
  };

  // A request stream's field section -> its fields, or null while it waits for inserts.
  #decode(stream, payload) {
    const fields = this.#decoder.decode(stream.id, payload);
    this.#decoderMeter.section(stream.id, payload.length, fields);
    this.#flushDecoder();
    return fields;
  }

  #requestFields(stream, fields) {
    stream.headersDecoded(readRequest(stream.id, fields));
  }

  #bodyReceived(stream) {
    this.#answers.bodyReceived(stream);
    // A body past the bound is not read to its end (config/limits.js REQUEST_BODY_LIMIT).
    if (stream.phase === RESPONSE.WAITING && stream.received > REQUEST_BODY_LIMIT) this.#answers.dispatch(stream);
  }

  // ---- stream ends ----

  // FIN sent: the response is the transport's. Request content still coming is cut off (4.1).
  #finishStream(stream) {
    stream.sendingSide.advance('finish');
    if (stream.reading) {
      stream.stopReading();
      stream.quic.stopSending(ERROR.H3_NO_ERROR);
    }
    this.#forget(stream);
  }

  // Ours: RESET_STREAM, and STOP_SENDING while the request is still coming (its section
  // cancelled for the QPACK encoder when it was not decoded).
  #resetStream(stream, code) {
    if (stream.closed) return;
    const sendOpen = stream.sendOpen;
    stream.sendingSide.advance('close');
    stream.chunk = null;
    if (sendOpen) stream.quic.reset(code);
    this.#stopInput(stream, code);
    this.#forget(stream);
    stream.sending?.close('aborted');
  }

  #stopInput(stream, code) {
    if (!stream.reading) return;
    stream.stopReading();
    stream.quic.stopSending(code);
    this.#cancelSection(stream);
  }

  // A stream given up before its header section was decoded: the decoder forgets what it holds
  // of it and tells the peer's encoder (RFC 9204 4.4.2).
  #cancelSection(stream) {
    if (!stream.headersPending) return;
    this.#decoder.cancelStream(stream.id);
    this.#decoderMeter.cancelled(stream.id);
    this.#flushDecoder();
  }

  // The client reset its request: the response, if any is still going, stops too.
  #onPeerReset(stream, code) {
    this.#log.debug(`http3 stream ${stream.id} reset by peer (${errorName(code)})`);
    if (stream.reading) {
      this.#cancelSection(stream);
      stream.stopReading();
    }
    this.#glitch();
    if (stream.sendOpen) this.#resetStream(stream, ERROR.H3_REQUEST_CANCELLED);
  }

  // The client wants no more of the response: the transport contract has us reset with its code.
  #onStopSending(stream, code) {
    this.#log.debug(`http3 stream ${stream.id} STOP_SENDING (${errorName(code)})`);
    this.#glitch();
    if (stream.sendOpen) this.#resetStream(stream, code);
  }

  // The QUIC stream is dead (both directions done, or the connection gone).
  #streamGone(stream) {
    if (stream.closed) return;
    stream.sendingSide.advance('close');
    stream.chunk = null;
    this.#forget(stream);
    stream.sending?.close('aborted');
  }

  #forget(stream) {
    if (this.#streams.get(stream.id) !== stream) return;
    this.#streams.delete(stream.id);
    if (this.#streams.size === 0 && (this.#goawaySent || this.#peerGoaway)) this.#end();
  }

  // ---- the connection's end ----

  #end() {
    this.#closeQuic(ERROR.H3_NO_ERROR, '');
  }

  #closeQuic(code, reason) {
    if (this.#ended) return;
    this.#ended = true;
    try {
      this.#quic.close(code, reason.slice(0, 256));
    } catch (err) {
      this.#log.debug(`http3 close: ${err.message}`);
    }
  }

  #onClose(info) {
    this.#ended = true;
    if (info && !info.transport && info.byPeer && info.code !== ERROR.H3_NO_ERROR) {
      this.#log.debug(`http3 connection closed by peer: ${errorName(info.code)} ${info.reason || ''}`);
    }
    for (const stream of [...this.#streams.values()]) this.#streamGone(stream);
    this.emit('close');
  }
}

module.exports = { Http3Connection };
