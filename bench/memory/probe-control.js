'use strict';
// The memory benchmarks' server probe (bench/memory/server-probe.js): started in its own process
// on a temporary root, asked a message over IPC, and glibc's malloc_trim(0) called in it through
// gdb, to tell memory malloc keeps free from memory in use (a diagnostic: the server never calls it).
const fs = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { writeSelfSignedCert } = require('../lib/tls-cert');
const { installCleanupHandlers, registerTempDir, removeTempDir, spawnGroup, stopGroup, waitForLine } = require('../lib/process-group');
const { NODE_FLAGS } = require('../server/project-server');

// The probe's first moments (its start-up allocations) are not the load's.
const START_SETTLE_MS = 500;

/**
 * Starts the probe on a fresh temporary root holding `files` ({ name: contents }) with a new
 * certificate, under `ulimit -n fdLimit` when given, runs fn({ child, port, ca }), then stops it
 * and removes the root. serverOptions: more startServer() options.
 */
async function withProbe({ prefix, files, serverOptions, fdLimit }, fn) {
  installCleanupHandlers();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  registerTempDir(dir);
  const root = path.join(dir, 'root');
  await fs.mkdir(root);
  for (const [name, contents] of Object.entries(files)) await fs.writeFile(path.join(root, name), contents);
  const { cert, key } = await writeSelfSignedCert(dir);
  const options = { root, port: 0, host: '127.0.0.1', logLevel: 'error', cert, key, ...serverOptions };
  const node = [process.execPath, ...NODE_FLAGS, '--expose-gc', path.join(__dirname, 'server-probe.js'), JSON.stringify(options)];
  const command = fdLimit === undefined ? node : ['/bin/sh', '-c', 'ulimit -n "$0" && exec "$@"', String(fdLimit), ...node];
  const child = spawnGroup(command[0], command.slice(1), { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  try {
    const port = Number(new URL(await waitForLine(child, /https:\/\//, { what: 'server' })).port);
    child.stdout.resume();
    child.stderr.resume();
    await new Promise((resolve) => setTimeout(resolve, START_SETTLE_MS));
    return await fn({ child, port, ca: await fs.readFile(cert) });
  } finally {
    await stopGroup(child);
    await removeTempDir(dir);
  }
}

/** Sends `message` to the probe and resolves its answer. */
function ask(child, message) {
  return new Promise((resolve) => {
    child.once('message', resolve);
    child.send(message);
  });
}

function mallocTrim(pid) {
  const gdb = spawnSync('gdb', ['-p', String(pid), '-batch', '-ex', 'call (int)malloc_trim(0)'], { encoding: 'utf8', timeout: 60_000 });
  if (gdb.error || !/^\$1 = [01]$/m.test(gdb.stdout)) throw new Error(`gdb could not call malloc_trim in ${pid}: ${gdb.error?.message ?? gdb.stderr.trim().split('\n').at(-1)}`);
}

module.exports = { withProbe, ask, mallocTrim };
