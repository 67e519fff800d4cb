'use strict';
// One HTTP/1.1 connection: reads request heads, asks the core for each response, and writes
// the responses in request order (RFC 9112 9.3.2 pipelining) with keep-alive, timeouts,
// backpressure and graceful close.

const { EventEmitter } = require('node:events');
const { RequestParser } = require('./request-parser');
const { formatHead, wholeResponse, chunkPrefix, CHUNK_SUFFIX, LAST_CHUNK } = require('./response-writer');
const { sendOut, discard, loggedStatus } = require('../send-out');
const { RequestError, ERR_HEADERS_TIMEOUT } = require('../../errors');
const { LINGER_MS } = require('../../config/limits');
const { dispatch } = require('../dispatch');
const { Lifecycle, transitions } = require('../lifecycle');
const { isRenegotiation } = require('../tls-renegotiation');
const { NO_METRICS } = require('../../metrics/recorder');

// Requests taken ahead of their responses. Past it the socket is paused, so a client that
// pipelines without reading holds at most this many responses' worth of work.
const MAX_QUEUED = 16;
// Bodies up to one TLS record are copied behind their head and sent as one buffer.
const COALESCE_BYTES = 16 * 1024;

// Phase timers (the idle timeout runs on the socket throughout).
const HEADERS = 'headers';
const KEEP_ALIVE = 'keep-alive';

// One request on the connection, and the send-out sink (../send-out.js) of its response: the
// connection frames it (Content-Length, chunked or close-delimited) and owns the socket.
class Exchange {
  constructor(connection, method, target, isHead, http10, keepAlive, headers, d) {
    this.connection = connection;
    this.method = method;
    this.target = target;
    this.isHead = isHead;
    this.http10 = http10;
    this.keepAlive = keepAlive;
    this.headers = headers;
    this.startedAt = performance.now();
    this.d = d; // the descriptor, once the core decided
    this.sending = null; // while a streamed body goes out
    this.chunked = false;
    this.closes = false; // the connection closes after this response
  }

  start(d, bytes, ends) { return this.connection.startResponse(this, d, bytes, ends); }
  write(chunk) { return this.connection.writeBody(this, chunk); }
  end() { this.connection.endBody(this); }
  abort(err) { this.connection.abortResponse(this, err); }
  listen(sending) { this.sending = sending; }
  finished(outcome, sent) { this.connection.responseFinished(this, outcome, sent); }

  // The access log's client (log/access-log.js), read only when a line is written.
  get remoteAddress() { return this.connection.remoteAddress; }
  get protocol() { return this.http10 ? 'http/1.0' : 'http/1.1'; }
}

// A connection's lifecycle (../lifecycle.js): reading (requests are taken) -> draining (no
// further request: those taken are answered) -> ending (write side closed after the last
// response, input read and dropped for LINGER_MS) -> closed (the socket is gone, which can happen
// in any state).
const STATE = Object.freeze({ READING: 'reading', DRAINING: 'draining', ENDING: 'ending', CLOSED: 'closed' });
const CONNECTION_TRANSITIONS = transitions(STATE, {
  stopReading: { [STATE.READING]: STATE.DRAINING },
  end: { [STATE.DRAINING]: STATE.ENDING },
  close: { [STATE.READING]: STATE.CLOSED, [STATE.DRAINING]: STATE.CLOSED, [STATE.ENDING]: STATE.CLOSED },
});

class Http1Connection extends EventEmitter {
  constructor(socket, { core, log, timeouts, isClosing, metrics = NO_METRICS }) {
    super();
    Object.assign(this, { socket, core, log, timeouts, isClosing, meter: metrics.h1 });
    this.remoteAddress = socket.remoteAddress;
    this.parser = new RequestParser();
    this.queue = []; // entries in request order; queue[0] is answered first
    this.streaming = null; // the entry whose response is going out
    this.lifecycle = new Lifecycle('http1 connection', CONNECTION_TRANSITIONS, STATE.READING);
    this.served = 0;
    this.timer = null;
    this.timerKind = null;
    this.timerDue = 0;
    this.deadline = 0;
    this.flushScheduled = false;
    this.flushing = false;
    this.flushNow = () => { this.flushScheduled = false; this.flush(); };
    this.onTimer = () => this.timedOut();

    // Half-closed by the client: the responses already asked for are still sent (RFC 9112 9.6).
    socket.allowHalfOpen = true;
    socket.on('data', (chunk) => this.onData(chunk));
    socket.on('drain', () => this.onDrain());
    socket.on('end', () => this.onEnd());
    // Resets are the peer's business ('close' follows); a TLS renegotiation attempt leaves the
    // socket open, and ends the connection here (tls-renegotiation.js).
    socket.on('error', (err) => { if (isRenegotiation(err)) socket.destroy(); });
    socket.on('close', () => this.onClose());
    socket.setTimeout(timeouts.idleTimeout, () => socket.destroy());
    this.updateTimer();
  }

