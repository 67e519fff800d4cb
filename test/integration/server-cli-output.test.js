'use strict';
// What the CLI prints, as a user sees it: --version, the examples of --help, output piped into a
// reader that stops early (| head -1), stdout under --log-format json, the start-up hints, the
// 404 of a root without index.html, and one line per file changed under --watch.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const fsSync = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, execFile } = require('node:child_process');
const { spawnCli, makeTempDir, compressibleText, REPO_ROOT, PASS_DONE, cachedVariant } = require('../helpers/server');
const { createClients } = require('../helpers/clients');
const { waitFor } = require('../helpers/poll');
const { parseCli } = require('../../server/config/options');
const { EXAMPLES } = require('../../server/cli');
const { version } = require('../../package.json');

// The local CA of this file's servers: a temporary --ca-dir (through its environment twin).
process.env.NEGOTIATE_CA_DIR = fsSync.mkdtempSync(path.join(os.tmpdir(), 'negotiate-output-ca-'));
test.after(() => fs.rm(process.env.NEGOTIATE_CA_DIR, { recursive: true, force: true }));

function runCli(args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(REPO_ROOT, 'server'), ...args], { timeout: 20_000 },
      (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr }));
  });
}

async function fixture(t, files) {
  const dir = await makeTempDir('negotiate-output-');
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  const root = path.join(dir, 'root');
  await fs.mkdir(root);
  for (const [name, content] of Object.entries(files)) await fs.writeFile(path.join(root, name), content);
  return { dir, root, certsDir: path.join(dir, 'certs') };
}

test('--version and -v print the package version', async () => {
  for (const flag of ['--version', '-v']) {
    assert.deepEqual(await runCli([flag]), { code: 0, stdout: `${version}\n`, stderr: '' }, flag);
  }
});

test('--help ends with examples, each a command line that parses as written', async () => {
  const help = await runCli(['-h']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /\nExamples:\n/);
  for (const [command] of EXAMPLES) {
    assert.ok(help.stdout.includes(`  ${command} `), command);
    const args = command.split(' ').slice(command.startsWith('npx ') ? 2 : 1);
    if (args[0] === 'trust') continue;
    assert.doesNotThrow(() => parseCli(args, {}), command);
  }
  assert.ok(EXAMPLES.some(([command]) => command === 'npx negotiate-h2 trust'));
});

// The reader is gone before the command writes: its first write fails with EPIPE. args[0]: the
// script, relative to the repository.
function runIntoClosedPipe([script, ...args], env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, script), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (c) => { stderr += c; });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

test('output piped into a reader that stops (| head -1) ends quietly', async (t) => {
  const { dir, root } = await fixture(t, { 'a.txt': compressibleText(5000) });
  const home = path.join(dir, 'home');
  await fs.mkdir(home);
  const cases = [
    ['server', '--help'], ['server', '--version'], ['server', 'codings', root, '--quick'], ['server', 'trust', '--ca-dir', path.join(dir, 'ca')],
    // What the server runs at start-up, its stdout the server's: `negotiate-h2 | head -1`.
    ['tools/precompress', root],
  ];
  for (const args of cases) {
    assert.deepEqual(await runIntoClosedPipe(args, { HOME: home }), { code: 0, signal: null, stderr: '' }, args.join(' '));
  }
});

test('--log-format json: every line on stdout is a JSON object, start-up lines and hints included', async (t) => {
  const { root, certsDir } = await fixture(t, { 'a.txt': compressibleText(5000) });
  const srv = await spawnCli([root, '--port', '0', '--certs-dir', certsDir, '--log-format', 'json']);
  t.after(() => srv.stop('SIGKILL'));
  const clients = createClients({ port: srv.port, ca: await fs.readFile(path.join(process.env.NEGOTIATE_CA_DIR, 'ca.pem')) });
  t.after(() => clients.closeAll());
  const res = await clients.h2('/');
  // The background pass's summary is a log line too.
  await waitFor(() => PASS_DONE.test(srv.stdout()), { timeoutMs: 20_000, what: 'the start-up precompression\'s summary' });
  assert.deepEqual(await srv.stop(), { code: 0, signal: null });
  const lines = srv.stdout().trimEnd().split('\n');
  const objects = lines.map((line) => JSON.parse(line));
  assert.ok(objects.every((o) => o !== null && typeof o === 'object' && !Array.isArray(o)));
  const messages = objects.filter((o) => o.message !== undefined).map((o) => o.message);
  assert.ok(messages.some((m) => m.startsWith('listening on https://localhost:')), messages.join('\n'));
  assert.ok(objects.some((o) => o.path === '/' && o.status === 404), 'the access-log line');
  // Start-up hints name commands that run as written from a project that installed the package.
  const hints = messages.filter((m) => m.includes('trust'));
  assert.ok(hints.length > 0 && hints.every((m) => m.includes('"npx negotiate-h2 trust"')), hints.join('\n'));
  assert.equal(res.status, 404);
  assert.equal(res.body.toString(), 'no index.html in the served folder: add one, or list its files with --listing\n');
  assert.ok(messages.some((m) => PASS_DONE.test(m)), 'the precompression summary, as a JSON object');
});

test('--watch: one line per changed file, however many variants it has', async (t) => {
  const { root, certsDir } = await fixture(t, { 'f.txt': compressibleText(20_000) });
  const srv = await spawnCli([root, '--port', '0', '--certs-dir', certsDir, '--watch']);
  t.after(() => srv.stop('SIGKILL'));
  const clients = createClients({ port: srv.port, ca: await fs.readFile(path.join(process.env.NEGOTIATE_CA_DIR, 'ca.pem')) });
  t.after(() => clients.closeAll());
  const file = path.join(root, 'f.txt');
  const cached = async () => fs.stat(await cachedVariant(root, 'f.txt', '.lzma')).then(() => true, () => false);
  await waitFor(cached, { timeoutMs: 20_000, what: 'the start-up precompression' });
  const changes = () => srv.output().split('\n').filter((line) => line.includes('watch: f.txt changed')).length;
  for (let save = 1; save <= 2; save++) {
    await fs.appendFile(file, `save ${save}\n`);
    // Asked for before the watcher rewrites the variants: every one of them is stale now.
    assert.equal((await clients.h2('/f.txt', { headers: { 'accept-encoding': 'br' } })).status, 200);
    await waitFor(() => changes() === save, { timeoutMs: 10_000, what: `the line of save ${save}` });
  }
  await waitFor(cached, { timeoutMs: 10_000, what: 'the variants of the saved file' });
  assert.deepEqual(await srv.stop(), { code: 0, signal: null });
  const lines = srv.output().split('\n').filter((line) => line.includes('f.txt') && !/ GET /.test(line));
  assert.deepEqual(lines.map((line) => line.replace(/^\S+ /, '')), ['info watch: f.txt changed; updating its variants', 'info watch: f.txt changed; updating its variants']);
});
