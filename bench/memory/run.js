'use strict';
// node bench/memory/run.js rapid-reset|accept-encoding [--rounds 3] [--engine native|node] ...
// Does memory the server takes under a hostile load come back, or stay, and which layer holds it?
// Starts the server (bench/memory/server-probe.js: startServer() in a process with --expose-gc
// and `npm start`'s V8 flags) on a temporary root with a 21 MiB compressible text file, runs
// the load `rounds` times, and after each round (all connections closed, --settle-ms later) asks
// the server for its memory by layer, before and after a forced full GC: RSS, V8 heap, external
// and ArrayBuffer memory, glibc thread arenas, and its caches. The round's peak RSS is the
// VmHWM of its first measurement (reset before the round).
// rapid-reset: `connections` TLS connections, each sending `streams` HEADERS (GET of the big
//   file, Accept-Encoding gzip, br) each followed at once by RST_STREAM (CVE-2023-44487),
//   `batch` pairs a write, until the server closes it (ENHANCE_YOUR_CALM past its reset budget).
// accept-encoding: `requests` GETs of the big file, each with its own Accept-Encoding value
//   (codings in rotating order and q-values, plus an unknown token), `concurrency` at a time on
//   one HTTP/2 connection (a new one when the server closes it); each response's body is read to the end, or with --read headers the
//   stream is cancelled when the response's headers come (the compression it started is then
//   torn down), which lets 5,000 requests of a 21 MiB file run in a minute.
// --trim: after the last round, glibc's free pages are given back (malloc_trim through gdb) and
// the server measured once more. --heap-snapshots DIR: a heap snapshot after each round
// (compare two with bench/memory/heap-diff.js). Prints a Markdown table, or with --json all.
// Loopback only; every count is bounded.
const fs = require('node:fs/promises');
const fsSync = require('node:fs');
const http2 = require('node:http2');
const path = require('node:path');
const tls = require('node:tls');
const { parseArgs } = require('node:util');
const { markdownTable } = require('../../tools/report/markdown-table');
const { withProbe, ask, mallocTrim } = require('./probe-control');
const { FRAME, FLAG, PREFACE } = require('../../server/engines/h2/frame-types');
const { ERROR } = require('../../server/engines/h2/errors');
const { frame, settings, headers, hpackLiteral, FrameReader } = require('../../test/helpers/h2-frames');

const MiB = 1024 * 1024;
const BIG_FILE = '/big.txt';
const BIG_FILE_BYTES = 21 * MiB;
const CODINGS = ['br', 'gzip', 'zstd', 'deflate', 'lzma', 'identity'];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Text of words from a 4,096-word vocabulary (12.6x with gzip at level 6), from a fixed
// seed so that every run compresses the same bytes.
function compressibleText(bytes) {
  const words = [];
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  for (let i = 0; i < 4096; i++) {
    let word = '';
    for (let n = 2 + (next() % 9); n > 0; n--) word += String.fromCharCode(97 + (next() % 26));
    words.push(word);
  }
  const parts = [];
  let length = 0;
  while (length < bytes) {
    const line = Array.from({ length: 12 }, () => words[next() % words.length]).join(' ') + '\n';
    parts.push(line);
    length += line.length;
  }
  return parts.join('').slice(0, bytes);
}

// The i-th of n distinct Accept-Encoding values: the codings rotated and thinned, each with a
// q-value, and a token no server knows, which alone makes every value distinct.
function acceptEncodingValue(i) {
  const rotated = CODINGS.map((_, k) => CODINGS[(i + k) % CODINGS.length]).slice(0, 2 + (i % 5));
  const members = rotated.map((coding, k) => `${coding};q=${(((i * 7 + k * 131) % 1000) / 1000).toFixed(3)}`);
  members.push(`x-token-${i}`);
  return members.join(', ');
}