  get state() { return this.lifecycle.state; }

  // A refused change is a bug of ours, in an event handler where a throw would end the process:
  // it costs this connection instead.
  advance(event) {
    try {
      this.lifecycle.advance(event);
    } catch (err) {
      this.log.error(err.message);
      this.socket.destroy();
    }
  }

  get reading() { return this.state === STATE.READING; }
  get ending() { return this.state === STATE.ENDING; }
  get closed() { return this.state === STATE.CLOSED; }

  onData(chunk) {
    if (!this.reading) return; // the last request is in: what follows is dropped
    this.parser.push(chunk);
    this.takeRequests();
  }

  takeRequests() {
    const socket = this.socket;
    while (this.reading && this.queue.length < MAX_QUEUED && !socket.writableNeedDrain) {
      const request = this.parser.next();
      if (request === null) break;
      if (request instanceof RequestError) this.refuse(request);
      else this.accept(request);
    }
    // Stop reading while the queue is full or the client is not reading its responses.
    if (this.reading && (this.queue.length >= MAX_QUEUED || socket.writableNeedDrain)) socket.pause();
    else socket.resume();
    this.updateTimer();
  }

  accept(request) {
    const entry = new Exchange(this, request.method, request.target, request.method === 'HEAD', request.version === '1.0',
      request.keepAlive, request.headers, null);
    // RFC 9112 9.6: no further request is processed after one that asked to close.
    if (!request.keepAlive) this.stopReading();
    this.queue.push(entry);
    dispatch(this.core, this.log, { method: request.method, target: request.path, headers: request.headers, connection: this }, (d) => {
      if (this.closed) {
        discard(d);
        return;
      }
      entry.d = d;
      // A lone request (no pipelining) is answered at once; a batch waits for the tick's end.
      if (this.queue.length === 1) this.flush();
      else this.scheduleFlush();
    }, () => this.socket.destroy());
  }

  // A head that could not be parsed: answer it after the responses before it, then close.
  refuse(err) {
    this.stopReading();
    this.queue.push(new Exchange(this, '-', '-', false, false, false, {}, this.core.errorResponse(err, false)));
    this.scheduleFlush();
  }

  logAccess(entry, status, bytes) {
    this.core.logAccess(entry.method, entry.target, status, entry.d.coding, bytes, entry.startedAt, entry);
  }

  stopReading() {
    if (!this.reading) return;
    this.advance('stopReading');
    this.parser = null;
  }

  // Responses that complete in the same tick (a pipelined batch) go out in one write.
  scheduleFlush() {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    process.nextTick(this.flushNow);
  }

  flush() {
    if (this.closed || this.streaming !== null || this.flushing) return;
    const socket = this.socket;
    this.flushing = true;
    const corked = this.queue.length > 1;
    if (corked) socket.cork();
    try {
      while (this.queue.length > 0 && this.queue[0].d !== null && this.streaming === null && !this.ending) {
        const entry = this.queue[0];
        this.streaming = entry;
        sendOut(entry.d, entry, entry.isHead, 0, this.meter, entry.startedAt);
      }
    } catch (err) {
      // decide() never rejects, so this is a failure while sending: drop the connection.
      this.log.error(`sending ${this.queue[0].method} ${this.queue[0].target} failed: ${err.stack || err}`);
      socket.destroy();
      return;
    } finally {
      if (corked) socket.uncork();
      this.flushing = false;
    }
    this.afterResponses();
  }

  // The head, and the whole body when it is in hand: bodies up to COALESCE_BYTES go out in one
  // Buffer with their head (response-writer.js keeps it for the second), so a lone response is
  // one plain write rather than a writev or a copy per request.
  startResponse(entry, d, bytes, ends) {
    const socket = this.socket;
    // Shutting down: the last response already asked for says so and closes.
    if (this.isClosing()) this.stopReading();
    const last = !entry.keepAlive || (!this.reading && this.queue.length === 1);
    const unframed = (bytes !== null || !ends) && d.headers['content-length'] === undefined;
    // An HTTP/1.0 peer cannot take chunked coding: the body ends with the connection.
    entry.chunked = unframed && !entry.http10;
    entry.closes = last || (unframed && entry.http10);
    this.served++;
    if (entry.closes) this.stopReading();
    const n = bytes === null ? 0 : bytes.length;
    const connection = entry.closes ? 'close' : entry.http10 ? 'keep-alive' : null;
    if (n <= COALESCE_BYTES && !entry.chunked) {
      socket.write(wholeResponse(d, bytes, connection));
    } else {
      socket.write(formatHead(d.status, d.headers, entry.chunked, connection), 'latin1');
      if (n > 0) this.writeBody(entry, bytes);
    }
    if (ends) this.endBody(entry);
    return true;
  }

