'use strict';
// Node's response objects as send-out sinks (../send-out.js): an http/https ServerResponse or
// the http2 compat Http2ServerResponse (res), and a node:http2 ServerHttp2Stream. Node frames
// the bytes; backpressure is its write() result and 'drain'.

const { sendOut } = require('../send-out');
const { NODE_WRITE_BUFFER } = require('../../config/limits');

class ResponseSink {
  #sending = null;
  #held = false;

  constructor(res, finished) {
    this.res = res;
    this.finished = finished;
  }

  start(d, bytes, ends) {
    this.res.writeHead(d.status, d.headers);
    if (ends) {
      if (bytes === null) this.res.end();
      else this.res.end(bytes);
    }
    return true;
  }

  // Node's own backpressure starts at the stream's highWaterMark, 16 KiB on Node 20 but 64 KiB
  // from Node 22: a stream whose peer does not read would hold up to 80 KiB of file chunks
  // there. So a response stops at NODE_WRITE_BUFFER whatever Node's mark; a chunk's write
  // callback (it left the stream's buffer) then says when to go on, unless Node said false
  // itself and its 'drain' will.
  write(chunk) {
    if (!this.res.write(chunk, this.#written)) return false;
    if (this.res.writableLength < NODE_WRITE_BUFFER) return true;
    this.#held = true;
    return false;
  }

  #written = () => {
    if (!this.#held || this.res.writableLength >= NODE_WRITE_BUFFER) return;
    this.#held = false;
    this.#sending.drain();
  };

  end() {
    this.res.end();
  }

  // Destroys the socket (HTTP/1.1) or resets the stream: a short body is never passed off as whole.
  abort(err) {
    this.res.destroy(err);
  }

  listen(sending) {
    this.#sending = sending;
    this.res.on('drain', () => sending.drain());
    this.res.once('close', () => sending.close('aborted'));
  }
}

// The stream's 'error' (a peer reset) is the caller's to handle.
class StreamSink extends ResponseSink {
  start(d, bytes, ends) {
    this.res.respond(d.h2 || { ':status': d.status, ...d.headers }, { endStream: ends && bytes === null });
    if (bytes !== null) this.res.end(bytes);
    return true;
  }
}

// done(outcome, sent): see send-out.js's finished(); meter and startedAt: see sendOut().
function sendResponse(res, d, isHead, done, meter, startedAt) {
  sendOut(d, new ResponseSink(res, done), isHead, 0, meter, startedAt);
}

// sendTimeout: see send-out.js; a stalled stream is destroyed, which Node sends as RST_STREAM
// INTERNAL_ERROR (see http2.js).
function sendStream(stream, d, isHead, sendTimeout, done, meter, startedAt) {
  sendOut(d, new StreamSink(stream, done), isHead, sendTimeout, meter, startedAt);
}

module.exports = { sendResponse, sendStream };
