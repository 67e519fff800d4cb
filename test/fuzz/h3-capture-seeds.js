'use strict';
// Records what aioquic's HTTP/3 client (test/helpers/h3-client.py: H3Connection, QPACK through
// pylsqpack with a dynamic table and Huffman) sends, as seeds for the h3-connection fuzz target:
// the engine over the real QUIC transport and core, each connection's client streams kept in
// arrival order as records of h3-input.js. Needs Node 24 (the transport) and python3 with aioquic:
//   node test/fuzz/h3-capture-seeds.js
// Seeds are named aioquic-<first 16 hex of SHA-1>, so running it again adds only new inputs.

const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFile } = require('node:child_process');
const quic = require('../../native/quic');
const { serveHttp3 } = require('../../server/engines/h3');
const { TIMEOUTS } = require('../../server/config/limits');
const { normalizeOptions } = require('../../server/config/options');
const { createCore } = require('../../server/site/create-core');
const { makeCa, makeLeaf } = require('../../server/tls/x509');
const { STREAM, ACTION, UNI_SLOTS, REQUEST_SLOTS, encodeRecords } = require('./h3-input');

const SEED_DIR = path.join(__dirname, '..', 'fixtures', 'h3-streams');
const CLIENT = path.join(__dirname, '..', 'helpers', 'h3-client.py');
const FILES = { 'hello.txt': 'hello over HTTP/3\n'.repeat(20), 'index.html': `<!doctype html><title>seed</title>${'<p>text</p>'.repeat(200)}`, 'dir/a.txt': 'a\n' };
// Each list is one connection (at most REQUEST_SLOTS requests: the input format's streams).
const SESSIONS = [
  [{ path: '/hello.txt' }],
  [{ path: '/index.html', headers: { 'accept-encoding': 'gzip, br, zstd', 'user-agent': 'aioquic' } },
    { path: '/index.html', headers: { 'accept-encoding': 'gzip, br, zstd', 'user-agent': 'aioquic' } },
    { path: '/hello.txt', headers: { range: 'bytes=3-40', 'user-agent': 'aioquic' } },
    { path: '/dir/a.txt', method: 'HEAD', headers: { 'user-agent': 'aioquic' } },
    { path: '/missing', headers: { 'if-none-match': '"x"', cookie: 'a=b; c=d' } }],
  [{ path: '/dir/' }, { path: '/dir' }, { path: '/index.html', headers: { 'if-modified-since': 'Sat, 01 Jan 2000 00:00:00 GMT' } }],
];

const quiet = { enabled: () => false, debug() {}, info() {}, warn() {}, error() {} };

// Wraps the engine's stream callbacks so that each client stream's octets are recorded first.
function recordConnection(conn, records) {
  const uni = [];
  const onstream = conn.onstream;
  conn.onstream = (stream) => {
    onstream(stream);
    let slot;
    if (stream.bidi) {
      slot = stream.id / 4 < REQUEST_SLOTS ? STREAM.REQUEST + stream.id / 4 : null;
    } else {
      uni.push(stream.id);
      slot = uni.length <= UNI_SLOTS ? uni.length - 1 : null;
    }
    if (slot === null) return;
    const ondata = stream.ondata;
    stream.ondata = (buf, fin) => {
      // aioquic sends each request after the last response: the replay waits for the answers.
      records.push({ slot, action: fin ? ACTION.FIN : ACTION.DATA, read: true, wait: true, bytes: Buffer.from(buf) });
      ondata(buf, fin);
    };
    const onreset = stream.onreset;
    stream.onreset = (code) => {
      records.push({ slot, action: ACTION.RESET, wait: true });
      onreset(code);
    };
  };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h3-capture-'));
  try {
    const root = path.join(dir, 'root');
    for (const [name, content] of Object.entries(FILES)) {
      fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
      fs.writeFileSync(path.join(root, name), content);
    }
    const ca = await makeCa('negotiate-h2 h3 capture CA');
    const leaf = await makeLeaf(ca);
    const caFile = path.join(dir, 'ca.pem');
    fs.writeFileSync(caFile, ca.cert);
    const core = createCore(normalizeOptions({ root, precompress: false, logLevel: 'silent' }), quiet);
    const captured = [];
    const listener = quic.listen({
      host: '127.0.0.1', port: 0, cert: Buffer.from(leaf.cert), key: Buffer.from(leaf.key), alpn: ['h3'],
      onconnection: (conn) => {
        const records = [];
        captured.push(records);
        serveHttp3(conn, { core, log: quiet, timeouts: TIMEOUTS, isClosing: () => false });
        recordConnection(conn, records);
      },
    });
    for (const requests of SESSIONS) {
      await new Promise((resolve, reject) => {
        const child = execFile('python3', [CLIENT, '127.0.0.1', String(listener.port), caFile, 'localhost'], { timeout: 60_000 },
          (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)));
        child.stdin.end(JSON.stringify(requests));
      });
    }
    listener.destroy();
    await core.close();
    fs.mkdirSync(SEED_DIR, { recursive: true });
    for (const records of captured) {
      const seed = encodeRecords(records);
      const name = `aioquic-${crypto.createHash('sha1').update(seed).digest('hex').slice(0, 16)}`;
      fs.writeFileSync(path.join(SEED_DIR, name), seed);
      console.log(`${name}: ${records.length} records, ${seed.length} octets`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err.stack || err);
  process.exit(1);
});
