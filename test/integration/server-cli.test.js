'use strict';
// The CLI as users run it: --help, bad options, certificate generation, the redirect port,
// environment twins, workers, and graceful shutdown with requests in flight.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const fsSync = require('node:fs');
const path = require('node:path');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const https = require('node:https');
const http2 = require('node:http2');
const crypto = require('node:crypto');
const { execFile } = require('node:child_process');
const { setTimeout: sleep } = require('node:timers/promises');
const { forEachEngine, spawnCli, makeTempDir, testCertificate, REPO_ROOT, PASS_DONE, cachedVariant } = require('../helpers/server');
const { startServer } = require('../../server');
const { createClients } = require('../helpers/clients');
const { waitFor } = require('../helpers/poll');

// The local CA every server in this file signs its certificate with: a temporary --ca-dir
// (through the environment twin, which the spawned CLIs inherit), never the user's own.
process.env.NEGOTIATE_CA_DIR = fsSync.mkdtempSync(path.join(os.tmpdir(), 'negotiate-cli-ca-'));
test.after(() => fs.rm(process.env.NEGOTIATE_CA_DIR, { recursive: true, force: true }));
const readCa = () => fs.readFile(path.join(process.env.NEGOTIATE_CA_DIR, 'ca.pem'));

function runCli(args, env = {}, cwd = undefined) {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(REPO_ROOT, 'server'), ...args], { env: { ...process.env, ...env }, timeout: 20_000, cwd },
      (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr }));
  });
}

async function fixture(t) {
  const dir = await makeTempDir('negotiate-cli-');
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  const root = path.join(dir, 'root');
  await fs.mkdir(root);
  await fs.writeFile(path.join(root, 'index.html'), '<h1>hello</h1>');
  return { dir, root, certsDir: path.join(dir, 'certs') };
}

test('--help lists every option with its environment twin', async () => {
  const res = await runCli(['--help']);
  assert.equal(res.code, 0);
  for (const flag of ['--root', '--host', '--port', '--cert', '--key', '--http-port', '--encodings', '--brotli-engine',
    '--no-dynamic', '--log-level', '--cache-control', '--workers', '--revalidate-ms', '--certs-dir', '--ca-dir', '--public-host', '--no-precompress', '--cache-dir', '--cache-bytes']) {
    assert.ok(res.stdout.includes(flag), flag);
    assert.ok(res.stdout.includes('NEGOTIATE_' + flag.slice(2).toUpperCase().replace(/-/g, '_')), flag);
  }
});

test('bad options: one line on stderr and exit code 2', async () => {
  const cases = [
    [['--port', '99999']], [['--port']], [['--bogus']], [['--encodings', 'br,snappy']], [['--encodings', 'br,br']],
    [['--log-level', 'loud']], [['--cert', '/tmp/x.pem']], [['--workers', '0']], [['--brotli-engine', 'fast']],
    [['--root', '/nonexistent/negotiate']], [['--no-dynamic=1']], [[], { NEGOTIATE_PORT: 'abc' }],
    [['site', '--root', 'other']], [['--root=other', 'site']], [['one', 'two']], [['/nonexistent/negotiate']],
  ];
  for (const [args, env] of cases) {
    const res = await runCli(args, env);
    const label = `${args.join(' ')} ${JSON.stringify(env || {})}`;
    assert.equal(res.code, 2, `${label}: ${res.stderr}`);
    assert.equal(res.stderr.trim().split('\n').length, 1, `${label}: ${res.stderr}`);
    assert.doesNotMatch(res.stderr, /\n\s+at /, 'no stack trace');
  }
});

