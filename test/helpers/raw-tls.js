'use strict';
// Byte-exact HTTP/1.x over TLS (or plain TCP), for requests that well-behaved clients refuse to
// send (duplicate or missing Host, unnormalised dot segments): writes `request` as is and resolves
// the parsed first response { status, headers (lower-case names, value lists), body, raw } once it
// is complete or the server closes.

const net = require('node:net');
const tls = require('node:tls');

const TIMEOUT_MS = 10_000;

function parseResponse(raw, isHead) {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) return null;
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    (headers[name] ??= []).push(line.slice(colon + 1).trim());
  }
  const body = raw.slice(end + 4);
  const length = isHead ? 0 : headers['content-length'] ? Number(headers['content-length'][0]) : null;
  if (length !== null && Buffer.byteLength(body) < length) return null;
  return { status: Number(statusLine.split(' ')[1]), statusLine, headers, body: length === null ? body : body.slice(0, length), raw };
}

function exchange(connect, request) {
  const isHead = request.startsWith('HEAD ');
  return new Promise((resolve, reject) => {
    const socket = connect(() => socket.write(request));
    let raw = '';
    let done = false;
    const finish = (err) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const res = parseResponse(raw, isHead);
      if (res !== null) resolve(res);
      else reject(err || new Error(`no complete response: ${JSON.stringify(raw)}`));
    };
    const timer = setTimeout(() => finish(new Error('timeout')), TIMEOUT_MS);
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => {
      raw += chunk;
      if (parseResponse(raw, isHead) !== null) finish();
    });
    socket.on('end', () => finish());
    socket.on('error', finish);
  });
}

function rawTls({ port, ca, request, alpn = ['http/1.1'], host = '127.0.0.1' }) {
  return exchange((onConnect) => tls.connect({ host, port, ca, servername: 'localhost', ALPNProtocols: alpn }, onConnect), request);
}

function rawTcp({ port, request, host = '127.0.0.1' }) {
  return exchange((onConnect) => net.connect(port, host, onConnect), request);
}

module.exports = { rawTls, rawTcp };
