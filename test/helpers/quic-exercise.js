'use strict';
// Drives the QUIC transport (native/quic.js over native/quic/) through its paths once, for a run
// under valgrind (test/integration/quic-transport.test.js), with aioquic as the peer: handshakes
// (Retry included), many echoed streams and a 256 KiB reply on one connection, our unidirectional
// stream, the peer's RESET_STREAM and STOP_SENDING, a peer that stops reading (write() false,
// ondrain), our close(code), the peer's transport error, an idle timeout, a handshake left
// unfinished past its deadline, a refused connection past maxConnections, a certificate swap,
// then close() with a connection open and destroy(). Prints "exercised N exchanges" and exits 0
// once the listener is closed; throws on any wrong answer.

const crypto = require('node:crypto');
const fs = require('node:fs');
const quic = require('../../native/quic');
const { makeIdentities, rawClient } = require('./quic-peer');

const BIG = crypto.randomBytes(256 << 10);
const TIMEOUT_MS = 240_000; // aioquic against a server under valgrind

const sha256 = (buf) => crypto.createHash('sha256').update(buf).digest('hex');

// Answers each peer stream once it ends: "big" with BIG, "uni" with our unidirectional stream,
// "close" with close(0x10b), anything else echoed.
function serve(conn, closes) {
  conn.onclose = (info) => closes.push(info);
  conn.onstream = (stream) => {
    const parts = [];
    stream.onstopsending = (code) => stream.reset(code);
    stream.ondata = (buf, fin) => {
      parts.push(buf);
      if (!fin) return;
      const text = Buffer.concat(parts).toString('latin1');
      if (text === 'big') {
        let offset = 0;
        const pump = () => {
          while (offset < BIG.length) {
            const chunk = BIG.subarray(offset, offset + 50_000);
            offset += chunk.length;
            if (!stream.write(chunk, offset === BIG.length)) return;
          }
        };
        stream.ondrain = pump;
        pump();
      } else if (text === 'uni') {
        conn.openUniStream().write(Buffer.from('control'), true);
        stream.end();
      } else if (text === 'close') {
        conn.close(0x10b, 'bye');
      } else {
        stream.write(Buffer.from(`echo:${text}`), true);
      }
    };
  };
}

async function main() {
  const { dir, identities: [first, second] } = await makeIdentities(2);
  const closes = [];
  const conns = [];
  const listener = quic.listen({
    host: '127.0.0.1', port: 0, cert: first.cert, key: first.key, alpn: ['h3'], handshakeTimeoutMs: 3000,
    maxConnections: 2, streamHighWater: 16_384,
    onconnection: (conn) => { conns.push(conn); serve(conn, closes); },
  });
  const listenerClosed = new Promise((resolve) => { listener.onclose = resolve; });
  let exchanges = 0;
  const check = (ok, what, detail) => {
    if (!ok) throw new Error(`${what}: ${JSON.stringify(detail)}`);
    exchanges++;
  };
  const run = (plan, caFile = first.caFile) => rawClient(listener.port, caFile, { timeout: 200, ...plan }, TIMEOUT_MS);
  const stream = (result, id, body) => {
    const want = { length: body.length, sha256: sha256(body), fin: true, reset: null };
    check(JSON.stringify(result.streams[id]) === JSON.stringify(want), `stream ${id}`, result.streams[id]);
  };

  const echoes = Array.from({ length: 20 }, (_, i) => ({ send: `s${i} `, repeat: i + 1 }));
  let result = await run({ streams: [...echoes, { send: 'big' }, { send: 'uni' }] });
  echoes.forEach((e, i) => stream(result, result.ids[i], Buffer.from(`echo:${e.send.repeat(e.repeat)}`)));
  stream(result, result.ids[20], BIG);
  stream(result, '3', Buffer.from('control'));

  result = await run({ streams: [{ send: 'partial', fin: false, reset: 0x10c, stop: 0x10c, expect: false }], linger: 0.5, timeout: 2 });
  check(result.streams['0']?.reset === 0x10c, 'our reset answers STOP_SENDING', result.streams);

  result = await run({ streams: [{ send: 'big' }], pause: 0.5 });
  stream(result, '0', BIG);

  result = await run({ streams: [{ send: 'close' }], wait_close: true });
  check(result.close?.code === 0x10b && result.close.reason === 'bye', 'our close', result.close);

  await run({ streams: [{ send: 'x' }], close: { code: 0x0a, frame_type: 0, reason: 'bad' } });
  // A listener of its own, so that a slow exchange elsewhere is not taken for an idle one.
  const idler = quic.listen({
    host: '127.0.0.1', port: 0, cert: first.cert, key: first.key, alpn: ['h3'], idleTimeoutMs: 1000,
    onconnection: (conn) => serve(conn, closes),
  });
  const idlerClosed = new Promise((resolve) => { idler.onclose = resolve; });
  result = await rawClient(idler.port, first.caFile, { linger: 4, timeout: 1 }, TIMEOUT_MS);
  check(result.close?.code === 0x100 && result.close.reason === 'idle timeout', 'our idle timeout', result.close);
  idler.close();
  await idlerClosed;

  // A handshake left unfinished holds one of the two slots until its deadline; with the other
  // held by an open connection, a third connection is refused.
  const held = conns.length + 1;
  const holder = run({ streams: [{ send: 'hold', fin: false, expect: false }], linger: 6, timeout: 1 });
  while (conns.length < held) await new Promise((resolve) => setTimeout(resolve, 50));
  await run({ stall: true });
  result = await run({ streams: [{ send: 'refused' }], timeout: 3 });
  check(JSON.stringify(result.streams) === '{}' && conns.length === held, 'a connection past maxConnections', result);
  await new Promise((resolve) => setTimeout(resolve, 3500));

  listener.setSecureContext({ cert: second.cert, key: second.key });
  result = await run({ streams: [{ send: 'new certificate' }] }, second.caFile);
  stream(result, '0', Buffer.from('echo:new certificate'));

  listener.close();
  await holder;
  listener.destroy();
  await listenerClosed;
  const transport = closes.filter((c) => c.transport).map((c) => [c.code, c.byPeer, c.reason]);
  check(JSON.stringify(transport) === JSON.stringify([[0x0a, true, 'bad'], [0x100, false, 'idle timeout']]), 'transport closes', closes);
  fs.rmSync(dir, { recursive: true, force: true });
  console.log(`exercised ${exchanges} exchanges`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