forEachEngine((engine) => {
  test('first start makes a localhost certificate, later starts reuse it', async (t) => {
    const { root, certsDir } = await fixture(t);
    const first = await spawnCli(['--port', '0', '--root', root, '--certs-dir', certsDir], { engine });
    t.after(() => first.stop('SIGKILL'));
    assert.match(first.url, /^https:\/\/localhost:\d+\/$/);
    assert.notEqual(first.port, 0, 'port 0 prints the real port');
    assert.equal(first.output().match(/made a certificate for localhost, 127.0.0.1, ::1 signed by the local CA/g).length, 1);
    const cert = await fs.readFile(path.join(certsDir, 'localhost-cert.pem'), 'utf8');
    const x509 = new crypto.X509Certificate(cert);
    assert.match(x509.subjectAltName, /DNS:localhost/);
    assert.match(x509.subjectAltName, /IP Address:127\.0\.0\.1/);
    assert.match(x509.subjectAltName, /IP Address:0:0:0:0:0:0:0:1/);
    assert.ok(x509.verify(new crypto.X509Certificate(await readCa()).publicKey), 'signed by the local CA');
    const res = await createClients({ port: first.port, ca: await readCa() }).h2('/');
    assert.equal(res.status, 200);
    assert.deepEqual(await first.stop(), { code: 0, signal: null });

    const second = await spawnCli(['--port', '0', '--root', root, '--certs-dir', certsDir], { engine });
    t.after(() => second.stop('SIGKILL'));
    assert.doesNotMatch(second.output(), /made a/);
    assert.equal(await fs.readFile(path.join(certsDir, 'localhost-cert.pem'), 'utf8'), cert);
    assert.deepEqual(await second.stop(), { code: 0, signal: null });
  });

  test('environment twins configure the server; the HTTP port redirects to HTTPS', async (t) => {
    const { root, certsDir } = await fixture(t);
    const srv = await spawnCli([], {
      engine,
      env: { NEGOTIATE_PORT: '0', NEGOTIATE_ROOT: root, NEGOTIATE_CERTS_DIR: certsDir, NEGOTIATE_HTTP_PORT: '0', NEGOTIATE_CACHE_CONTROL: 'no-cache' },
    });
    t.after(() => srv.stop('SIGKILL'));
    assert.ok(srv.httpUrl, srv.output());
    const httpPort = Number(new URL(srv.httpUrl).port);
    const ask = (method, target) => new Promise((resolve, reject) => {
      http.request({ host: '127.0.0.1', port: httpPort, method, path: target, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res));
      }).on('error', reject).end();
    });
    const get = await ask('GET', '/a/b?c=d');
    assert.equal(get.statusCode, 301);
    assert.equal(get.headers.location, `https://127.0.0.1:${srv.port}/a/b?c=d`);
    const post = await ask('POST', '/form');
    assert.equal(post.statusCode, 308);
    const ca = await readCa();
    const page = await createClients({ port: srv.port, ca }).h1('/');
    assert.equal(page.headers['cache-control'], 'no-cache');
    assert.deepEqual(await srv.stop(), { code: 0, signal: null });
    assert.match(srv.output(), /info GET \/ 200 identity 14 [\d.]+ms\n/, 'access log line');
  });

  test('SIGTERM lets in-flight responses finish, then exits 0', async (t) => {
    const { root, certsDir } = await fixture(t);
    const big = crypto.randomBytes(16 * 1024 * 1024);
    await fs.writeFile(path.join(root, 'big.bin'), big);
    const srv = await spawnCli(['--port', '0', '--root', root, '--certs-dir', certsDir, '--log-level', 'warn'], { engine });
    t.after(() => srv.stop('SIGKILL'));
    const ca = await readCa();

    // One slow HTTP/1.1 download and one HTTP/2 download, both paused mid-body.
    let h1Received = 0;
    const h1Done = new Promise((resolve, reject) => {
      https.get({ host: '127.0.0.1', port: srv.port, path: '/big.bin', ca, servername: 'localhost', agent: false }, (res) => {
        res.pause();
        res.on('data', (c) => { h1Received += c.length; });
        res.on('end', () => resolve(res.complete));
        res.on('error', reject);
        h1Started(res);
      }).on('error', reject);
    });
    let h1Started;
    const h1Response = new Promise((resolve) => { h1Started = resolve; });
    const session = http2.connect(`https://127.0.0.1:${srv.port}`, { ca, servername: 'localhost' });
    session.on('error', () => {});
    const stream = session.request({ ':path': '/big.bin' });
    stream.pause();
    let h2Received = 0;
    const h2Done = new Promise((resolve, reject) => {
      stream.on('data', (c) => { h2Received += c.length; });
      stream.on('end', resolve);
      stream.on('error', reject);
    });
    await new Promise((resolve) => stream.once('response', resolve));
    const res1 = await h1Response;

    srv.child.kill('SIGTERM');
    await sleep(300);
    assert.equal(srv.child.exitCode, null, 'still running while responses are in flight');
    res1.resume();
    stream.resume();
    assert.equal(await h1Done, true);
    await h2Done;
    assert.equal(h1Received, big.length);
    assert.equal(h2Received, big.length);
    assert.deepEqual(await srv.exited, { code: 0, signal: null });
    session.destroy();
  });

  test('--workers 2 shares one port across processes', async (t) => {
    const { root, certsDir } = await fixture(t);
    const srv = await spawnCli(['--port', '0', '--root', root, '--certs-dir', certsDir, '--workers', '2', '--log-level', 'warn'], { engine });
    t.after(() => srv.stop('SIGKILL'));
    assert.equal(srv.output().match(/listening on/g).length, 1, 'the URL is printed once');
    const ca = await readCa();
    const clients = createClients({ port: srv.port, ca });
    const results = await Promise.all(Array.from({ length: 6 }, () => clients.h1('/')));
    for (const res of results) assert.equal(res.body.toString(), '<h1>hello</h1>');
    assert.deepEqual(await srv.stop(), { code: 0, signal: null });
  });
});

