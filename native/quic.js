'use strict';
// The QUIC transport under HTTP/3 (server/engines/h3/): the addon quic.node (a local build, else the
// prebuild; native/js/platform-addon.js), sources
// in native/quic/, on OpenSSL 3.5's QUIC server from the node binary (Node 22.20+ and 24), driven
// on Node's own loop. The interface is the contract in docs/transport.md ("QUIC").
//
// How events flow: a uv_poll_t on the UDP socket and a uv_timer_t armed from OpenSSL's next
// deadline wake the pump (native/quic/server.c). Each pass is SSL_handle_events on the listener,
// then every connection and stream is checked (OpenSSL does not say which changed); what they had
// (handshakes done, new streams, bytes with FIN, RESET_STREAM, STOP_SENDING, drains, closes) goes
// to onEvents below as ONE flat array per pass, EVENT_SLOTS values per event. Passes repeat while
// one finds news or JavaScript wrote, at most 16 per wake-up.
//
// Memory bounds: a stream's writes are copied into a queue, and OpenSSL is handed bytes only while
// what it holds unacknowledged is under streamHighWater, so write() returning false bounds a
// stream at about streamHighWater plus one write whatever the peer does; OpenSSL's own limits
// bound what a peer can send (100 streams, 512 KiB a stream, 768 KiB a connection); connections
// past maxConnections are refused, one whose handshake is not done by handshakeTimeoutMs
// after OpenSSL hands it over is dropped, and one without stream activity for idleTimeoutMs is
// closed (our timer: OpenSSL keeps a live peer's connection open with PINGs).
//
// What OpenSSL 3.5.8 does not do: 0-RTT, connection migration, GSO, connection IDs other than 8
// bytes, choosing its flow-control limits, a server connection's peer address (remoteAddress ''),
// advertising an idle timeout other than its 30 s default, or sending STOP_SENDING with a code of
// ours (stopSending(code) stops delivery at once; OpenSSL sends
// STOP_SENDING with code 0 when the stream is released).
const { isIP } = require('node:net');
const { requirePlatformAddon } = require('./js/platform-addon');

const DEFAULTS = Object.freeze({
  idleTimeoutMs: 30_000, handshakeTimeoutMs: 10_000, maxConnections: 4096, streamHighWater: 65_536,
  // Retry before a connection: proof of the client's address against spoofed floods, at a round
  // trip per connection.
  validateAddress: true,
});
const H3_NO_ERROR = 0x100;
const MIN_OPENSSL = [3, 5];
const U32 = 2 ** 32 - 1;
const MAX_CODE = 2 ** 53;

// As native/quic/binding.c lays them out: [type, connection id, a, b, c, d].
const EVENT_SLOTS = 6;
const EVENT = Object.freeze({
  CONNECTION: 0, STREAM: 1, DATA: 2, RESET: 3, STOP_SENDING: 4, DRAIN: 5, STREAM_CLOSE: 6, CLOSE: 7, LISTENER_CLOSE: 8,
});

const coded = (ErrorType, code, message) => Object.assign(new ErrorType(message), { code });
const invalid = (message) => coded(TypeError, 'ERR_QUIC_INVALID_ARGUMENT', message);
const closedError = () => coded(Error, 'ERR_QUIC_CLOSED', 'the QUIC stream or connection is closed');

let addon = null;
let unsupported;

/** Whether an OpenSSL of this version ('3.5.8', '3.0.17+quic', ...) has the QUIC server API. */
function opensslHasQuic(version = '0.0') {
  const [major, minor] = version.split('.').map((n) => Number.parseInt(n, 10));
  return major > MIN_OPENSSL[0] || (major === MIN_OPENSSL[0] && minor >= MIN_OPENSSL[1]);
}

/** { ok: true } or { ok: false, reason } (one line); checks OpenSSL before loading the addon. */
function support() {
  if (addon) return { ok: true };
  if (unsupported === undefined) {
    if (!opensslHasQuic(process.versions.openssl)) {
      unsupported = `needs Node 22.20+ or 24 with its bundled OpenSSL 3.5 (this is Node ${process.versions.node} with OpenSSL ${process.versions.openssl})`;
    } else {
      try {
        addon = requirePlatformAddon('quic');
        return { ok: true };
      } catch (err) {
        unsupported = err.code === 'MODULE_NOT_FOUND'
          ? 'the QUIC addon was not built (no OpenSSL 3.5 headers at build time): npm rebuild negotiate-h2 under Node 24'
          : `the QUIC addon does not load: ${String(err.message).split('\n')[0]}`;
      }
    }
  }
  return { ok: false, reason: unsupported };
}

