'use strict';
// Drives the C floor (native/transport.js) through every path once, for a run under valgrind
// (test/integration/transport-floor.test.js): keep-alive and pipelined requests (more answers
// than a connection may have waiting), a response larger than the socket buffers, a client gone
// mid-response, a silent connection closed at the handshake deadline, an oversized head, and
// close() with a connection open, one at a time with the bytes checked. Prints
// "exercised N exchanges" and exits 0 once every handle is closed.

const { floorListen } = require('../../native/transport');
const { testCertificate } = require('./server');
const { rawExchange } = require('./floor-client');

const NOT_FOUND = Buffer.from('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n', 'latin1');
const get = (target) => `GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`;

async function main() {
  const { cert, key } = await testCertificate();
  const small = Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello', 'latin1');
  const big = Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 2097152\r\n\r\n', 'latin1'), Buffer.alloc(2 << 20, 'x')]);
  const server = floorListen({
    cert, key, responses: { '/small': small, '/big': big }, handshakeTimeoutMs: 2000, // handshakes under valgrind take hundreds of ms
    notFound: NOT_FOUND,
  });
  const { port } = server;
  const pipelined = Buffer.concat([small, NOT_FOUND, big, small]);
  const targets = Array.from({ length: 2000 }, (_, i) => (i === 1000 ? '/big' : '/small'));
  const floodHeads = targets.map(get).join('');
  const flood = Buffer.concat(targets.map((t) => (t === '/big' ? big : small)));
  const runs = [
    [{ writes: [get('/small') + get('/nope') + get('/big') + get('/small')], want: pipelined.length }, pipelined],
    [{ writes: [...get('/small')], want: small.length }, small],
    [{ writes: [floodHeads], want: flood.length }, flood], // answers held back past the limit
    [{ writes: [get('/big')], want: 1000 }], // gone mid-response
    [{ writes: [], plain: true }, Buffer.alloc(0)], // closed at the deadline
    [{ writes: [`GET / HTTP/1.1\r\nx: ${'a'.repeat(9000)}`] }, Buffer.alloc(0)], // head too long
    [{ writes: [Buffer.from('not tls at all\r\n\r\n')], plain: true }],
  ];
  for (const [options, expected] of runs) {
    const { bytes } = await rawExchange({ port, ...options });
    if (expected && !bytes.equals(expected)) throw new Error(`${JSON.stringify(options).slice(0, 60)}: ${bytes.length} bytes, not the expected ${expected.length}`);
  }
  const open = rawExchange({ port, writes: [get('/small')], want: Infinity });
  await new Promise((r) => setTimeout(r, 500));
  server.close();
  await open;
  console.log(`exercised ${runs.length + 1} exchanges`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
