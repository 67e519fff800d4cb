'use strict';
// The floor of HTTP/1.1 over node:tls: a TLS server that answers each request with a response
// prebuilt at start (bench/server/floor-responses.js), with no
// parsing beyond finding the target and no file system work. What it costs per request is what
// node:tls and Node's socket streams cost by themselves: no server on node:tls can go below it.
// Serves the br rows of HTTPS/1.1 only (every client the rows rotate through accepts br).
//   node bench/server/floor-tls.js --root DIR --port N --cert FILE --key FILE

const fs = require('node:fs');
const tls = require('node:tls');
const { parseArgs } = require('node:util');
const { prebuilt, NOT_FOUND } = require('./floor-responses');

const END_OF_HEAD = Buffer.from('\r\n\r\n');

function main() {
  const { values } = parseArgs({ options: { root: { type: 'string' }, port: { type: 'string' }, cert: { type: 'string' }, key: { type: 'string' } } });
  const responses = prebuilt(values.root);
  const server = tls.createServer({ cert: fs.readFileSync(values.cert), key: fs.readFileSync(values.key), ALPNProtocols: ['http/1.1'] }, (socket) => {
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      const out = [];
      let at = 0;
      for (let end; (end = pending.indexOf(END_OF_HEAD, at)) !== -1; at = end + 4) {
        const lineEnd = pending.indexOf(32, pending.indexOf(32, at) + 1);
        const target = pending.latin1Slice(pending.indexOf(32, at) + 1, lineEnd);
        out.push(responses.get(target) || NOT_FOUND);
      }
      pending = pending.subarray(at);
      if (out.length === 1) socket.write(out[0]);
      else if (out.length > 1) socket.write(Buffer.concat(out));
    });
    socket.on('error', () => socket.destroy());
  });
  server.listen(Number(values.port), '127.0.0.1', () => console.log(`https://127.0.0.1:${server.address().port}/`));
}

main();
