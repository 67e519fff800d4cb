'use strict';
// Drives the C connection transport (native/transport.js transportListen) through its paths once,
// for a run under valgrind (test/integration/transport-conn.test.js), with a small echo service
// in JavaScript: handshakes with each ALPN, echoed bytes checked exactly, a 2 MB answer to a
// client that reads late (partial writes, EAGAIN, drain, reads stopped and resumed), pause and
// resume, end() with close_notify, a client gone mid-answer, a silent connection dropped at the
// handshake deadline, more unfinished handshakes than the cap, the reports of those drops, a
// TLS 1.2 renegotiation refused after a write and an end() from inside OpenSSL, the idle timer,
// a context swap, and close with connections open. Prints "exercised N exchanges" and exits 0 once all is closed.

const tls = require('node:tls');
const net = require('node:net');
const { transportListen, EVENT, CONTROL } = require('../../native/transport');
const { testCertificate } = require('./server');

const BIG = Buffer.alloc(2 << 20, 'y');

function tlsClient(port, ALPNProtocols, maxVersion = undefined) {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ port, host: '127.0.0.1', rejectUnauthorized: false, ALPNProtocols, maxVersion }, () => resolve(socket));
    socket.once('error', reject);
  });
}

const closed = (socket) => new Promise((resolve) => {
  if (socket.destroyed) resolve();
  else socket.once('close', resolve);
});

// Reads until `count` bytes or the close; resolves the bytes.
function readAll(socket, count = Infinity) {
  return new Promise((resolve) => {
    const chunks = [];
    let n = 0;
    const done = () => resolve(Buffer.concat(chunks));
    socket.on('data', (c) => {
      chunks.push(c);
      n += c.length;
      if (n >= count) done();
    });
    socket.once('close', done);
  });
}

async function main() {
  const { cert, key } = await testCertificate();
  let transport;
  let exchanges = 0;
  // Each connection echoes what it gets; "big" asks for BIG, "end" for an end(), "pause" pauses
  // for 50 ms. A renegotiation is answered "bye" and an end().
  let dropped = 0;
  const onEvent = (type, id, a) => {
    if (type === EVENT.RENEGOTIATION) {
      transport.write(id, Buffer.from('bye'));
      transport.control(id, CONTROL.END);
    }
    if (type === EVENT.HANDSHAKES) dropped += a.reduce((sum, n) => sum + n, 0);
    if (type === EVENT.DATA) {
      const text = a.toString('latin1');
      if (text === 'big') transport.write(id, [Buffer.from('<'), BIG, Buffer.from('>')]);
      else if (text === 'end') transport.control(id, CONTROL.END);
      else if (text === 'pause') {
        transport.control(id, CONTROL.PAUSE);
        setTimeout(() => transport.control(id, CONTROL.RESUME), 50);
      } else transport.write(id, a);
    }
  };
  transport = transportListen({
    cert, key, alpn: ['h2', 'http/1.1'], handshakeTimeoutMs: 2000, maxHandshakes: 4, idleTimeoutMs: 1500,
    highWater: 16384, maxPending: 8 << 20, onEvent,
  });
  const { port } = transport;
  const check = (got, want, what) => {
    if (!got.equals(want)) throw new Error(`${what}: ${got.length} bytes, not the expected ${want.length}`);
    exchanges++;
  };

  for (const alpn of [['h2'], ['http/1.1'], undefined]) {
    const s = await tlsClient(port, alpn);
    const got = readAll(s, 5);
    s.write('hello');
    check(await got, Buffer.from('hello'), `echo ${alpn}`);
    s.destroy();
  }

  const slow = await tlsClient(port, ['h2']);
  slow.write('big');
  await new Promise((r) => setTimeout(r, 300)); // the answer backs up in the server
  check(await readAll(slow, BIG.length + 2), Buffer.concat([Buffer.from('<'), BIG, Buffer.from('>')]), 'big');
  slow.destroy();

  const paused = await tlsClient(port, ['h2']);
  paused.write('pause');
  await new Promise((r) => setTimeout(r, 10));
  const echoed = readAll(paused, 3);
  paused.write('abc');
  check(await echoed, Buffer.from('abc'), 'after resume');
  paused.destroy();

  const ended = await tlsClient(port, ['h2']);
  const all = readAll(ended);
  ended.write('end');
  check(await all, Buffer.alloc(0), 'end');

  const gone = await tlsClient(port, ['h2']);
  gone.write('big');
  await new Promise((r) => setTimeout(r, 100));
  gone.destroy();

  const idle = await tlsClient(port, ['h2']);
  await closed(idle); // the idle timer
  exchanges++;

  const silent = await Promise.all(Array.from({ length: 6 }, () => new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => resolve(s));
    s.on('error', () => {});
  })));
  await Promise.all(silent.map(closed)); // 2 over the cap at once, the rest at the deadline
  await new Promise((r) => setTimeout(r, 50)); // the report comes on the loop's next turn
  if (dropped !== 6) throw new Error(`${dropped} handshake drops reported, not 6`);
  exchanges++;

  const renegotiating = await tlsClient(port, ['h2'], 'TLSv1.2');
  renegotiating.on('error', () => {}); // the no_renegotiation alert
  const bye = readAll(renegotiating);
  renegotiating.renegotiate({ rejectUnauthorized: false }, () => {});
  check(await bye, Buffer.from('bye'), 'renegotiation refused');

  transport.setContext(cert, key);
  const open = await tlsClient(port, ['http/1.1']);
  open.on('error', () => {});
  transport.stop(true);
  await closed(open);
  console.log(`exercised ${exchanges + 1} exchanges`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
