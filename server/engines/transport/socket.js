'use strict';
// One connection of the C transport (native/transport.js) as the part of a node:tls socket that
// the native engines use (h1/connection.js, h2/connection.js, h2/output.js, h2/frame-writer.js):
// 'data', 'end', 'drain', 'finish', 'timeout', 'close' (a reset is a 'close' with hadError),
// 'error' only for a refused renegotiation, as node:tls emits it (tls-renegotiation.js), write (a Buffer or a string), cork/uncork (the corked writes go to C as one
// array, gathered into one TLS write), end([cb]), destroy(), pause/resume, setTimeout(ms[, cb])
// (the idle timer is C's; it closes the connection after 'timeout'), the writable* state,
// alpnProtocol and the peer's address. Bytes written are queued in C, which sends them as the
// socket takes them and stops reading while highWater or more wait.

const { EventEmitter } = require('node:events');
const { CONTROL } = require('../../../native/transport');
const { renegotiationRefused } = require('../tls-renegotiation');

const MAX_BUFFERS_PER_WRITE = 64;

class TransportSocket extends EventEmitter {
  #transport;
  #id;
  #highWater;
  #corks = 0;
  #corked = [];
  #corkedBytes = 0;
  #paused = false;
  // As a node:net socket's: set by a write that brought what is buffered (the chunk counted even
  // when C sent it at once) to highWater, cleared by the 'drain' that follows once all is out.
  #needDrain = false;
  #drainQueued = false;
  // What C had pending after the last write: it only goes down until C's DRAIN says 0, so this is
  // an upper bound that costs no call into C (h2/output.js reads it for every chunk).
  #pending = 0;

  constructor(transport, id, { alpn, address, port, highWater }) {
    super();
    this.#transport = transport;
    this.#id = id;
    this.#highWater = highWater;
    this.alpnProtocol = alpn;
    this.remoteAddress = address;
    this.remotePort = port;
    this.remoteFamily = address.includes(':') ? 'IPv6' : 'IPv4';
    this.encrypted = true;
    this.allowHalfOpen = false;
    this.destroyed = false;
    this.readableEnded = false;
    this.writableEnded = false;
    this.writableFinished = false;
  }

  get writableNeedDrain() { return this.#needDrain; }
  get writableLength() {
    return this.destroyed ? 0 : this.#pending + this.#corkedBytes;
  }

  write(data, encoding, cb) {
    if (typeof encoding === 'function') [cb, encoding] = [encoding, undefined];
    if (cb !== undefined) throw new TypeError('TransportSocket.write takes no callback: wait for \'drain\'');
    if (this.destroyed || this.writableEnded) return false;
    const chunk = typeof data === 'string' ? Buffer.from(data, encoding ?? 'utf8') : data;
    if (this.#corks > 0) {
      this.#corked.push(chunk);
      this.#corkedBytes += chunk.length;
      return this.#below(this.#corkedBytes);
    }
    return this.#send(chunk, chunk.length);
  }

  cork() { this.#corks++; }

  uncork() {
    if (this.#corks === 0 || --this.#corks > 0 || this.#corked.length === 0) return;
    const chunks = this.#corked;
    const bytes = this.#corkedBytes;
    this.#corked = [];
    this.#corkedBytes = 0;
    if (chunks.length === 1) {
      this.#send(chunks[0], bytes);
      return;
    }
    for (let i = 0; i < chunks.length; i += MAX_BUFFERS_PER_WRITE) this.#send(chunks.slice(i, i + MAX_BUFFERS_PER_WRITE), bytes);
  }

  #below(buffered) {
    if (buffered >= this.#highWater) this.#needDrain = true;
    return !this.#needDrain;
  }

  #send(data, bytes) {
    const pending = this.#transport.write(this.#id, data);
    if (pending < 0) return false; // closed: 'close' is on its way
    this.#pending = pending;
    const ok = this.#below(bytes + pending);
    // All sent already: the 'drain' a blocked writer waits for comes on the next tick. With
    // bytes pending, C reports when they are out.
    if (!ok && pending === 0 && !this.#drainQueued) {
      this.#drainQueued = true;
      process.nextTick(() => {
        this.#drainQueued = false;
        if (!this.destroyed && this.#pending === 0) this.onDrain();
      });
    }
    return ok;
  }

  end(data, encoding, cb) {
    if (typeof data === 'function') [cb, data] = [data, undefined];
    else if (typeof encoding === 'function') [cb, encoding] = [encoding, undefined];
    if (data !== undefined) this.write(data, encoding);
    if (cb) this.once('finish', cb);
    if (this.writableEnded || this.destroyed) return this;
    this.#corks = 1;
    this.uncork();
    this.writableEnded = true;
    if (this.#transport.control(this.#id, CONTROL.END) === 1) process.nextTick(() => this.onFinish());
    return this;
  }

  destroy() {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.#transport.control(this.#id, CONTROL.DESTROY);
    return this;
  }

  pause() {
    if (!this.#paused && !this.destroyed) {
      this.#paused = true;
      this.#transport.control(this.#id, CONTROL.PAUSE);
    }
    return this;
  }

  // As with a stream, what was held back arrives on a later tick, never inside resume().
  resume() {
    if (this.#paused) {
      this.#paused = false;
      process.nextTick(() => {
        if (!this.#paused && !this.destroyed) this.#transport.control(this.#id, CONTROL.RESUME);
      });
    }
    return this;
  }

  setTimeout(ms, cb) {
    if (!this.destroyed) this.#transport.control(this.#id, CONTROL.IDLE, ms);
    if (cb) this.once('timeout', cb);
    return this;
  }

  // C sets TCP_NODELAY on every connection and uses no keep-alive probes.
  setNoDelay() { return this; }
  setKeepAlive() { return this; }

  // The events from C (server.js dispatches them by connection id).
  onData(chunk) { this.emit('data', chunk); }
  onEnd() {
    this.readableEnded = true;
    this.emit('end');
    if (!this.allowHalfOpen) this.end();
  }
  onDrain() {
    this.#pending = 0;
    if (!this.#needDrain) return;
    this.#needDrain = false;
    this.emit('drain');
  }
  onFinish() {
    if (this.writableFinished) return;
    this.writableFinished = true;
    this.emit('finish');
  }
  onTimeout() { this.emit('timeout'); }
  // From inside C's read of the ClientHello: a listener may write (the GOAWAY of RFC 9113 9.2.1),
  // end or destroy; C closes the connection right after whatever it does, so without a listener
  // there is nothing to throw for.
  onRenegotiation() {
    if (this.listenerCount('error') > 0) this.emit('error', renegotiationRefused());
  }
  onClose(hadError) {
    this.destroyed = true;
    this.emit('close', hadError);
  }
}

module.exports = { TransportSocket };
