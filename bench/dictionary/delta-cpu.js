'use strict';
// node bench/dictionary/delta-cpu.js [--server DIR] [--requests N]
// Server CPU per request for dictionary deltas (RFC 9842) against br, the figures of issue #27's
// "deltas are a CPU amplifier": a server (DIR/server, default this checkout's; pass another
// checkout's to compare) runs in a child process on 127.0.0.1 and reports its process.cpuUsage()
// (every thread: the pool's compressions included) before and after each scenario, which one
// HTTP/2 connection from this process runs, N requests one after the other:
//   br           the same file in br, cached in memory
//   dcb repeat   the same delta again (the compression cache in memory holds it)
//   dcb disk     the same deltas again with the in-memory compression cache off: read back from
//                the cache folder each time
//   dcb distinct a new (file, dictionary) pair at each request, then the same pairs again
// Bounded: a fixed number of requests, the child stops at the end.
const { parseArgs } = require('node:util');
const { fork } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs/promises');
const http2 = require('node:http2');
const os = require('node:os');
const path = require('node:path');
const { appScript } = require('../../test/helpers/dictionary-site');

const FILES = 16;
const FILE_BYTES = 100 * 1024;

if (process.argv[2] === '--child') {
  // The server, told its options by the parent.
  const { serverDir, ...options } = JSON.parse(process.argv[3]);
  const { startServer } = require(path.join(serverDir, 'server'));
  startServer({ host: '127.0.0.1', port: 0, logLevel: 'silent', ...options }).then((server) => {
    process.send({ port: server.port });
    process.on('message', async (m) => {
      if (m === 'cpu') process.send({ cpu: process.cpuUsage() });
      if (m === 'stop') {
        await server.close({ timeoutMs: 2000 });
        process.exit(0);
      }
    });
  });
  return;
}

function child(serverDir, options) {
  const proc = fork(__filename, ['--child', JSON.stringify({ serverDir, ...options })], { stdio: 'inherit' });
  const next = () => new Promise((resolve) => proc.once('message', resolve));
  return {
    started: next(),
    async cpuMs() {
      const wait = next();
      proc.send('cpu');
      const { cpu } = await wait;
      return (cpu.user + cpu.system) / 1000;
    },
    stop() {
      proc.send('stop');
      return new Promise((resolve) => proc.once('exit', resolve));
    },
  };
}

function get(session, file, headers) {
  return new Promise((resolve, reject) => {
    const req = session.request({ ':path': file, ...headers });
    let coding;
    req.on('response', (h) => { coding = h['content-encoding'] ?? 'identity'; });
    req.on('data', () => {});
    req.on('end', () => resolve(coding));
    req.on('error', reject);
    req.end();
  });
}

const sfHash = (bytes) => `:${crypto.createHash('sha256').update(bytes).digest('base64')}:`;

async function main() {
  const { values } = parseArgs({ options: { server: { type: 'string', default: path.join(__dirname, '..', '..') }, requests: { type: 'string', default: '200' } } });
  const n = Number(values.requests);
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'negotiate-delta-cpu-'));
  try {
    const root = path.join(tmp, 'root');
    await fs.mkdir(path.join(root, 'assets'), { recursive: true });
    const bytes = [];
    for (let v = 0; v < FILES; v++) {
      bytes.push(Buffer.from(appScript(`v${v}`, FILE_BYTES)));
      await fs.writeFile(path.join(root, 'assets', `app.v${v}.js`), bytes[v]);
    }
    const common = { root, cacheDir: path.join(tmp, 'cache'), dictionaries: [{ match: '/assets/app.*.js' }], tls: await selfSigned(tmp) };
    const results = [];
    for (const [name, options] of [['memory', {}], ['disk', { compressCacheBytes: 0 }]]) {
      const server = child(path.resolve(values.server), { ...common, ...options });
      const { port } = await server.started;
      const session = http2.connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false });
      const measure = async (label, ask) => {
        const before = await server.cpuMs();
        const codings = {};
        for (let i = 0; i < n; i++) {
          const coding = await ask(i);
          codings[coding] = (codings[coding] ?? 0) + 1;
        }
        results.push({ scenario: label, cpuMsPerRequest: ((await server.cpuMs()) - before) / n, codings });
      };
      const delta = (file, dictionary) => get(session, `/assets/app.v${file}.js`, { 'accept-encoding': 'br, dcb', 'available-dictionary': sfHash(bytes[dictionary]) });
      // Warm: br of every file, and the repeated deltas made once.
      for (let v = 0; v < FILES; v++) await get(session, `/assets/app.v${v}.js`, { 'accept-encoding': 'br' });
      for (let v = 1; v < FILES; v++) await delta(v, v - 1);
      if (name === 'memory') {
        await measure('br', () => get(session, '/assets/app.v1.js', { 'accept-encoding': 'br' }));
        await measure('dcb repeat', () => delta(1, 0));
        const distinct = (i) => delta(i % FILES, (i % FILES + 1 + Math.floor(i / FILES)) % FILES);
        await measure('dcb distinct', distinct);
        // The same pairs again: those made above are served as kept, the others get br again.
        await measure('dcb distinct, asked again', distinct);
      } else {
        await measure('dcb disk (compression cache off)', (i) => delta(i % (FILES - 1) + 1, i % (FILES - 1)));
      }
      session.close();
      await server.stop();
    }
    for (const r of results) console.log(`${r.scenario.padEnd(34)} ${r.cpuMsPerRequest.toFixed(3)} ms CPU/request  ${JSON.stringify(r.codings)}`);
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

async function selfSigned(dir) {
  const { writeSelfSignedCert } = require('../lib/tls-cert');
  const { cert, key } = await writeSelfSignedCert(dir);
  return { cert: await fs.readFile(cert, 'utf8'), key: await fs.readFile(key, 'utf8') };
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
