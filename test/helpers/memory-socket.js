'use strict';
// A socket stand-in for the engines, in memory: what the client sends is push()ed in; what the
// server writes goes to onWrite(chunk). For socket-free tests of a connection and the fuzzers.

const { Duplex } = require('node:stream');

class MemorySocket extends Duplex {
  // slowReader: writes complete a turn later, so backpressure builds up.
  constructor(onWrite, { slowReader = false, alpnProtocol = 'h2' } = {}) {
    super({ allowHalfOpen: false, writableHighWaterMark: 16 * 1024 });
    this.onWrite = onWrite;
    this.slowReader = slowReader;
    this.alpnProtocol = alpnProtocol;
    this.remoteAddress = '127.0.0.1';
    this.remotePort = 40000;
    this.encrypted = true;
  }

  _read() {}

  _write(chunk, encoding, callback) {
    this.onWrite(chunk);
    if (this.slowReader) setImmediate(callback);
    else callback();
  }

  setTimeout() { return this; }
  setNoDelay() { return this; }
  setKeepAlive() { return this; }
}

module.exports = { MemorySocket };