// Writes `streams` HEADERS + RST_STREAM pairs, `batch` pairs a write, the next write once the last
// has gone out, so that the server reads them over many reads and starts responses (opens the
// file, starts a compression) that the resets then cancel; then a PING, whose ACK says the
// server has read everything before it. Resolves with how the connection ended: GOAWAY from the
// server (ENHANCE_YOUR_CALM past its reset budget), all sent (this client closes at the ACK), or
// closed by the server (or by this client after 20 s).
function rapidResetConnection(port, ca, { streams, batch, path: target }) {
  const block = Buffer.concat([[':method', 'GET'], [':scheme', 'https'], [':authority', 'localhost'], [':path', target],
    ['accept-encoding', 'gzip, br']].map(([name, value]) => hpackLiteral(name, value)));
  const cancel = Buffer.alloc(4);
  cancel.writeUInt32BE(ERROR.CANCEL);
  const pair = (i) => [headers(1 + 2 * i, block), frame(FRAME.RST_STREAM, 0, 1 + 2 * i, cancel)];
  return new Promise((resolve) => {
    let sent = 0;
    const writeBatch = () => {
      if (socket.destroyed) return;
      if (sent >= streams) {
        socket.write(frame(FRAME.PING, 0, 0, Buffer.alloc(8)));
        return;
      }
      const frames = [];
      for (const end = Math.min(streams, sent + batch); sent < end; sent++) frames.push(...pair(sent));
      socket.write(Buffer.concat(frames), () => setImmediate(writeBatch));
    };
    const socket = tls.connect({ host: '127.0.0.1', port, ca, servername: 'localhost', ALPNProtocols: ['h2'] }, () => {
      socket.write(Buffer.concat([PREFACE, settings()]));
      writeBatch();
    });
    const timer = setTimeout(() => socket.destroy(), 20_000);
    let ending = 'closed by the server';
    const reader = new FrameReader({ onFrame: ({ type, flags, payload }) => {
      if (type === FRAME.GOAWAY) ending = `GOAWAY ${Object.keys(ERROR).find((name) => ERROR[name] === payload.readUInt32BE(4))}`;
      if (type === FRAME.PING && (flags & FLAG.ACK) !== 0) {
        ending = 'all sent';
        socket.destroy();
      }
    } });
    socket.on('data', (chunk) => reader.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => { clearTimeout(timer); resolve(ending); });
  });
}

async function rapidReset(port, ca, { connections, streams, batch, path: target }) {
  const endings = {};
  for (const ending of await Promise.all(Array.from({ length: connections }, () => rapidResetConnection(port, ca, { streams, batch, path: target })))) {
    endings[ending] = (endings[ending] || 0) + 1;
  }
  return { connections, streamsEach: streams, pairsPerWrite: batch, path: target, endings };
}

async function acceptEncodings(port, ca, { requests, concurrency, offset, read }) {
  // A new connection whenever the last one is gone: cancelling every stream is what the server
  // counts as rapid reset, and it closes the connection past its budget (--read headers).
  let session = null;
  let sessions = 0;
  const current = () => {
    if (session === null || session.closed || session.destroyed) {
      session = http2.connect(`https://127.0.0.1:${port}`, { ca, servername: 'localhost' });
      session.on('error', () => {});
      sessions++;
    }
    return session;
  };
  const statuses = {};
  const codings = {};
  let next = 0;
  let bodyBytes = 0;
  const one = (i) => new Promise((resolve) => {
    const req = current().request({ ':path': BIG_FILE, 'accept-encoding': acceptEncodingValue(offset + i) });
    req.on('response', (headers) => {
      statuses[headers[':status']] = (statuses[headers[':status']] || 0) + 1;
      const coding = headers['content-encoding'] || 'identity';
      codings[coding] = (codings[coding] || 0) + 1;
      if (read === 'headers') req.close(http2.constants.NGHTTP2_CANCEL);
    });
    req.on('data', (chunk) => { bodyBytes += chunk.length; });
    req.on('error', () => { statuses.error = (statuses.error || 0) + 1; resolve(); });
    req.on('close', resolve);
    req.end();
  });
  const worker = async () => { while (next < requests) await one(next++); };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await new Promise((resolve) => current().close(resolve));
  return { requests, concurrency, read, sessions, distinctValues: `${offset}..${offset + requests - 1}`, statuses, codings, bodyMiB: Math.round(bodyBytes / MiB) };
}

// One row a round: the peak, RSS and heap used --settle-ms after the load, then the settled
// state 2 s after a forced full GC.
function roundsTable(rounds) {
  const columns = ['round', 'peak RSS', 'RSS before GC', 'heap used before GC', 'RSS settled', 'anon', 'heap used', 'heap total', 'external',
    'array buffers', 'thread arenas', 'threads', 'file cache', 'compress cache'].map((title, i) => ({ title, align: i === 0 ? 'left' : 'right' }));
  return markdownTable(columns, rounds.map((r) => [
    r.round, r.before.hwmMiB, r.before.rssMiB, r.before.heapUsedMiB, r.settled.rssMiB, r.settled.anonMiB, r.settled.heapUsedMiB, r.settled.heapTotalMiB,
    r.settled.externalMiB, r.settled.arrayBuffersMiB, `${r.settled.threadArenas}: ${r.settled.threadArenasMiB}`, r.settled.threads,
    r.caches.fileCache.entries, `${r.caches.compressCacheEntries}: ${r.caches.compressCacheMiB}`,
  ]));
}

// The layers, and with --heap-snapshots DIR a snapshot of the server's heap there.
async function measure(child, round, snapshotDir) {
  const layers = await ask(child, 'measure');
  if (snapshotDir !== undefined) await ask(child, { snapshot: path.resolve(snapshotDir, `${round}.heapsnapshot`) });
  return layers;
}

