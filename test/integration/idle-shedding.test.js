'use strict';
// Under descriptor pressure the native engine closes the connections idle longest
// (server/engines/idle-shedding.js): a server limited to 128 descriptors (so 80 connections)
// holding 70 HTTP/2 connections that made no request for a while sends GOAWAY NO_ERROR to
// enough of them, when 20 more arrive, to stay under its limit; the newer ones stay open and a
// new client is served. The idle timeout alone would close them seconds later.

const test = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const { setTimeout: sleep } = require('node:timers/promises');
const { REPO_ROOT, makeTempDir, writeFiles } = require('../helpers/server');
const { RawH2Client } = require('../helpers/h2-raw-client');
const { waitFor } = require('../helpers/poll');
const fsp = require('node:fs/promises');
const path = require('node:path');

const FD_LIMIT = 128; // 5/8 of it: 80 connections
const OLD = 70;
const NEW = 20;
// Its idle timer ticks every 2 s: the old connections have been idle a tick when the new arrive.
const IDLE_MS = 8000;
const NO_ERROR = 0;

// A server in a child process under `ulimit -n FD_LIMIT`, with a short http2IdleTimeout.
const SERVER = `
const { startServer } = require(${JSON.stringify(path.join(REPO_ROOT, 'server'))});
const { generateSelfSigned } = require(${JSON.stringify(path.join(REPO_ROOT, 'server/tls/certs'))});
Promise.resolve(generateSelfSigned()).then((tls) => startServer({ host: '127.0.0.1', port: 0, root: process.argv[1],
  logLevel: 'silent', engine: 'native', precompress: false, tls, timeouts: { http2IdleTimeout: ${IDLE_MS} } }))
  .then((s) => console.log('port', s.port));
`;

function startLimited(root) {
  const child = spawn('/bin/sh', ['-c', 'ulimit -n "$0" && exec "$@"', String(FD_LIMIT), process.execPath, '-e', SERVER, root],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /port (\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
  });
}

test('past 5/8 of the descriptor limit, the connections idle longest get GOAWAY NO_ERROR; newer ones stay', async (ctx) => {
  const dir = await makeTempDir('negotiate-shed-');
  ctx.after(() => fsp.rm(dir, { recursive: true, force: true }));
  await writeFiles(path.join(dir, 'root'), { 'index.html': '<p>hi</p>' });
  const { child, port } = await startLimited(path.join(dir, 'root'));
  const clients = [];
  ctx.after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    child.kill();
  });
  for (let i = 0; i < OLD; i++) clients.push(await RawH2Client.connect(port));
  await sleep(IDLE_MS / 4 + 500);
  for (let i = 0; i < NEW; i++) clients.push(await RawH2Client.connect(port));
  const goaways = () => clients.map((c) => c.frames.find((f) => f.type === 0x7));
  // 90 open, over 80: at least the 10 over it are told to go, all of them old ones.
  await waitFor(() => goaways().filter(Boolean).length >= OLD + NEW - 80, { what: () => `${goaways().filter(Boolean).length} GOAWAYs` });
  const told = goaways();
  assert.ok(told.slice(OLD).every((f) => f === undefined), 'a new connection was closed');
  for (const f of told.filter(Boolean)) assert.equal(f.payload.readUInt32BE(4), NO_ERROR);
  // Well before the idle timeout could have done it.
  const fresh = await RawH2Client.connect(port);
  clients.push(fresh);
  fresh.request(1, '/index.html');
  assert.equal((await fresh.response(1)).status, 200);
});