  writeBody(entry, chunk) {
    const socket = this.socket;
    if (entry.chunked) {
      socket.cork();
      socket.write(chunkPrefix(chunk.length), 'latin1');
      socket.write(chunk);
      socket.write(CHUNK_SUFFIX, 'latin1');
      socket.uncork();
    } else {
      socket.write(chunk);
    }
    return !socket.writableNeedDrain;
  }

  endBody(entry) {
    if (entry.chunked) this.socket.write(LAST_CHUNK, 'latin1');
  }

  // A body that fails or falls short of its Content-Length destroys the socket, so no client
  // takes a truncated body for a whole one.
  abortResponse(entry, err) {
    this.log.debug(`${entry.method} ${entry.target}: body failed: ${err.message}`);
    this.socket.destroy();
  }

  responseFinished(entry, outcome, sent) {
    this.logAccess(entry, loggedStatus(entry.d.status, outcome), sent);
    // Aborted: the socket is being destroyed, and nothing more goes out on it.
    if (outcome !== null || this.closed) return;
    this.streaming = null;
    this.queue.shift();
    if (entry.closes) this.end();
    else this.flush();
  }

  // After a batch: close if that was the last response, else take more requests.
  afterResponses() {
    if (this.ending || this.closed) return;
    if (!this.reading) {
      if (this.queue.length === 0 && this.streaming === null) this.end();
      return;
    }
    this.takeRequests();
  }

  onDrain() {
    if (this.streaming !== null) this.streaming.sending?.drain();
    else if (this.reading) this.takeRequests();
  }

  onEnd() {
    // The client sends nothing more: answer what it asked for, then close.
    this.stopReading();
    if (this.queue.length === 0 && this.streaming === null) this.end();
  }

  // Closes the write side once everything written is flushed, reads and drops input for a
  // while after that, then lets go of the socket. Until the flush, a slow reader gets the rest
  // of its last response; one that stops reading is bounded by the idle timeout.
  end() {
    if (this.ending || this.closed) return;
    this.advance('end');
    this.clearTimer();
    const socket = this.socket;
    socket.resume();
    socket.end(() => setTimeout(() => socket.destroy(), LINGER_MS).unref());
  }

  // headersTimeout (bounded by requestTimeout: a request here is its head) from the first byte
  // of a head, or from the connection's start; keepAliveTimeout between requests. A phase only
  // records its deadline; the one timer is re-armed when it fires early or a deadline moves
  // closer, so a keep-alive request costs no timer of its own.
  updateTimer() {
    let kind = null;
    if (this.reading) {
      if (this.parser.receiving) kind = HEADERS;
      else if (this.queue.length === 0) kind = this.served === 0 ? HEADERS : KEEP_ALIVE;
    }
    if (kind === this.timerKind) return;
    this.timerKind = kind;
    if (kind === null) return;
    const ms = kind === HEADERS ? Math.min(this.timeouts.headersTimeout, this.timeouts.requestTimeout) : this.timeouts.keepAliveTimeout;
    this.deadline = performance.now() + ms;
    if (this.timer === null || this.deadline < this.timerDue) this.armTimer(ms);
  }

  armTimer(ms) {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timerDue = performance.now() + ms;
    this.timer = setTimeout(this.onTimer, ms).unref();
  }

  clearTimer() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.timerKind = null;
  }

  timedOut() {
    this.timer = null;
    if (this.timerKind === null) return;
    const left = this.deadline - performance.now();
    if (left > 0) {
      this.armTimer(left);
      return;
    }
    this.timerKind = null;
    const receiving = this.parser !== null && this.parser.receiving;
    if (receiving && this.queue.length === 0) {
      // RFC 9110 15.5.9: a head that did not complete in time gets 408, then the close.
      this.refuse(ERR_HEADERS_TIMEOUT());
    } else if (this.queue.length === 0) {
      this.stopReading();
      this.end();
    } else {
      this.socket.destroy();
    }
  }

  // How long (ms) the connection has waited between requests; -1 while it is doing anything
  // else. Under descriptor pressure the listener closes the longest idle first.
  idleMs() {
    return this.timerKind === KEEP_ALIVE ? performance.now() - (this.deadline - this.timeouts.keepAliveTimeout) : -1;
  }

  // Graceful: the responses already asked for are sent, the last with Connection: close.
  close() {
    if (this.closed) return;
    this.stopReading();
    if (this.queue.length === 0 && this.streaming === null) this.end();
  }

  destroy() {
    this.socket.destroy();
  }

  onClose() {
    this.advance('close');
    this.clearTimer();
    if (this.streaming !== null) this.streaming.sending?.close('aborted');
    for (const entry of this.queue) if (entry.d !== null) discard(entry.d);
    this.queue.length = 0;
    this.emit('close');
  }
}

module.exports = { Http1Connection, MAX_QUEUED, STATE };