// A callback's exception surfaces as an uncaught one on the next tick (as an EventEmitter
// listener's would) while the rest of the pass is still delivered.
function call(target, name, ...args) {
  const fn = target[name];
  if (typeof fn !== 'function') return;
  try {
    fn.apply(target, args);
  } catch (err) {
    process.nextTick(() => { throw err; });
  }
}

const alpnWire = (protocols) => {
  if (!Array.isArray(protocols) || protocols.length === 0) throw invalid('alpn must be a non-empty array of protocol names');
  return Buffer.concat(protocols.map((name) => {
    if (typeof name !== 'string' || name.length < 1 || name.length > 255) throw invalid(`ALPN protocol ${name} must be 1-255 bytes`);
    return Buffer.concat([Buffer.from([name.length]), Buffer.from(name, 'latin1')]);
  }));
};

const pem = (value, name) => {
  if (Buffer.isBuffer(value)) return value;
  if (typeof value === 'string') return Buffer.from(value, 'latin1');
  throw invalid(`${name} must be a PEM Buffer`);
};

function count(options, name, min) {
  const value = options[name] ?? DEFAULTS[name];
  if (!Number.isInteger(value) || value < min || value > U32) throw invalid(`${name} must be an integer ${min}-${U32}, got ${value}`);
  return value;
}

function errorCode(code) {
  if (!Number.isInteger(code) || code < 0 || code > MAX_CODE) throw invalid(`an error code must be an integer 0-2^53, got ${code}`);
  return code;
}

class QuicStream {
  #conn;
  #closed = false;
  constructor(conn, id) {
    this.#conn = conn;
    this.id = id;
    this.bidi = (id & 2) === 0;
    this.local = (id & 1) === 1; // bit 0: server-initiated
    this.ondata = null;
    this.onreset = null;
    this.onstopsending = null;
    this.ondrain = null;
    this.onclose = null;
  }

  #call(name, ...args) {
    if (this.#closed || this.#conn._gone) throw closedError();
    return this.#conn._call(name, this.id, ...args);
  }

  write(buf, fin = false) {
    if (!Buffer.isBuffer(buf) && !(buf instanceof Uint8Array)) throw invalid('write() takes a Buffer');
    const queued = this.#call('streamWrite', Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength), Boolean(fin));
    if (queued < 0) throw closedError();
    return queued < this.#conn._highWater;
  }

  end() {
    return this.write(Buffer.alloc(0), true);
  }

  reset(code) {
    this.#call('streamAbort', errorCode(code), false);
  }

  stopSending(code) {
    this.#call('streamAbort', errorCode(code), true);
  }

  get writableLength() {
    return this.#closed ? 0 : Math.max(0, this.#call('streamWritable'));
  }

  _closed() {
    this.#closed = true;
  }
}

class QuicConnection {
  #listener;
  #slot;
  #closed = false;
  constructor(listener, id, slot, alpn, address, port) {
    this.#listener = listener;
    this.#slot = slot;
    this.id = id;
    this.alpn = alpn;
    this.remoteAddress = address;
    this.remotePort = port;
    this.streams = new Map();
    this.onstream = null;
    this.onclose = null;
  }

  get _highWater() {
    return this.#listener._highWater;
  }

  // close() was called or the connection is gone: no more calls on it or its streams.
  get _gone() {
    return this.#closed;
  }

  _call(name, ...args) {
    return this.#listener._call(name, this.#slot, this.id, ...args);
  }

