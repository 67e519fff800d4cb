'use strict';
// One request/response exchange (RFC 9113 5.1). A stream is created by the request's HEADERS
// and is open until the request ends (END_STREAM), then half-closed (remote) while the
// response is made and sent; it is dropped from the connection when closed.

class Stream {
  constructor(id, sendWindow) {
    this.id = id;
    this.sendWindow = sendWindow;
    this.receiveWindow = null; // a ReceiveWindow once the request has DATA
    this.remoteEnded = false; // END_STREAM received: half-closed (remote)
    this.closed = false;
    // The request (filled by readRequestHeaders).
    this.headers = null;
    this.contentLength = -1;
    this.listSize = 0;
    this.received = 0; // DATA octets, padding excluded, checked against content-length
    this.startedAt = 0; // when the request went to the core; 0 until then
    // The response: descriptor, and the body being sent.
    this.response = null;
    this.body = null; // Buffer or Readable
    this.offset = 0; // Buffer body: next octet to send
    this.queue = null; // Readable body: chunks read but not yet sent
    this.queueOffset = 0; // ... and how much of queue[0] is sent
    this.queued = 0;
    this.bodyEnded = false; // all of the body is in hand (Buffer, or the Readable ended)
    this.sendTimer = null; // resets the stream when no DATA goes out for timeouts.sendTimeout
    this.sent = 0;
  }
}

module.exports = { Stream };
