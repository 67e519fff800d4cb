'use strict';
// A TLS server on the C transport (native/transport.js) with the part of tls.Server's API that
// start-server.js, listen-native.js and tls/reload.js use: listen(port, host, cb), address(),
// close(cb), setSecureContext({ cert, key }), and 'connection' then 'secureConnection' with a
// TransportSocket once a handshake is done ('connection' comes after the handshake here: C owns
// the connections before it, and its handshake guard bounds them). 'close' follows close() once
// every connection is gone. 'handshakes' ({ dropped: { reason: count }, peak, pending }) reports
// C's handshake guard (handshake-guard.js heedTransportHandshakes hears it).

const dns = require('node:dns');
const { EventEmitter } = require('node:events');
const { isIP } = require('node:net');
const { transportListen, EVENT } = require('../../../native/transport');
const { TransportSocket } = require('./socket');
const { maxPendingHandshakes, openFileLimit } = require('../handshake-guard');
const { HANDSHAKE_DROPS } = require('../../metrics/recorder');
const { TRANSPORT } = require('../../config/limits');

class TransportServer extends EventEmitter {
  #options;
  #transport = null;
  #sockets = new Map(); // id -> TransportSocket
  #port = null;
  #host = null;

  // options: { cert, key, alpn, handshakeTimeout, idleTimeout (ms, C's backstop), reusePort }
  constructor(options) {
    super();
    this.#options = options;
    this.cert = options.cert;
    this.key = options.key;
  }

  // host: an address, or a name looked up first (its first address), as net.Server does.
  listen(port, host, cb) {
    if (cb) this.once('listening', cb);
    if (isIP(host)) {
      this.#listenOn(port, host);
      return this;
    }
    dns.lookup(host, (err, address) => {
      if (err) this.emit('error', err);
      else this.#listenOn(port, address);
    });
    return this;
  }

  #listenOn(port, host) {
    const o = this.#options;
    try {
      this.#transport = transportListen({
        host, port, reusePort: o.reusePort, cert: o.cert, key: o.key, alpn: o.alpn,
        handshakeTimeoutMs: o.handshakeTimeout, maxHandshakes: maxPendingHandshakes(openFileLimit()),
        idleTimeoutMs: o.idleTimeout, highWater: TRANSPORT.highWater, maxPending: TRANSPORT.maxPending,
        onEvent: (type, id, a, b, c) => this.#onEvent(type, id, a, b, c),
      });
    } catch (err) {
      process.nextTick(() => this.emit('error', err));
      return;
    }
    this.#port = this.#transport.port;
    this.#host = host;
    process.nextTick(() => this.emit('listening'));
  }

  address() {
    if (this.#port === null) return null;
    return { address: this.#host, family: this.#host.includes(':') ? 'IPv6' : 'IPv4', port: this.#port };
  }

  get listening() { return this.#transport !== null; }

  // Stops accepting; open connections go on until they close.
  close(cb) {
    if (cb) this.once('close', cb);
    if (this.#transport === null) {
      process.nextTick(() => this.emit('close'));
      return this;
    }
    this.#transport.stop(false);
    return this;
  }

  setSecureContext({ cert, key }) {
    this.#transport?.setContext(cert, key);
    this.cert = cert;
    this.key = key;
  }

  // The C side carries the ticket keys over a context swap itself.
  getTicketKeys() { return undefined; }

  #onEvent(type, id, a, b, c) {
    if (type === EVENT.OPEN) {
      const socket = new TransportSocket(this.#transport, id, { alpn: a, address: b, port: c, highWater: TRANSPORT.highWater });
      this.#sockets.set(id, socket);
      this.emit('connection', socket);
      this.emit('secureConnection', socket);
      return;
    }
    if (type === EVENT.HANDSHAKES) {
      const dropped = Object.fromEntries(HANDSHAKE_DROPS.map((reason, i) => [reason, a[i]]));
      this.emit('handshakes', { dropped, peak: b, pending: c });
      return;
    }
    if (type === EVENT.FREED) {
      this.#transport = null;
      this.emit('close');
      return;
    }
    const socket = this.#sockets.get(id);
    if (socket === undefined) return;
    switch (type) {
      case EVENT.DATA: socket.onData(a); break;
      case EVENT.END: socket.onEnd(); break;
      case EVENT.DRAIN: socket.onDrain(); break;
      case EVENT.FINISH: socket.onFinish(); break;
      case EVENT.TIMEOUT: socket.onTimeout(); break;
      case EVENT.RENEGOTIATION: socket.onRenegotiation(); break;
      case EVENT.CLOSE:
        this.#sockets.delete(id);
        socket.onClose(a);
        break;
      default: break;
    }
  }
}

module.exports = { TransportServer };
