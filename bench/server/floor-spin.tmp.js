'use strict';
// The floor of HTTP/1.1 over node:tls: a TLS server that answers each request with a response
// prebuilt at start (the root's .br variants, with the header fields our server sends), with no
// parsing beyond finding the target and no file system work. What it costs per request is what
// node:tls and Node's socket streams cost by themselves: no server on node:tls can go below it.
// Serves the br rows of HTTPS/1.1 only (every client the rows rotate through accepts br).
//   node bench/server/floor-tls.js --root DIR --port N --cert FILE --key FILE

const fs = require('node:fs');
const path = require('node:path');
const tls = require('node:tls');
const { parseArgs } = require('node:util');

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };
const END_OF_HEAD = Buffer.from('\r\n\r\n');

function prebuilt(root) {
  const responses = new Map();
  for (const name of fs.readdirSync(root)) {
    if (!name.endsWith('.br')) continue;
    const plain = name.slice(0, -3);
    const body = fs.readFileSync(path.join(root, name));
    const head = 'HTTP/1.1 200 OK\r\n' +
      `content-type: ${TYPES[path.extname(plain)] || 'application/octet-stream'}\r\n` +
      `content-length: ${body.length}\r\ncontent-encoding: br\r\nvary: Accept-Encoding\r\n` +
      `etag: "${body.length.toString(16)}-br"\r\ncache-control: public, max-age=0\r\n` +
      `date: ${new Date().toUTCString()}\r\n\r\n`;
    responses.set(`/${plain}`, Buffer.concat([Buffer.from(head, 'latin1'), body]));
  }
  return responses;
}

function main() {
  const { values } = parseArgs({ options: { root: { type: 'string' }, port: { type: 'string' }, cert: { type: 'string' }, key: { type: 'string' } } });
  const responses = prebuilt(values.root);
  const notFound = Buffer.from('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n', 'latin1');
  const server = tls.createServer({ cert: fs.readFileSync(values.cert), key: fs.readFileSync(values.key), ALPNProtocols: ['http/1.1'] }, (socket) => {
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      const out = [];
      let at = 0;
      for (let end; (end = pending.indexOf(END_OF_HEAD, at)) !== -1; at = end + 4) {
        const lineEnd = pending.indexOf(32, pending.indexOf(32, at) + 1);
        const target = pending.latin1Slice(pending.indexOf(32, at) + 1, lineEnd);
        out.push(responses.get(target) || notFound);
      }
      pending = pending.subarray(at);
      { const until = performance.now() + Number(process.env.SPIN_US) / 1000; while (performance.now() < until); }
      if (out.length === 1) socket.write(out[0]);
      else if (out.length > 1) socket.write(Buffer.concat(out));
    });
    socket.on('error', () => socket.destroy());
  });
  server.listen(Number(values.port), '127.0.0.1', () => console.log(`https://127.0.0.1:${server.address().port}/`));
}

main();
