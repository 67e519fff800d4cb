'use strict';
// The one way a core descriptor goes out, on every engine (native h1 and h2, Node's http1 and
// http2, the handler() middleware): what to send (nothing for HEAD, 1xx, 204 and 304), the
// whole Buffer next to the head, a Readable one chunk at a time under the sink's backpressure,
// and every way that can end (the peer gone, the body failing or falling short of its
// Content-Length, no progress for sendTimeout), each releasing the body.
//
// A sink is one response's way out on one protocol; the protocol does the framing:
//   start(d, bytes, ends)  the head (status and headers from d), and bytes (a Buffer) when the
//                          content is in memory: the sink may send them together. ends: nothing
//                          follows (no content, or all of it in bytes). Returns true when it
//                          took everything, false when it holds some back (HTTP/2 flow control)
//                          and will call sending.drain() once it took the rest.
//   write(chunk)           a chunk of a streamed body; the same true/false as start().
//   end()                  the streamed body is complete (its last write was taken).
//   abort(err)             the content will not be complete: the peer must not take what it
//                          got for all of it (HTTP/1.1: close the connection; HTTP/2:
//                          RST_STREAM; err.code ERR_SEND_TIMEOUT when it stalled).
//   listen(sending)        called when content is still to go after start(): the
//                          sink calls sending.drain() when it takes more, sending.progress()
//                          when some bytes left (refreshes sendTimeout), sending.close(outcome)
//                          when the peer or the connection is gone.
//   finished(outcome, sent) called once, last: outcome null when the response went out whole,
//                          else why not ('aborted', 'timed out' or the sink's own close reason);
//                          sent: content octets handed to the sink.
//
// Every response is counted here too (server/metrics/recorder.js): the meter of its protocol
// (NO_METER when metrics are off) gets it once finished, with when its request reached the core.

const { NO_METER } = require('../metrics/recorder');
const { ERR_SEND_TIMEOUT } = require('../errors');

// RFC 9110 6.4.1 and 15.3.5, 15.4.5: these never have content, whatever the method.
function statusHasBody(status) {
  return status >= 200 && status !== 204 && status !== 304;
}

// Releases a descriptor's streamed body that will not be sent.
function discard(d) {
  const body = d.body;
  if (body !== null && !Buffer.isBuffer(body)) body.destroy();
}

// The access log's status: the number, or "200 aborted" (see log/access-log.js).
function loggedStatus(status, outcome) {
  return outcome === null ? status : `${status} ${outcome}`;
}

// Sends d through sink. sendTimeout: ms without progress after which the response is given
// up (0: never, for protocols whose connection timeouts cover it). A sink that throws from
// start() (a header it refuses) leaves the body released and the exception to the caller.
// meter and startedAt: where the response is counted (see above).
function sendOut(d, sink, isHead, sendTimeout, meter = NO_METER, startedAt = performance.now()) {
  const body = d.body;
  const hasContent = body !== null && !isHead && statusHasBody(d.status);
  if (!hasContent || Buffer.isBuffer(body)) {
    if (!hasContent) discard(d);
    const bytes = hasContent ? body : null;
    const sent = bytes === null ? 0 : bytes.length;
    if (!sink.start(d, bytes, true)) {
      new Sending(d, sink, null, sent, sendTimeout, isHead, meter, startedAt);
      return;
    }
    meter.finished(d, isHead, null, sent, startedAt);
    sink.finished(null, sent);
    return;
  }
  try {
    sink.start(d, null, false);
  } catch (err) {
    body.destroy();
    throw err;
  }
  new Sending(d, sink, body, 0, sendTimeout, isHead, meter, startedAt);
}

class Sending {
  constructor(d, sink, body, sent, sendTimeout, isHead, meter, startedAt) {
    this.d = d;
    this.sink = sink;
    this.body = body;
    this.sent = sent;
    this.done = false;
    this.isHead = isHead;
    this.meter = meter;
    this.startedAt = startedAt;
    meter.opened();
    const length = d.headers['content-length'];
    this.expected = body === null || length === undefined ? -1 : Number(length);
    this.timer = sendTimeout > 0 ? setTimeout(() => this.stalled(sendTimeout), sendTimeout).unref() : null;
    sink.listen(this);
    if (body !== null) this.read(body);
  }

  // Reads in flowing mode, paused whenever the sink holds a chunk back. A FileBody or Spool
  // reads on demand (highWaterMark 0) and charges each chunk to the byte budget until its next
  // read (files/byte-budget.js), so the budget counts exactly the chunks sinks hold, and a
  // stalled peer pins one. 'end' comes only once the stream flows again, that is after the
  // last chunk was taken.
  read(body) {
    body.on('data', (chunk) => {
      if (this.done) return;
      this.sent += chunk.length;
      this.progress();
      if (!this.sink.write(chunk)) body.pause();
    });
    body.once('end', () => {
      if (this.done) return;
      if (this.expected >= 0 && this.sent !== this.expected) {
        this.abort(new Error(`body of ${this.sent} octets, not its content-length ${this.expected}`), 'aborted');
        return;
      }
      this.sink.end();
      this.finish(null);
    });
    body.once('error', (err) => this.abort(err, 'aborted'));
    body.once('close', () => this.abort(new Error('body closed before its end'), 'aborted'));
  }

  drain() {
    if (this.done) return;
    this.progress();
    if (this.body === null) this.finish(null);
    else this.body.resume();
  }

  progress() {
    if (this.timer !== null) this.timer.refresh();
  }

  // The peer or the connection is gone: nothing more can be sent.
  close(outcome) {
    if (this.done) return;
    this.finish(outcome);
  }

  stalled(ms) {
    this.abort(ERR_SEND_TIMEOUT({ ms }), 'timed out');
  }

  abort(err, outcome) {
    if (this.done) return;
    this.done = true;
    this.release();
    this.sink.abort(err);
    this.count(outcome);
    this.sink.finished(outcome, this.sent);
  }

  finish(outcome) {
    this.done = true;
    this.release();
    this.count(outcome);
    this.sink.finished(outcome, this.sent);
  }

  count(outcome) {
    this.meter.closed();
    this.meter.finished(this.d, this.isHead, outcome, this.sent, this.startedAt);
  }

  release() {
    if (this.timer !== null) clearTimeout(this.timer);
    if (this.body !== null && !this.body.destroyed) this.body.destroy();
  }
}

module.exports = { sendOut, discard, statusHasBody, loggedStatus };
