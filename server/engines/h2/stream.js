'use strict';
// One request/response exchange (RFC 9113 5.1). A stream is created by the request's HEADERS
// and is open until the request ends (END_STREAM), then half-closed (remote) while the
// response is made and sent; it is dropped from the connection when closed. It is also the
// send-out sink (../send-out.js) of its response: `output`, one per connection, frames it.

class Stream {
  // request: { headers, contentLength, listSize } (readRequestHeaders).
  constructor(id, sendWindow, output, request) {
    this.id = id;
    this.output = output;
    this.sendWindow = sendWindow;
    this.receiveWindow = null; // a ReceiveWindow once the request has DATA
    this.remoteEnded = false; // END_STREAM received: half-closed (remote)
    this.closed = false;
    // The request.
    this.headers = request.headers;
    this.contentLength = request.contentLength;
    this.listSize = request.listSize;
    this.received = 0; // DATA octets, padding excluded, checked against content-length
    this.startedAt = 0; // when the request went to the core; 0 until then
    // The response: descriptor, and the content being sent.
    this.response = null;
    this.sending = null; // its Sending while content is still to go
    this.chunk = null; // the content the sink took and has not all sent yet
    this.offset = 0; // ... and its next octet to send
    this.bodyEnded = false; // no content follows the chunk
    this.inCall = false; // inside a sink call: completion is its return value, not a drain()
    this.sent = 0;
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
    this.output.finished(this, outcome);
  }
}

module.exports = { Stream };
