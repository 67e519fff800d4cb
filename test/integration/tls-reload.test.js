'use strict';
// --cert/--key reload over real sockets: a replaced pair reaches new handshakes while a kept
// HTTP/2 connection goes on; a bad pair keeps the old one; SIGHUP reloads a spawned server.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const path = require('node:path');
const http2 = require('node:http2');
const tls = require('node:tls');
const crypto = require('node:crypto');
const { setTimeout: sleep } = require('node:timers/promises');
const { startServer } = require('../../server');
const { Logger } = require('../../server/log/logger');
const { generateSelfSigned } = require('../../server/tls/certs');
const { forEachEngine, makeTempDir, spawnCli } = require('../helpers/server');
const { waitFor } = require('../helpers/poll');

// Longer than the reload debounce plus a file-event delivery on a loaded machine.
const SETTLE_MS = 1500;
const WAIT_MS = 10_000;

class CaptureLogger extends Logger {
  constructor() {
    super({ level: 'silent' });
    this.lines = [];
  }

  line(level, msg) {
    this.lines.push(`${level} ${msg}`);
  }
}

function fingerprint(pem) {
  return new crypto.X509Certificate(pem).fingerprint256;
}

// The certificate a fresh TLS handshake on 127.0.0.1:port is shown (offering `alpn`).
function presented(port, alpn = 'h2') {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername: 'localhost', rejectUnauthorized: false, ALPNProtocols: [alpn] }, () => {
      resolve(socket.getPeerCertificate().fingerprint256);
      socket.destroy();
    });
    socket.on('error', reject);
  });
}

async function waitForPresented(port, expected) {
  let seen;
  await waitFor(async () => (seen = await presented(port)) === expected,
    { timeoutMs: WAIT_MS, intervalMs: 100, what: () => `new handshakes to see the new certificate (saw ${seen})` });
}

function waitForOutput(srv, pattern) {
  return waitFor(() => pattern.test(srv.output()), { timeoutMs: WAIT_MS, intervalMs: 50, what: `${pattern} in the output` });
}

function get(session, target) {
  return new Promise((resolve, reject) => {
    const req = session.request({ ':path': target });
    let status;
    const chunks = [];
    req.on('response', (h) => { status = h[':status']; });
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve({ status, body: Buffer.concat(chunks).toString() }));
    req.on('error', reject);
    req.end();
  });
}

// Replaces file's content the way deploy tools and certbot do: write aside, rename over it.
async function replaceAtomically(file, content) {
  await fs.writeFile(`${file}.new`, content);
  await fs.rename(`${file}.new`, file);
}

async function fixture(t) {
  const dir = await makeTempDir('negotiate-reload-');
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  const root = path.join(dir, 'root');
  await fs.mkdir(root);
  await fs.writeFile(path.join(root, 'index.html'), 'hello');
  const [a, b, c] = await Promise.all([generateSelfSigned(), generateSelfSigned(), generateSelfSigned()]);
  return { dir, root, a, b, c };
}

