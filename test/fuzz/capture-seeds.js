'use strict';
// Records what real HTTP/2 clients send, as fuzz seeds: a TLS-terminating proxy in front of a
// test server keeps each h2 connection's client-to-server bytes (preface and frames, decrypted)
// while h2spec, curl, nghttp and Node's http2 client talk to the server through it.
//
//   node test/fuzz/capture-seeds.js [--out DIR] [--engine native|node] [--client NAME]...
//
// Seeds are named <client>-<first 16 hex of SHA-1>, so re-running adds only new streams and
// never rewrites a file with other content. Clients that are not installed are skipped.

const crypto = require('node:crypto');
const fs = require('node:fs/promises');
const http2 = require('node:http2');
const path = require('node:path');
const tls = require('node:tls');
const { parseArgs } = require('node:util');
const { startTestServer, compressibleText, testCertificate, REPO_ROOT } = require('../helpers/server');
const { findH2spec } = require('../helpers/h2spec');
const { commandPath, runTool } = require('../helpers/tools');
const { MAX_INPUT_BYTES } = require('./frame-mutator');

const SEED_DIR = path.join(REPO_ROOT, 'test', 'fixtures', 'h2-frames');
const CLIENT_TIMEOUT_MS = 120_000;
const FILES = {
  'index.html': '<!doctype html><title>seed</title><p>hello</p>\n',
  'big.txt': compressibleText(256 * 1024, 'seed'),
  'style.css': 'body { color: #123; }\n'.repeat(50),
};

// A TLS proxy to 127.0.0.1:upstreamPort; onStream(clientBytes) gets each h2 connection's bytes
// once it closes.
async function startCaptureProxy(upstreamPort, onStream) {
  const { cert, key } = await testCertificate();
  const server = tls.createServer({ cert, key, ALPNProtocols: ['h2', 'http/1.1'] }, (client) => {
    const chunks = [];
    let size = 0;
    const upstream = tls.connect({ host: '127.0.0.1', port: upstreamPort, rejectUnauthorized: false, ALPNProtocols: [client.alpnProtocol || 'http/1.1'] });
    client.on('data', (c) => {
      if (size < MAX_INPUT_BYTES) chunks.push(c);
      size += c.length;
    });
    client.pipe(upstream).pipe(client);
    const done = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', done);
    upstream.on('error', done);
    client.on('close', () => {
      done();
      if (client.alpnProtocol === 'h2' && size > 0) onStream(Buffer.concat(chunks).subarray(0, MAX_INPUT_BYTES));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: server.address().port, close: () => new Promise((resolve) => server.close(resolve)) };
}

const run = (cmd, args) => runTool(cmd, args, { timeoutMs: CLIENT_TIMEOUT_MS });

// Each client: a tool (null when not installed) and what to run against https://localhost:port.
const CLIENTS = {
  h2spec: {
    tool: findH2spec,
    run: (bin, port) => run(bin, ['-t', '-k', '-S', '-h', '127.0.0.1', '-p', String(port)]),
  },
  curl: {
    tool: () => commandPath('curl'),
    async run(bin, port) {
      const base = `https://127.0.0.1:${port}`;
      await run(bin, ['-sk', '--http2', '-o', '/dev/null', `${base}/index.html`, `${base}/style.css`, '--compressed']);
      await run(bin, ['-sk', '--http2', '-o', '/dev/null', '-I', `${base}/big.txt`]);
      await run(bin, ['-sk', '--http2', '-o', '/dev/null', '-r', '100-2000', `${base}/big.txt`]);
      await run(bin, ['-sk', '--http2', '-o', '/dev/null', '-d', 'form=1', `${base}/index.html`]);
    },
  },
  nghttp: {
    tool: () => commandPath('nghttp'),
    async run(bin, port) {
      const base = `https://127.0.0.1:${port}`;
      await run(bin, ['-n', '-a', `${base}/index.html`]);
      await run(bin, ['-n', '-m', '4', '-H', 'accept-encoding: gzip, br', `${base}/big.txt`]);
      await run(bin, ['-n', '-w', '16', '-W', '16', `${base}/big.txt`]);
      await run(bin, ['-n', '--no-dep', '-p', '32', '-d', path.join(REPO_ROOT, 'package.json'), `${base}/style.css`]);
    },
  },
  node: {
    tool: () => process.execPath,
    async run(bin, port) {
      const session = http2.connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false, settings: { initialWindowSize: 16 * 1024 } });
      session.on('error', () => {});
      const request = (headers, body) => new Promise((resolve) => {
        const stream = session.request(headers, { endStream: body === undefined });
        stream.on('error', resolve);
        stream.on('close', resolve);
        stream.resume();
        if (body !== undefined) stream.end(body);
      });
      await Promise.all([
        request({ ':path': '/index.html', 'accept-encoding': 'br, gzip' }),
        request({ ':path': '/big.txt', range: 'bytes=0-99,200-299' }),
        request({ ':method': 'HEAD', ':path': '/style.css' }),
        request({ ':path': '/missing', 'if-none-match': '"x"' }),
        request({ ':method': 'POST', ':path': '/index.html' }, 'a=1'),
        request({ ':path': '/big.txt' }),
      ]);
      session.ping(Buffer.from('seedping'), () => {});
      await new Promise((resolve) => session.close(resolve));
    },
  },
};

async function capture({ out = SEED_DIR, engine = 'native', clients = Object.keys(CLIENTS) } = {}) {
  await fs.mkdir(out, { recursive: true });
  const srv = await startTestServer({ engine, files: FILES });
  const written = [];
  let current = null;
  const proxy = await startCaptureProxy(srv.port, (bytes) => {
    const name = `${current}-${crypto.createHash('sha1').update(bytes).digest('hex').slice(0, 16)}`;
    written.push(fs.writeFile(path.join(out, name), bytes).then(() => name));
  });
  const report = {};
  try {
    for (const name of clients) {
      const bin = CLIENTS[name].tool();
      if (!bin) {
        report[name] = 'not installed, skipped';
        continue;
      }
      current = name;
      const before = written.length;
      await CLIENTS[name].run(bin, proxy.port);
      // Connections close a moment after the client exits.
      await new Promise((resolve) => setTimeout(resolve, 500));
      report[name] = `${written.length - before} connections`;
    }
  } finally {
    await proxy.close();
    await srv.close();
  }
  return { report, files: await Promise.all(written) };
}

async function main() {
  const { values } = parseArgs({ options: { out: { type: 'string' }, engine: { type: 'string' }, client: { type: 'string', multiple: true } } });
  for (const c of values.client ?? []) if (!CLIENTS[c]) throw new Error(`--client: unknown client "${c}" (one of ${Object.keys(CLIENTS).join(', ')})`);
  const { report, files } = await capture({ out: values.out, engine: values.engine, clients: values.client });
  for (const [client, what] of Object.entries(report)) console.log(`capture ${client}: ${what}`);
  console.log(`capture: ${new Set(files).size} distinct seeds in ${path.relative(process.cwd(), values.out ?? SEED_DIR) || '.'}`);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(`capture: ${err.stack || err}`);
    process.exit(1);
  });
}

module.exports = { capture, startCaptureProxy };
