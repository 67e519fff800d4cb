'use strict';
// --no-tls: the CLI serves plain HTTP/1.1 on --port with either engine, says so when it starts,
// makes no certificate, and refuses the options that only make sense with TLS.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { forEachEngine, spawnCli, makeTempDir, compressibleText, REPO_ROOT } = require('../helpers/server');
const { decode, curlSkipReason } = require('../helpers/clients');
const { plainRequest } = require('../helpers/plain-http');

const FILE = compressibleText(5000);

async function fixture(t) {
  const dir = await makeTempDir('negotiate-no-tls-');
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  const root = path.join(dir, 'root');
  await fs.mkdir(root);
  await fs.writeFile(path.join(root, 'a.txt'), FILE);
  // Never created: --no-tls makes no CA and no certificate.
  const env = { NEGOTIATE_CA_DIR: path.join(dir, 'ca'), NEGOTIATE_CERTS_DIR: path.join(dir, 'certs') };
  return { dir, root, env };
}

function curl(args) {
  return new Promise((resolve) => {
    execFile('curl', ['-sS', ...args], { encoding: 'buffer', timeout: 10_000 },
      (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr: stderr.toString() }));
  });
}

forEachEngine((engine) => {
  test('serves plain HTTP/1.1 on --port, logged with a warning, no certificate made', async (t) => {
    const { dir, root, env } = await fixture(t);
    const cli = await spawnCli([root, '--no-tls', '--port', '0', '--no-precompress'], { engine, env });
    t.after(() => cli.stop());
    assert.equal(cli.url, `http://localhost:${cli.port}/`);
    assert.match(cli.output(), new RegExp(`listening on http://localhost:${cli.port}/ \\(http/1\\.1\\)\\n`));

    const r = await plainRequest(cli.port, '/a.txt', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-encoding'], 'gzip');
    assert.equal(r.headers.vary, 'Accept-Encoding');
    assert.equal((await decode('gzip', r.body)).toString(), FILE);
    const head = await plainRequest(cli.port, '/a.txt', { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
    assert.equal(head.headers['content-length'], String(FILE.length));
    assert.equal(head.body.length, 0);

    assert.match(cli.output(), /warn TLS is off \(--no-tls\): plain HTTP\/1\.1, unencrypted, for local development only\n/);
    assert.deepEqual((await fs.readdir(dir)).sort(), ['root']);
  });

  test('curl gets the file over plain HTTP/1.1, two requests on one connection', { skip: curlSkipReason() }, async (t) => {
    const { root, env } = await fixture(t);
    const cli = await spawnCli([root, '--no-tls', '--port', '0', '--no-precompress'], { engine, env });
    t.after(() => cli.stop());
    const url = `http://127.0.0.1:${cli.port}/a.txt`;
    const res = await curl(['-v', '--compressed', '-H', 'Accept-Encoding: br', url, url]);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout.toString(), FILE + FILE);
    assert.match(res.stderr, /< HTTP\/1\.1 200 OK/);
    assert.match(res.stderr, /< content-encoding: br/i);
    assert.match(res.stderr, /Re-using existing connection/);
  });
});

test('--no-tls with --http-port or --cert is a bad option (exit 2, one line)', async (t) => {
  const { root, env } = await fixture(t);
  for (const [args, message] of [
    [['--http-port', '0'], 'negotiate-h2: --http-port needs TLS and cannot go with --no-tls\n'],
    [['--cert', '/tmp/c.pem', '--key', '/tmp/k.pem'], 'negotiate-h2: --cert needs TLS and cannot go with --no-tls\n'],
  ]) {
    const res = await new Promise((resolve) => {
      execFile(process.execPath, [path.join(REPO_ROOT, 'server'), root, '--no-tls', ...args], { env: { ...process.env, ...env }, timeout: 20_000 },
        (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stderr }));
    });
    assert.equal(res.code, 2, args.join(' '));
    assert.equal(res.stderr, message);
  }
});
