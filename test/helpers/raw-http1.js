'use strict';
// Raw HTTP/1.1 over TLS for malformed-input tests: sends exact bytes, collects everything the
// server sends until it closes, and splits that into responses.

const tls = require('node:tls');

const WAIT_MS = 5_000;

// Resolves { bytes (Buffer), closed (false if still open after waitMs) }.
function exchange({ port, ca, payload, waitMs = WAIT_MS, host = '127.0.0.1' }) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    const socket = tls.connect({ host, port, ca, servername: 'localhost', ALPNProtocols: ['http/1.1'] }, () => socket.write(payload));
    const timer = setTimeout(() => { socket.destroy(); resolve({ bytes: Buffer.concat(chunks), closed: false }); }, waitMs);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', (err) => { if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') reject(err); });
    socket.on('close', () => { clearTimeout(timer); resolve({ bytes: Buffer.concat(chunks), closed: true }); });
  });
}

// Splits a response stream: [{ status, headers (lowercase names), body (Buffer) }]. Interim
// (1xx) responses are skipped; `headRequests` leading responses are to HEAD (no body).
function parseResponses(bytes, { headRequests = 0 } = {}) {
  const out = [];
  let pos = 0;
  const text = bytes.toString('latin1');
  while (pos < text.length) {
    const end = text.indexOf('\r\n\r\n', pos);
    if (end === -1) throw new Error(`truncated response head: ${JSON.stringify(text.slice(pos, pos + 200))}`);
    const lines = text.slice(pos, end).split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3}) /.exec(lines[0] + ' ');
    if (!m) throw new Error(`bad status line: ${JSON.stringify(lines[0])}`);
    const status = Number(m[1]);
    const headers = {};
    for (const line of lines.slice(1)) {
      const i = line.indexOf(':');
      const name = line.slice(0, i).toLowerCase();
      const value = line.slice(i + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    pos = end + 4;
    if (status < 200) continue;
    let body = Buffer.alloc(0);
    if (out.length < headRequests || status === 304 || status === 204) {
      // no body
    } else if (headers['content-length'] !== undefined) {
      const n = Number(headers['content-length']);
      body = bytes.subarray(pos, pos + n);
      if (body.length < n) throw new Error(`body short of Content-Length ${n}`);
      pos += n;
    } else if (/chunked/i.test(headers['transfer-encoding'] || '')) {
      const parts = [];
      for (;;) {
        const eol = text.indexOf('\r\n', pos);
        const size = parseInt(text.slice(pos, eol), 16);
        pos = eol + 2;
        if (size === 0) { pos += 2; break; }
        parts.push(bytes.subarray(pos, pos + size));
        pos += size + 2;
      }
      body = Buffer.concat(parts);
    } else {
      body = bytes.subarray(pos);
      pos = bytes.length;
    }
    out.push({ status, headers, body });
  }
  return out;
}

module.exports = { exchange, parseResponses };