  openUniStream() {
    if (this.#closed) throw closedError();
    const id = this._call('connOpenUni');
    if (id === -2) throw closedError();
    if (id < 0) throw coded(Error, 'ERR_QUIC_STREAM_LIMIT', 'the peer allows no more unidirectional streams now');
    const stream = new QuicStream(this, id);
    this.streams.set(id, stream);
    return stream;
  }

  close(code, reason = '') {
    errorCode(code);
    if (typeof reason !== 'string') throw invalid('reason must be a string');
    if (this.#closed) return;
    this._call('connClose', code, reason);
    this.#closed = true;
  }

  get streamCount() {
    return this.streams.size;
  }

  _closed() {
    this.#closed = true;
  }
}

class QuicListener {
  #handle;
  #connections = new Map();
  constructor(handle, address, highWater, onconnection) {
    this.#handle = handle;
    this.address = address;
    this.port = addon.port(handle);
    this._highWater = highWater;
    this._onconnection = onconnection;
    this.onclose = null;
  }

  _call(name, ...args) {
    return addon[name](this.#handle, ...args);
  }

  setSecureContext({ cert, key } = {}) {
    addon.setContext(this.#handle, pem(cert, 'cert'), pem(key, 'key'), this._alpn);
  }

  close() {
    addon.stop(this.#handle, false);
  }

  destroy() {
    addon.stop(this.#handle, true);
  }

  // One pass's events (see EVENT_SLOTS).
  _onEvents(events) {
    for (let i = 0; i < events.length; i += EVENT_SLOTS) {
      const type = events[i];
      const conn = this.#connections.get(events[i + 1]);
      if (type === EVENT.CONNECTION) {
        const created = new QuicConnection(this, events[i + 1], events[i + 3], events[i + 2], events[i + 4], events[i + 5]);
        this.#connections.set(created.id, created);
        if (typeof this._onconnection === 'function') call(this, '_onconnection', created);
      } else if (type === EVENT.CLOSE) {
        this.#connections.delete(conn.id);
        conn._closed();
        call(conn, 'onclose', { code: events[i + 2], reason: events[i + 3], byPeer: events[i + 4], transport: events[i + 5] });
      } else if (type === EVENT.LISTENER_CLOSE) {
        call(this, 'onclose');
      } else {
        this.#streamEvent(type, conn, events[i + 2], events[i + 3], events[i + 4]);
      }
    }
  }

  #streamEvent(type, conn, id, a, b) {
    if (type === EVENT.STREAM) {
      const stream = new QuicStream(conn, id);
      conn.streams.set(id, stream);
      call(conn, 'onstream', stream);
      return;
    }
    const stream = conn.streams.get(id);
    if (!stream) return; // opened and closed by us before the peer was heard from
    if (type === EVENT.DATA) call(stream, 'ondata', a, b);
    else if (type === EVENT.RESET) call(stream, 'onreset', a);
    else if (type === EVENT.STOP_SENDING) call(stream, 'onstopsending', a);
    else if (type === EVENT.DRAIN) call(stream, 'ondrain');
    else if (type === EVENT.STREAM_CLOSE) {
      conn.streams.delete(id);
      stream._closed();
      call(stream, 'onclose');
    }
  }
}

/** A QUIC listener (see the contract in docs/transport.md); synchronous. */
function listen(options) {
  const { ok, reason } = support();
  if (!ok) throw coded(Error, 'ERR_QUIC_UNSUPPORTED', reason);
  if (options === null || typeof options !== 'object') throw invalid('listen() takes an options object');
  const { host = '::', port = 0, cert, key, alpn, onconnection } = options;
  if (typeof host !== 'string' || !isIP(host)) throw invalid(`host must be an IP address, got ${host}`);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw invalid(`port must be 0-65535, got ${port}`);
  if (onconnection !== undefined && typeof onconnection !== 'function') throw invalid('onconnection must be a function');
  const highWater = count(options, 'streamHighWater', 1);
  const validateAddress = options.validateAddress ?? DEFAULTS.validateAddress;
  if (typeof validateAddress !== 'boolean') throw invalid('validateAddress must be a boolean');
  const wire = alpnWire(alpn);
  let listener = null;
  let handle;
  try {
    handle = addon.listen(host, port, pem(cert, 'cert'), pem(key, 'key'), wire, count(options, 'idleTimeoutMs', 1),
      count(options, 'handshakeTimeoutMs', 1), count(options, 'maxConnections', 1), highWater, validateAddress,
      (events) => listener._onEvents(events));
  } catch (err) {
    if (err.code === 'ERR_QUIC_TLS') throw coded(Error, 'ERR_QUIC_INVALID_ARGUMENT', err.message);
    if (err.code?.startsWith('ERR_QUIC')) throw err;
    // napi_util's listen error: code is the errno's name (EADDRINUSE...).
    throw Object.assign(new Error(err.message), { code: 'ERR_QUIC_LISTEN', errno: err.code, syscall: 'bind' });
  }
  listener = new QuicListener(handle, host, highWater, onconnection);
  listener._alpn = wire;
  return listener;
}

module.exports = { support, listen, opensslHasQuic, DEFAULTS, H3_NO_ERROR };
