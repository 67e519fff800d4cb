'use strict';
// node bench/flood/run.js zero-window [--connections 40] [--streams 128] [--engine node|native]
// node bench/flood/run.js pipeline [--connections 40] [--requests 20000] [--path /small.txt]
// Starts a fresh server (node server --port 0) on a temporary root (a 32 MiB file, a 16 KiB
// file, a 3-byte file) and floods it from this process with clients that take nothing:
// zero-window: HTTP/2 sessions with SETTINGS_INITIAL_WINDOW_SIZE 0, each opening `streams`
//   requests for the 32 MiB file and never sending WINDOW_UPDATE;
// pipeline: TLS connections (ALPN http/1.1) each writing `requests` pipelined GETs and never
//   reading.
// Holds the flood for --hold-ms, meanwhile checks that another client is still served, then
// closes every connection and prints the server's RSS: before, peak during, and after close.
const crypto = require('node:crypto');
const fs = require('node:fs/promises');
const http2 = require('node:http2');
const https = require('node:https');
const os = require('node:os');
const path = require('node:path');
const tls = require('node:tls');
const { parseArgs } = require('node:util');
const { writeSelfSignedCert } = require('../lib/tls-cert');
const { parseStatusKb } = require('../lib/proc-sampler');
const { installCleanupHandlers, registerTempDir, removeTempDir } = require('../lib/process-group');
const { startProjectServer } = require('../server/project-server');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const MiB = 1024 * 1024;
const SETTLE_MS = 5000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function rssMiB(pid) {
  return parseStatusKb(await fs.readFile(`/proc/${pid}/status`, 'utf8'), 'VmRSS') / 1024;
}

function zeroWindowFlood(origin, ca, { connections, streams }) {
  const sessions = [];
  for (let c = 0; c < connections; c++) {
    const session = http2.connect(origin, { ca, servername: 'localhost', settings: { initialWindowSize: 0 } });
    session.on('error', () => {});
    for (let i = 0; i < streams; i++) session.request({ ':path': '/big.bin' }).on('error', () => {}).end();
    sessions.push(session);
  }
  return () => { for (const session of sessions) session.destroy(); };
}

function pipelineFlood(port, ca, { connections, requests, path: target }) {
  const sockets = [];
  for (let c = 0; c < connections; c++) {
    const socket = tls.connect({ host: '127.0.0.1', port, ca, servername: 'localhost', ALPNProtocols: ['http/1.1'] }, () => {
      socket.pause();
      socket.write(`GET ${target} HTTP/1.1\r\nHost: localhost\r\n\r\n`.repeat(requests));
    });
    socket.on('error', () => {});
    sockets.push(socket);
  }
  return () => { for (const socket of sockets) socket.destroy(); };
}

// Resolves the status and milliseconds of one HTTP/1.1 request, or 'timeout' after 10 s.
function probe(port, ca) {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = https.get({ host: '127.0.0.1', port, path: '/small.txt', ca, servername: 'localhost', agent: false, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(`${res.statusCode} in ${Math.round(performance.now() - started)} ms`));
    });
    req.on('timeout', () => { req.destroy(); resolve('timeout'); });
    req.on('error', (err) => resolve(err.message));
  });
}

async function main() {
  const { positionals: [mode], values } = parseArgs({ allowPositionals: true, options: {
    connections: { type: 'string', default: '40' }, streams: { type: 'string', default: '128' },
    requests: { type: 'string', default: '20000' }, path: { type: 'string', default: '/small.txt' },
    'hold-ms': { type: 'string', default: '8000' }, engine: { type: 'string', default: 'node' },
  } });
  if (mode !== 'zero-window' && mode !== 'pipeline') throw new Error('usage: run.js zero-window|pipeline [options]');
  installCleanupHandlers();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'negotiate-flood-'));
  registerTempDir(dir);
  const root = path.join(dir, 'root');
  await fs.mkdir(root);
  await fs.writeFile(path.join(root, 'big.bin'), crypto.randomBytes(32 * MiB));
  await fs.writeFile(path.join(root, 'page.bin'), crypto.randomBytes(16 * 1024));
  await fs.writeFile(path.join(root, 'small.txt'), 'ok\n');
  const { cert, key } = await writeSelfSignedCert(dir);
  const ca = await fs.readFile(cert);
  const server = await startProjectServer({ serverDir: path.join(REPO_ROOT, 'server'), root, workers: 1, engine: values.engine, caps: { engineOption: true }, cert, key, pin: (cmd, args) => [cmd, args] });
  const port = Number(new URL(server.url).port);
  try {
    await sleep(500);
    const before = await rssMiB(server.pgid);
    let peak = before;
    const sampler = setInterval(async () => { peak = Math.max(peak, await rssMiB(server.pgid).catch(() => 0)); }, 200);
    const stop = mode === 'zero-window'
      ? zeroWindowFlood(`https://127.0.0.1:${port}`, ca, { connections: Number(values.connections), streams: Number(values.streams) })
      : pipelineFlood(port, ca, { connections: Number(values.connections), requests: Number(values.requests), path: values.path });
    await sleep(Number(values['hold-ms']) / 2);
    const other = await probe(port, ca);
    await sleep(Number(values['hold-ms']) / 2);
    stop();
    clearInterval(sampler);
    await sleep(SETTLE_MS);
    const after = await rssMiB(server.pgid);
    console.log(JSON.stringify({ mode, ...values, rssMiB: { before: +before.toFixed(1), peak: +peak.toFixed(1), [`${SETTLE_MS / 1000}sAfterClose`]: +after.toFixed(1) }, otherClient: other }));
  } finally {
    await server.stop();
    await removeTempDir(dir);
  }
}

main().catch((err) => {
  console.error(err.stack || err);
  process.exitCode = 1;
});
