'use strict';
// Starting a reference server (nginx, h2o) for one run: its own temporary
// prefix for config, pid and logs, a free port, the command pinned to the
// server core, and readiness by polling the port, since neither prints a
// line when it is ready.
const fs = require('node:fs/promises');
const net = require('node:net');
const path = require('node:path');
const { spawnGroup, stopGroup } = require('../lib/process-group');
const { freePort } = require('../lib/free-port');

// configure(prefix, port) writes the server's files and returns [cmd, args].
// Resolves to { url, pgid, stop() }; stop() also removes the prefix.
async function startExternalServer({ name, tmpDir, pin, configure }) {
  const prefix = await fs.mkdtemp(path.join(tmpDir, `${name}-`));
  const port = await freePort();
  const [cmd, args] = pin(...(await configure(prefix, port)));
  const child = spawnGroup(cmd, args);
  let output = '';
  const keep = (c) => { output = (output + c).slice(-2000); };
  child.stderr.setEncoding('utf8').on('data', keep);
  child.stdout.setEncoding('utf8').on('data', keep);
  try {
    await waitForListening(child, port, { name, output: () => output.trim() });
  } catch (err) {
    await stopGroup(child);
    await fs.rm(prefix, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `https://127.0.0.1:${port}/`,
    pgid: child.pid,
    async stop() {
      await stopGroup(child);
      await fs.rm(prefix, { recursive: true, force: true });
    },
  };
}

async function waitForListening(child, port, { name, output, timeoutMs = 10000 }) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw Object.assign(new Error(`${name} exited ${child.exitCode}: ${output()}`), { code: 'ESTARTUP' });
    }
    const ok = await new Promise((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => { s.destroy(); resolve(true); });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw Object.assign(new Error(`${name} did not listen on ${port} within ${timeoutMs} ms: ${output()}`), { code: 'ESTARTUP' });
}

module.exports = { startExternalServer };
