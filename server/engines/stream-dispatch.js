'use strict';
// A multiplexed engine's (HTTP/2, HTTP/3) way from a complete request on one of its streams to
// the response going out on it and its access-log line: the parts both engines share, around
// dispatch(). The stream is the engine's own (h2/stream.js, h3/request-stream.js) with the
// fields both have: id, headers, listSize, contentLength, received, phase, closed,
// responseLifecycle, startedAt, response, sent.

const { RESPONSE } = require('./response-lifecycle');
const { dispatch } = require('./dispatch');
const { sendOut, discard } = require('./send-out');
const { ERR_HEADER_LIST_TOO_LARGE } = require('../errors');

class StreamDispatch {
  #core;
  #log;
  #timeouts;
  #meter;
  #connection;
  #maxHeaderListSize;
  #ended;
  #internalError;
  #lengthError;

  // ctx: { core, log, timeouts, meter, connection (the engine's connection, for dispatch()),
  //   maxHeaderListSize (a list past it is answered 431), ended() (the connection is done:
  //   a late response is dropped), internalError(stream) (the engine's reset when sending
  //   fails), lengthError(stream, message) (the engine's stream error for a body that does not
  //   match its content-length) }
  constructor(ctx) {
    this.#core = ctx.core;
    this.#log = ctx.log;
    this.#timeouts = ctx.timeouts;
    this.#meter = ctx.meter;
    this.#connection = ctx.connection;
    this.#maxHeaderListSize = ctx.maxHeaderListSize;
    this.#ended = ctx.ended;
    this.#internalError = ctx.internalError;
    this.#lengthError = ctx.lengthError;
  }

  // The request's content has all come: check its length and answer it unless it already is
  // (a body past REQUEST_BODY_LIMIT is answered before its end).
  requestEnded(stream) {
    if (stream.contentLength >= 0 && stream.received !== stream.contentLength) {
      throw this.#lengthError(stream, 'DATA shorter than content-length');
    }
    if (stream.phase === RESPONSE.WAITING) this.dispatch(stream);
  }

  // More of the request's content: past its content-length is an error.
  bodyReceived(stream) {
    if (stream.contentLength >= 0 && stream.received > stream.contentLength) {
      throw this.#lengthError(stream, 'DATA longer than content-length');
    }
  }

  dispatch(stream) {
    stream.responseLifecycle.advance('dispatch');
    stream.startedAt = performance.now();
    const headers = stream.headers;
    const refusal = stream.listSize > this.#maxHeaderListSize ? ERR_HEADER_LIST_TOO_LARGE() : null;
    dispatch(this.#core, this.#log, { method: headers[':method'], target: headers[':path'], headers, refusal, connection: this.#connection },
      (d) => this.#respond(stream, d),
      () => { if (!stream.closed && !this.#ended()) this.#internalError(stream); });
  }

  #respond(stream, d) {
    if (stream.closed || this.#ended()) {
      discard(d);
      return;
    }
    stream.responseLifecycle.advance('respond');
    stream.response = d;
    sendOut(d, stream, stream.headers[':method'] === 'HEAD', this.#timeouts.sendTimeout, this.#meter, stream.startedAt);
  }

  logEnd(stream, status) {
    const d = stream.response;
    this.#core.logAccess(stream.headers[':method'], stream.headers[':path'], status, d ? d.coding : null, stream.sent, stream.startedAt, stream);
  }
}

module.exports = { StreamDispatch };
