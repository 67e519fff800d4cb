'use strict';
// Raw clients for the C floor (native/transport.js): bytes written as given over TLS or plain
// TCP, everything the server sends collected until it closes or `want` bytes have come.

const net = require('node:net');
const tls = require('node:tls');

const TIMEOUT_MS = 10_000;

// Resolves { bytes, closed, alpn, protocol, elapsedMs }: closed tells whether the server closed
// first, protocol is the TLS version.
// writes: Buffers or strings written one per turn of the event loop (a head split over writes).
function rawExchange({ port, writes, want = Infinity, plain = false, ALPNProtocols = ['http/1.1'], maxVersion = 'TLSv1.3' }) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const socket = plain
      ? net.connect(port, '127.0.0.1', send)
      : tls.connect({ port, host: '127.0.0.1', rejectUnauthorized: false, ALPNProtocols, maxVersion }, send);
    const chunks = [];
    let length = 0;
    let protocol = null;
    const finish = (closed) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({
        bytes: Buffer.concat(chunks), closed, alpn: socket.alpnProtocol, protocol,
        elapsedMs: Number(process.hrtime.bigint() - started) / 1e6,
      });
    };
    const timer = setTimeout(() => { socket.destroy(); reject(new Error(`timeout after ${length} bytes`)); }, TIMEOUT_MS);
    async function send() {
      if (!plain) protocol = socket.getProtocol(); // gone once the socket is destroyed
      for (const w of writes) {
        if (socket.destroyed) return;
        socket.write(w);
        await new Promise((r) => setImmediate(r));
      }
    }
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= want) finish(false);
    });
    socket.on('close', () => finish(true));
    socket.on('error', (err) => {
      if (length === 0 && err.code !== 'ECONNRESET') { clearTimeout(timer); reject(err); }
    });
  });
}

module.exports = { rawExchange };
