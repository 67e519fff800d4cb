'use strict';
// node bench/memory/pending-handshakes.js [--connections 4000] [--engine native|node] [--transport node|c]
//   [--send hello|nothing] [--settle-ms 3000] [--trim] [--json]
// What unfinished TLS handshakes cost the server, and whether it gets the memory back: starts the
// server (bench/memory/server-probe.js, in its own process) under `ulimit -n` 4 x connections + 64
// (so that the handshake guard allows them all), measures it idle, opens `connections` TCP
// connections that each send one real ClientHello and then nothing (the server answers with its
// flight and waits for the client's Finished; --send nothing: not even the ClientHello), measures while they are held, closes them all and
// measures again --settle-ms later (and with --trim once more after glibc's malloc_trim(0),
// called through gdb, which tells free memory malloc keeps from memory in use). Memory by layer as bench/memory/run.js reports it. Loopback
// only; every count is bounded. --transport c: the native engine's TLS on the C transport, whose
// own guard holds the handshakes (and caps them at PENDING_HANDSHAKES' memory bound).
const net = require('node:net');
const tls = require('node:tls');
const { parseArgs } = require('node:util');
const { markdownTable } = require('../../tools/report/markdown-table');
const { withProbe, ask, mallocTrim } = require('./probe-control');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The bytes of one ClientHello (TLS 1.3 and 1.2 offered, ALPN h2 and http/1.1), caught by a
// listener that never answers.
async function clientHello() {
  const catcher = net.createServer();
  await new Promise((resolve) => catcher.listen(0, '127.0.0.1', resolve));
  const caught = new Promise((resolve) => catcher.once('connection', (socket) => socket.once('data', (chunk) => {
    resolve(chunk);
    socket.destroy();
  })));
  const client = tls.connect({ port: catcher.address().port, host: '127.0.0.1', servername: 'localhost', ALPNProtocols: ['h2', 'http/1.1'] });
  client.on('error', () => {});
  const hello = await caught;
  client.destroy();
  catcher.close();
  return hello;
}

// Opens `count` connections, each sending `hello` and reading (and dropping) what comes back.
async function holdPending(port, hello, count) {
  const sockets = [];
  const BATCH = 100;
  for (let i = 0; i < count; i += BATCH) {
    await Promise.all(Array.from({ length: Math.min(BATCH, count - i) }, () => new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.on('error', () => {});
      socket.resume();
      socket.once('connect', () => {
        if (hello.length > 0) socket.write(hello);
        sockets.push(socket);
        resolve();
      });
      socket.once('close', resolve);
    })));
  }
  return sockets;
}

async function main() {
  const { values } = parseArgs({ options: {
    connections: { type: 'string', default: '4000' }, engine: { type: 'string', default: 'native' }, transport: { type: 'string', default: 'node' },
    send: { type: 'string', default: 'hello' }, 'settle-ms': { type: 'string', default: '3000' }, trim: { type: 'boolean', default: false }, json: { type: 'boolean', default: false },
  } });
  const count = Number(values.connections);
  if (!Number.isInteger(count) || count < 1 || count > 20_000) {
    console.error('--connections: a whole number from 1 to 20000');
    process.exitCode = 2;
    return;
  }
  // A handshake deadline long enough for all of them to be open at once on a slow machine.
  const serverOptions = { engine: values.engine, transport: values.transport, precompress: false, timeouts: { handshakeTimeout: 120_000 } };
  const probe = { prefix: 'negotiate-pending-', files: { 'index.html': '<p>hi</p>' }, serverOptions, fdLimit: 4 * count + 64 };
  await withProbe(probe, async ({ child, port }) => {
    const hello = values.send === 'hello' ? await clientHello() : Buffer.alloc(0);
    const idle = await ask(child, 'measure');
    const started = performance.now();
    const sockets = await holdPending(port, hello, count);
    const openMs = performance.now() - started;
    await sleep(1000);
    const held = await ask(child, 'measure');
    const stillOpen = sockets.filter((s) => !s.destroyed).length;
    for (const socket of sockets) socket.destroy();
    await sleep(Number(values['settle-ms']));
    const after = await ask(child, 'measure');
    let trimmed = null;
    if (values.trim) {
      mallocTrim(child.pid);
      trimmed = await ask(child, 'measure');
    }
    const malloc = { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? null, GLIBC_TUNABLES: process.env.GLIBC_TUNABLES ?? null };
    const result = { engine: values.engine, transport: values.transport, connections: count, stillOpen, openMs: Math.round(openMs), malloc, idle, held, after, trimmed };
    if (values.json) {
      console.log(JSON.stringify(result, null, 1));
      return;
    }
    console.log(`${values.engine} engine on the ${values.transport} transport, ${count} pending handshakes (${stillOpen} still open when measured, opened in ${result.openMs} ms), ${JSON.stringify(malloc)}; MiB`);
    const row = (name, m) => [name, m.before.rssMiB, m.settled.rssMiB, m.before.hwmMiB, m.settled.heapUsedMiB, m.settled.externalMiB, m.settled.threadArenasMiB];
    const rows = [row('idle', idle), row(`${count} pending`, held), row('after they closed', after)];
    if (trimmed !== null) rows.push(row('after malloc_trim', trimmed));
    const columns = ['when', 'RSS', 'RSS after GC', 'peak', 'heap used', 'external', 'thread arenas'].map((title, i) => ({ title, align: i === 0 ? 'left' : 'right' }));
    console.log(markdownTable(columns, rows));
  });
}

main().catch((err) => {
  console.error(err.stack || err);
  process.exitCode = 1;
});
