'use strict';
// Requests over HTTP/3 through aioquic's client (h3-client.py: one QUIC connection, the server's
// certificate verified against a CA file), for tests that run beside the server in their own
// process and so must not block the event loop.

const assert = require('node:assert/strict');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');

const CLIENT = path.join(__dirname, 'h3-client.py');

/** Why aioquic's client cannot run here, or null. */
function aioquicMissing() {
  const python = spawnSync('python3', ['-c', 'import aioquic'], { encoding: 'utf8' });
  return python.status === 0 ? null : 'python3 with aioquic is not installed (see system-deps)';
}

/**
 * requests: [{ path, method?, headers? }], sent on one connection to 127.0.0.1:port, verified
 * against caFile as `serverName`. Resolves [{ status, headers (object), body (Buffer) }] in order.
 */
async function h3Fetch(port, caFile, requests, serverName = 'localhost') {
  const child = spawn('python3', [CLIENT, '127.0.0.1', String(port), caFile, serverName], { timeout: 120_000 });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => { stdout += chunk; });
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  child.stdin.end(JSON.stringify(requests));
  const [status] = await new Promise((resolve) => child.once('close', (...args) => resolve(args)));
  assert.equal(status, 0, stderr);
  return JSON.parse(stdout).map((r) => ({ ...r, body: Buffer.from(r.body, 'base64'), headers: Object.fromEntries(r.headers) }));
}

module.exports = { aioquicMissing, h3Fetch };
