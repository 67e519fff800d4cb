'use strict';
// One request/response exchange (RFC 9113 5.1). A stream is created by the request's HEADERS
// (idle streams have no object: the connection tells them by id) and is open until the request
// ends (END_STREAM), then half-closed (remote) while the response is made and sent; it is
// dropped from the connection when closed. It has two lifecycles (../lifecycle.js): its state
// of 5.1, changed only along the table below, and where its response stands
// (../response-lifecycle.js). The connection checks the peer's frames
// against the state before it asks for a change, so a refused one is a bug of ours. It is also
// the send-out sink (../send-out.js) of its response: `output`, one per connection, frames it.

const { Lifecycle, transitions } = require('../lifecycle');
const { responseLifecycle } = require('../response-lifecycle');

const STATE = Object.freeze({
  OPEN: 'open',
  HALF_CLOSED_REMOTE: 'half-closed (remote)',
  HALF_CLOSED_LOCAL: 'half-closed (local)',
  CLOSED: 'closed',
});

// RST_STREAM either way closes any stream.
const STREAM_TRANSITIONS = transitions(STATE, {
  recvEndStream: { [STATE.OPEN]: STATE.HALF_CLOSED_REMOTE, [STATE.HALF_CLOSED_LOCAL]: STATE.CLOSED },
  sendEndStream: { [STATE.OPEN]: STATE.HALF_CLOSED_LOCAL, [STATE.HALF_CLOSED_REMOTE]: STATE.CLOSED },
  reset: { [STATE.OPEN]: STATE.CLOSED, [STATE.HALF_CLOSED_REMOTE]: STATE.CLOSED, [STATE.HALF_CLOSED_LOCAL]: STATE.CLOSED },
});

class Stream {
  // request: { headers, contentLength, listSize } (readRequestHeaders).
  constructor(id, sendWindow, output, request) {
    this.id = id;
    this.output = output;
    this.sendWindow = sendWindow;
    this.receiveWindow = null; // a ReceiveWindow once the request has DATA
    this.lifecycle = new Lifecycle(`http2 stream ${id}`, STREAM_TRANSITIONS, STATE.OPEN);
    this.responseLifecycle = responseLifecycle(`http2 stream ${id}`);
    // The request.
    this.headers = request.headers;
    this.contentLength = request.contentLength;
    this.listSize = request.listSize;
    this.received = 0; // DATA octets, padding excluded, checked against content-length
    this.startedAt = 0; // when the request went to the core
    // The response: descriptor, and the content being sent.
    this.response = null;
    this.sending = null; // its Sending while content is still to go
    this.chunk = null; // the content the sink took and has not all sent yet
    this.offset = 0; // ... and its next octet to send
    this.bodyEnded = false; // no content follows the chunk
    this.inCall = false; // inside a sink call: completion is its return value, not a drain()
    this.sent = 0;
  }

  get state() {
    return this.lifecycle.state;
  }

  /** Where the response stands (../response-lifecycle.js RESPONSE). */
  get phase() {
    return this.responseLifecycle.state;
  }

  // END_STREAM received: the request is complete.
  get remoteEnded() {
    return this.state === STATE.HALF_CLOSED_REMOTE || this.state === STATE.CLOSED;
  }

  get closed() {
    return this.state === STATE.CLOSED;
  }

  start(d, bytes, ends) {
    this.inCall = true;
    const taken = this.output.start(this, d, bytes, ends);
    this.inCall = false;
    return taken;
  }

  write(chunk) {
    this.inCall = true;
    const taken = this.output.write(this, chunk);
    this.inCall = false;
    return taken;
  }

  end() {
    this.inCall = true;
    this.output.end(this);
    this.inCall = false;
  }

  abort(err) {
    this.output.abort(this, err);
  }

  // The access log's client (log/access-log.js), with this.headers.
  get protocol() {
    return 'h2';
  }

  get remoteAddress() {
    return this.output.remoteAddress;
  }

  listen(sending) {
    this.sending = sending;
  }

  finished(outcome) {
    this.responseLifecycle.advance('finish');
    this.output.finished(this, outcome);
  }
}

module.exports = { Stream, STATE, STREAM_TRANSITIONS };