async function main() {
  const { positionals: [mode], values } = parseArgs({ allowPositionals: true, options: {
    rounds: { type: 'string', default: '3' }, engine: { type: 'string', default: 'native' },
    connections: { type: 'string', default: '30' }, streams: { type: 'string', default: '2000' }, batch: { type: 'string', default: '4' },
    path: { type: 'string', default: BIG_FILE },
    requests: { type: 'string', default: '5000' }, concurrency: { type: 'string', default: '16' },
    read: { type: 'string', default: 'body' }, 'heap-snapshots': { type: 'string' },
    'settle-ms': { type: 'string', default: '3000' }, trim: { type: 'boolean', default: false }, json: { type: 'boolean', default: false },
  } });
  if ((mode !== 'rapid-reset' && mode !== 'accept-encoding') || !['body', 'headers'].includes(values.read)) {
    console.error('usage: node bench/memory/run.js rapid-reset|accept-encoding [--rounds N] [--engine native|node] [--connections N --streams N --batch N --path P] [--requests N --concurrency N --read body|headers] [--settle-ms MS] [--heap-snapshots DIR] [--trim] [--json]');
    process.exitCode = 2;
    return;
  }
  const notCounts = ['rounds', 'connections', 'streams', 'batch', 'requests', 'concurrency', 'settle-ms']
    .filter((name) => !/^\d+$/.test(values[name]) || (name !== 'settle-ms' && Number(values[name]) === 0));
  if (notCounts.length > 0) {
    console.error(`${notCounts.map((name) => `--${name}`).join(', ')}: a whole number above 0 (--settle-ms: 0 or more)`);
    process.exitCode = 2;
    return;
  }
  const snapshotDir = values['heap-snapshots'];
  if (snapshotDir !== undefined) {
    await fs.mkdir(snapshotDir, { recursive: true });
    const names = ['trimmed', ...Array.from({ length: Number(values.rounds) + 1 }, (_, round) => round)].map((name) => `${name}.heapsnapshot`);
    const taken = names.filter((name) => (fsSync.existsSync(path.join(snapshotDir, name))));
    if (taken.length > 0) {
      console.error(`--heap-snapshots: ${snapshotDir} already has ${taken.join(', ')}; name an empty folder`);
      process.exitCode = 2;
      return;
    }
  }
  const files = { [BIG_FILE.slice(1)]: compressibleText(BIG_FILE_BYTES) };
  await withProbe({ prefix: 'negotiate-memory-', files, serverOptions: { engine: values.engine } }, async ({ child, port, ca }) => {
    const rounds = [{ round: 0, ...await measure(child, 0, snapshotDir) }];
    for (let round = 1; round <= Number(values.rounds); round++) {
      // Resets the process's VmHWM to its current RSS (proc(5), clear_refs), so that the VmHWM
      // measured after the round is this round's peak, however short the round.
      await fs.writeFile(`/proc/${child.pid}/clear_refs`, '5');
      const started = performance.now();
      const load = mode === 'rapid-reset'
        ? await rapidReset(port, ca, { connections: Number(values.connections), streams: Number(values.streams), batch: Number(values.batch), path: values.path })
        : await acceptEncodings(port, ca, { requests: Number(values.requests), concurrency: Number(values.concurrency), offset: (round - 1) * Number(values.requests), read: values.read });
      const seconds = +((performance.now() - started) / 1000).toFixed(1);
      await sleep(Number(values['settle-ms']));
      rounds.push({ round, load, seconds, ...await measure(child, round, snapshotDir) });
    }
    if (values.trim) {
      mallocTrim(child.pid);
      rounds.push({ round: 'after malloc_trim', ...await measure(child, 'trimmed', snapshotDir) });
      rounds.at(-1).before.hwmMiB = null;
    }
    const malloc = { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? null, GLIBC_TUNABLES: process.env.GLIBC_TUNABLES ?? null };
    const result = { mode, engine: values.engine, malloc, settleMs: Number(values['settle-ms']), rounds };
    if (values.json) console.log(JSON.stringify(result, null, 1));
    else {
      console.log(`${mode}, ${values.engine} engine, ${JSON.stringify(malloc)}, settle ${values['settle-ms']} ms; MiB; arenas: count: resident; caches: entries (: MiB)`);
      for (const r of rounds.slice(1)) if (r.load) console.log(`round ${r.round}: ${r.seconds} s, ${JSON.stringify(r.load)}`);
      console.log(roundsTable(rounds));
    }
  });
}

main().catch((err) => {
  console.error(err.stack || err);
  process.exitCode = 1;
});