forEachEngine((engine) => {
  test('replaced --cert/--key reach new handshakes; a kept HTTP/2 connection goes on; a bad pair is refused', async (t) => {
    const { dir, root, a, b, c } = await fixture(t);
    const certFile = path.join(dir, 'cert.pem');
    const keyFile = path.join(dir, 'key.pem');
    await fs.writeFile(certFile, a.cert);
    await fs.writeFile(keyFile, a.key);
    const log = new CaptureLogger();
    const server = await startServer({ engine, root, cert: certFile, key: keyFile, port: 0, host: '127.0.0.1', logger: log });
    t.after(() => server.close({ timeoutMs: 1000 }));

    const session = http2.connect(`https://localhost:${server.port}`, { ca: [a.cert, b.cert], host: '127.0.0.1', servername: 'localhost' });
    t.after(() => session.destroy());
    assert.deepEqual(await get(session, '/'), { status: 200, body: 'hello' });
    assert.equal(session.socket.getPeerCertificate().fingerprint256, fingerprint(a.cert));

    await replaceAtomically(keyFile, b.key);
    await replaceAtomically(certFile, b.cert);
    await waitForPresented(server.port, fingerprint(b.cert));
    assert.deepEqual(await get(session, '/'), { status: 200, body: 'hello' }, 'the connection made with A still serves');
    assert.equal(session.socket.getPeerCertificate().fingerprint256, fingerprint(a.cert));
    assert.equal(log.lines.filter((l) => l.startsWith('info reloaded the certificate')).length, 1, log.lines.join('\n'));

    // C's certificate with B's key: not a pair.
    await replaceAtomically(certFile, c.cert);
    await sleep(SETTLE_MS);
    assert.equal(await presented(server.port), fingerprint(b.cert));
    const errors = log.lines.filter((l) => l.startsWith('error'));
    assert.deepEqual(errors, [`error certificate reload after a file change: key: ${keyFile} is not the key of the certificate in ${certFile}; still serving the previous certificate`]);
    assert.deepEqual(await get(session, '/'), { status: 200, body: 'hello' });
  });

  test('SIGHUP makes a spawned server reload --cert/--key', { skip: process.platform === 'win32' && 'no SIGHUP on Windows' }, async (t) => {
    const { dir, root, a, b } = await fixture(t);
    // The served files are symlinks into a directory the server does not watch, so only the
    // signal can tell it the content changed.
    const store = path.join(dir, 'store');
    const served = path.join(dir, 'served');
    await fs.mkdir(store);
    await fs.mkdir(served);
    await fs.writeFile(path.join(store, 'cert.pem'), a.cert);
    await fs.writeFile(path.join(store, 'key.pem'), a.key);
    await fs.symlink(path.join(store, 'cert.pem'), path.join(served, 'cert.pem'));
    await fs.symlink(path.join(store, 'key.pem'), path.join(served, 'key.pem'));
    const srv = await spawnCli(['--port', '0', '--root', root, '--cert', path.join(served, 'cert.pem'), '--key', path.join(served, 'key.pem')], { engine });
    t.after(() => srv.stop('SIGKILL'));
    assert.equal(await presented(srv.port), fingerprint(a.cert));

    await replaceAtomically(path.join(store, 'key.pem'), b.key);
    await replaceAtomically(path.join(store, 'cert.pem'), b.cert);
    await sleep(SETTLE_MS);
    assert.equal(await presented(srv.port), fingerprint(a.cert), 'no reload without the signal');

    srv.child.kill('SIGHUP');
    await waitForPresented(srv.port, fingerprint(b.cert));
    // The log is flushed from a timer, so its line can come after the new certificate is in use.
    await waitForOutput(srv, /info reloaded the certificate from \S+ after SIGHUP\n/);
    assert.match(srv.output(), /info reloaded the certificate from \S+ after SIGHUP\n/);
    assert.deepEqual(await srv.stop(), { code: 0, signal: null });
  });
});

test('the --metrics listener off loopback serves the reloaded certificate too', async (t) => {
  const { dir, root, a, b } = await fixture(t);
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  const tokenFile = path.join(dir, 'token');
  await Promise.all([fs.writeFile(certFile, a.cert), fs.writeFile(keyFile, a.key), fs.writeFile(tokenFile, 'token\n')]);
  const log = new CaptureLogger();
  const server = await startServer({ root, cert: certFile, key: keyFile, port: 0, host: '127.0.0.1', logger: log, metrics: '0.0.0.0:0', metricsTokenFile: tokenFile });
  t.after(() => server.close({ timeoutMs: 1000 }));
  const metricsPort = Number(new URL(server.metricsUrl).port);
  assert.equal(await presented(metricsPort, 'http/1.1'), fingerprint(a.cert));
  await replaceAtomically(keyFile, b.key);
  await replaceAtomically(certFile, b.cert);
  await waitForPresented(server.port, fingerprint(b.cert));
  assert.equal(await presented(metricsPort, 'http/1.1'), fingerprint(b.cert));
  assert.equal(log.lines.filter((l) => l.startsWith('info reloaded the certificate')).length, 1, log.lines.join('\n'));
});