test('start-up errors: exactly one line naming the flag or variable, exit 2', async (t) => {
  const { dir, root, certsDir } = await fixture(t);
  const { cert, key } = await testCertificate();
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  const otherKey = path.join(dir, 'other-key.pem');
  const missing = path.join(dir, 'missing.pem');
  await fs.writeFile(certFile, cert);
  await fs.writeFile(keyFile, key);
  await fs.writeFile(otherKey, crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const busy = net.createServer();
  await new Promise((resolve) => busy.listen(0, '127.0.0.1', resolve));
  t.after(() => busy.close());
  const busyPort = busy.address().port;
  const base = ['--root', root, '--certs-dir', certsDir];
  const port0 = ['--port', '0'];

  const cases = [
    [[...port0, '--cert', missing, '--key', missing], {}, `--cert: cannot read ${missing}: no such file`],
    [[...port0, '--cert', certFile, '--key', missing], {}, `--key: cannot read ${missing}: no such file`],
    [[...port0, '--cert', keyFile, '--key', keyFile], {}, `--cert: ${keyFile} is not a PEM certificate`],
    [[...port0, '--cert', certFile, '--key', certFile], {}, `--key: ${certFile} is not a PEM private key (or it is encrypted)`],
    [[...port0, '--cert', certFile, '--key', otherKey], {}, `--key: ${otherKey} is not the key of the certificate in ${certFile}`],
    [[...port0, '--certs-dir', path.join(certFile, 'sub')], {},
      `--certs-dir: ${path.join(certFile, 'sub')}: ENOTDIR: not a directory, open '${path.join(certFile, 'sub', 'localhost-cert.pem')}'`],
    [[...port0, '--ca-dir', path.join(certFile, 'sub')], {},
      `--ca-dir: ${path.join(certFile, 'sub')}: ENOTDIR: not a directory, open '${path.join(certFile, 'sub', 'ca.pem')}'`],
    [[...port0, '--host', 'no-such-host.invalid'], {}, '--host: no-such-host.invalid: cannot be resolved'],
    [[...port0, '--workers', '2', '--host', 'no-such-host.invalid'], {}, '--host: no-such-host.invalid: cannot be resolved'],
    [['--port', String(busyPort)], {}, `--port: 127.0.0.1:${busyPort}: in use`],
    [[...port0, '--http-port', String(busyPort)], {}, `--http-port: 127.0.0.1:${busyPort}: in use`],
    [[], { NEGOTIATE_PORT: 'abc' }, 'NEGOTIATE_PORT: expected an integer from 0 to 65535, got "abc"'],
    [port0, { NEGOTIATE_WORKERS: '0' }, 'NEGOTIATE_WORKERS: expected an integer from 1 to ' + Math.max(64, os.availableParallelism() * 4) + ', got "0"'],
    [[...port0, '--public-host', 'example.org:443'], {}, '--public-host: expected a host name or IP address without a port, got "example.org:443"'],
    [port0, { NEGOTIATE_PROT: '8443' }, 'NEGOTIATE_PROT: unknown variable; did you mean NEGOTIATE_PORT?'],
    [port0, { NEGOTIATE_HTTPPORT: '8080' }, 'NEGOTIATE_HTTPPORT: unknown variable; did you mean NEGOTIATE_HTTP_PORT?'],
    [port0, { NEGOTIATE_COLOUR: 'blue' }, 'NEGOTIATE_COLOUR: unknown variable (see --help)'],
  ];
  for (const [args, env, line] of cases) {
    const res = await runCli([...base, ...args], env);
    const label = `${args.join(' ')} ${JSON.stringify(env)}`;
    assert.equal(res.stderr, `negotiate-h2: ${line}\n`, label);
    assert.equal(res.code, 2, label);
  }
});


test('startServer() start-up errors name the option keys, not the flags', async (t) => {
  const { dir, root, certsDir } = await fixture(t);
  const { key } = await testCertificate();
  const keyFile = path.join(dir, 'key.pem');
  const missing = path.join(dir, 'missing.pem');
  await fs.writeFile(keyFile, key);
  const busy = net.createServer();
  await new Promise((resolve) => busy.listen(0, '127.0.0.1', resolve));
  t.after(() => busy.close());
  const busyPort = busy.address().port;
  const base = { root, certsDir, logLevel: 'silent', port: 0 };
  const cases = [
    [{ cert: missing, key: missing }, `cert: cannot read ${missing}: no such file`],
    [{ cert: keyFile, key: keyFile }, `cert: ${keyFile} is not a PEM certificate`],
    [{ host: 'no-such-host.invalid' }, 'host: no-such-host.invalid: cannot be resolved'],
    [{ port: busyPort }, `port: 127.0.0.1:${busyPort}: in use`],
    [{ httpPort: busyPort }, `httpPort: 127.0.0.1:${busyPort}: in use`],
    [{ root: missing }, `root: ${missing} is not a directory`],
  ];
  for (const [options, message] of cases) {
    await assert.rejects(startServer({ ...base, ...options }), { code: 'ERR_BAD_OPTION', message }, JSON.stringify(options));
  }
});

const exists = (file) => fs.access(file).then(() => true, () => false);

test('the directory to serve: the positional argument, else the current directory', async (t) => {
  const { dir, root, certsDir } = await fixture(t);
  const fromArg = await spawnCli([root, '--port', '0', '--certs-dir', certsDir, '--no-precompress']);
  t.after(() => fromArg.stop('SIGKILL'));
  const ca = await readCa();
  assert.equal((await createClients({ port: fromArg.port, ca }).h1('/index.html')).body.toString(), '<h1>hello</h1>');
  assert.deepEqual(await fromArg.stop(), { code: 0, signal: null });

  await fs.writeFile(path.join(dir, 'cwd.txt'), 'served from the working directory');
  const fromCwd = await spawnCli(['--port', '0', '--certs-dir', certsDir, '--no-precompress'], { cwd: dir });
  t.after(() => fromCwd.stop('SIGKILL'));
  const res = await createClients({ port: fromCwd.port, ca }).h1('/cwd.txt');
  assert.equal(res.status, 200);
  assert.equal(res.body.toString(), 'served from the working directory');
  assert.deepEqual(await fromCwd.stop(), { code: 0, signal: null });
});

test('start-up precompresses the root into the cache in the background, after listening; --no-precompress skips it', async (t) => {
  const { root, certsDir } = await fixture(t);
  const page = 'the quick brown fox jumps over the lazy dog\n'.repeat(2000);
  await fs.writeFile(path.join(root, 'page.html'), page);
  const srv = await spawnCli([root, '--port', '0', '--certs-dir', certsDir]);
  t.after(() => srv.stop('SIGKILL'));
  const ca = await readCa();
  const clients = createClients({ port: srv.port, ca });
  await waitFor(() => PASS_DONE.test(srv.output()), { timeoutMs: 20_000, intervalMs: 100, what: 'the end of the background pass' });
  for (const ext of ['.br', '.zst', '.gz', '.lzma']) {
    assert.equal(await exists(await cachedVariant(root, 'page.html', ext)), true, ext);
    assert.equal(await exists(path.join(root, 'page.html' + ext)), false, ext);
  }
  const res = await clients.h2('/page.html', { headers: { 'accept-encoding': 'br' } });
  assert.equal(res.headers['content-encoding'], 'br');
  assert.deepEqual(res.body, await fs.readFile(await cachedVariant(root, 'page.html', '.br')), 'the variant is served as written');
  const out = srv.output();
  assert.ok(out.indexOf('listening on') < out.indexOf('precompressing'), 'listens first');
  assert.ok(out.indexOf('precompressing') < out.search(PASS_DONE), out);
  assert.deepEqual(await srv.stop(), { code: 0, signal: null });
  assert.deepEqual((await fs.readdir(root)).sort(), ['index.html', 'page.html']);

  await fs.writeFile(path.join(root, 'other.html'), page);
  const off = await spawnCli([root, '--port', '0', '--certs-dir', certsDir, '--no-precompress']);
  t.after(() => off.stop('SIGKILL'));
  const plain = await createClients({ port: off.port, ca }).h1('/other.html', { headers: { 'accept-encoding': 'br' } });
  assert.equal(plain.status, 200);
  assert.deepEqual(await off.stop(), { code: 0, signal: null });
  assert.equal(await exists(await cachedVariant(root, 'other.html', '.br')), false);
  assert.doesNotMatch(off.output(), /precompress/);
});

test('--watch: new and changed files get fresh cached variants; the root is left as it is, a user\'s .gz included', async (t) => {
  const { root, certsDir } = await fixture(t);
  const text = (seed) => `${seed}: the quick brown fox jumps over the lazy dog\n`.repeat(500);
  await fs.writeFile(path.join(root, 'own.txt'), text('own'));
  const usersGzip = Buffer.from('the user\'s own gzip file, not the tool\'s');
  await fs.writeFile(path.join(root, 'own.txt.gz'), usersGzip);
  const srv = await spawnCli([root, '--port', '0', '--certs-dir', certsDir, '--watch']);
  t.after(() => srv.stop('SIGKILL'));
  const ca = await readCa();
  const clients = createClients({ port: srv.port, ca });
  await waitFor(() => PASS_DONE.test(srv.output()), { timeoutMs: 20_000, intervalMs: 100, what: 'the start-up run' });
  const zlib = require('node:zlib');
  const cachedText = async (rel) => zlib.brotliDecompressSync(await fs.readFile(await cachedVariant(root, rel, '.br'))).toString();

  await fs.mkdir(path.join(root, 'sub'));
  await fs.writeFile(path.join(root, 'sub', 'new.html'), text('first'));
  await waitFor(async () => await cachedText('sub/new.html').catch(() => '') === text('first'), { timeoutMs: 10_000, intervalMs: 100, what: 'the new file\'s .br' });
  const res = await clients.h2('/sub/new.html', { headers: { 'accept-encoding': 'br' } });
  assert.equal(res.headers['content-encoding'], 'br');
  assert.deepEqual(res.body, await fs.readFile(await cachedVariant(root, 'sub/new.html', '.br')), 'the variant is served');

  await fs.writeFile(path.join(root, 'sub', 'new.html'), text('second'));
  await waitFor(async () => await cachedText('sub/new.html').catch(() => '') === text('second'), { timeoutMs: 10_000, intervalMs: 100, what: 'the changed file\'s .br' });
  await fs.rm(path.join(root, 'own.txt'));
  assert.deepEqual(await srv.stop(), { code: 0, signal: null });
  assert.deepEqual((await fs.readdir(root)).sort(), ['index.html', 'own.txt.gz', 'sub']);
  assert.deepEqual(await fs.readdir(path.join(root, 'sub')), ['new.html']);
  assert.deepEqual(await fs.readFile(path.join(root, 'own.txt.gz')), usersGzip, 'the user\'s file stays');
  assert.match(srv.output(), /watching .* for changes \(--watch\)/);
});
