'use strict';
// TLS handshakes that never finish, on every engine: connections that send nothing, half a
// ClientHello, or a ClientHello trickled a byte at a time are closed at the handshake deadline;
// and a server limited to 256 descriptors still answers a real client while 400 silent
// connections are open (server/engines/handshake-guard.js; on the C transport, its own guard in
// native/transport/conn.c).

const test = require('node:test');
const assert = require('node:assert/strict');
const fsp = require('node:fs/promises');
const net = require('node:net');
const path = require('node:path');
const { forEachEngine, startTestServer, spawnCli, makeTempDir, writeFiles } = require('../helpers/server');
const { createClients } = require('../helpers/clients');
const { waitFor } = require('../helpers/poll');

const DEADLINE_MS = 300;
// A ClientHello's record header and the first bytes of the handshake message (cut short).
const HALF_CLIENT_HELLO = Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]);

/** Connects to port; resolves { socket, closed (Promise of ms from connect to the server's close) }. */
function connect(port) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1');
    const closed = new Promise((done) => socket.once('close', () => done(performance.now() - started)));
    socket.on('error', () => {});
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

// Resolves the ms it took the server to close, or 'open' if it is still open after limitMs.
function closedWithin(closed, limitMs) {
  let timer;
  return Promise.race([closed, new Promise((resolve) => { timer = setTimeout(resolve, limitMs, 'open'); })])
    .finally(() => clearTimeout(timer));
}

forEachEngine((engine, transport) => {
  let t;
  test.before(async () => {
    t = await startTestServer({ engine, transport, files: { 'index.html': '<p>hi</p>' }, timeouts: { handshakeTimeout: DEADLINE_MS } });
  });
  test.after(() => t.close());

  const CASES = [
    ['a connection that sends nothing', () => {}],
    ['half a ClientHello', (socket) => socket.write(HALF_CLIENT_HELLO)],
    ['a ClientHello trickled a byte every 50 ms', (socket) => {
      let i = 0;
      const timer = setInterval(() => {
        if (socket.destroyed || i === HALF_CLIENT_HELLO.length) return clearInterval(timer);
        socket.write(HALF_CLIENT_HELLO.subarray(i, ++i));
      }, 50);
      socket.once('close', () => clearInterval(timer));
    }],
  ];
  for (const [name, send] of CASES) {
    test(`${name} is closed at the handshake deadline`, async () => {
      const conns = await Promise.all(Array.from({ length: 5 }, () => connect(t.port)));
      for (const { socket } of conns) send(socket);
      const times = await Promise.all(conns.map(({ closed }) => closedWithin(closed, DEADLINE_MS * 8)));
      for (const ms of times) {
        assert.notEqual(ms, 'open', `still open ${DEADLINE_MS * 8} ms after connecting: ${times.join(', ')}`);
        assert.ok(ms >= DEADLINE_MS - 20, `closed after ${ms} ms, before the ${DEADLINE_MS} ms deadline`);
      }
      for (const { socket } of conns) socket.destroy();
    });
  }

  test('a client that finishes its handshake is served after silent ones expired', async () => {
    const res = await t.h2('/index.html');
    assert.equal(res.status, 200);
  });

  test('a server limited to 256 descriptors answers while 400 silent connections are open', async (ctx) => {
    const dir = await makeTempDir('negotiate-fd-limit-');
    ctx.after(() => fsp.rm(dir, { recursive: true, force: true }));
    const root = path.join(dir, 'root');
    await writeFiles(root, { 'index.html': '<p>hi</p>' });
    const caDir = path.join(dir, 'ca');
    const cli = await spawnCli(['--port', '0', '--root', root, '--certs-dir', path.join(dir, 'certs'), '--ca-dir', caDir,
      '--log-level', 'warn', '--no-precompress'], { engine, transport, fdLimit: 256 });
    const silent = [];
    ctx.after(async () => {
      for (const { socket } of silent) socket.destroy();
      await cli.stop();
    });
    for (let i = 0; i < 400; i++) silent.push(await connect(cli.port));
    const clients = createClients({ port: cli.port, ca: await fsp.readFile(path.join(caDir, 'ca.pem')) });
    try {
      // Within the default 10 s handshake deadline: the server must make room, not wait for it.
      const started = performance.now();
      const res = await clients.h2('/index.html');
      assert.equal(res.status, 200);
      assert.ok(performance.now() - started < 5000, `answered after ${Math.round(performance.now() - started)} ms`);
    } finally {
      await clients.closeAll();
    }
    // The oldest silent connections made room: at most a quarter of the 256 descriptors stay pending.
    const open = () => silent.filter(({ socket }) => !socket.destroyed && socket.readyState === 'open').length;
    await waitFor(() => open() <= 64, { what: () => `at most 64 silent connections open (${open()})` });
    assert.equal(cli.child.exitCode, null, `the server exited:\n${cli.output()}`);
  });
}, { transports: true });
