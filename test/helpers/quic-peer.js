'use strict';
// The peer side of the QUIC transport's tests (test/integration/quic-transport.test.js and the
// valgrind exercise test/helpers/quic-exercise.js): two test CAs, each with a leaf for localhost,
// and aioquic with raw streams under ALPN h3 (test/helpers/quic-raw-client.py, which verifies
// the CA it is given) run without blocking the server's loop.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFile, execFileSync } = require('node:child_process');
const { makeCa, makeLeaf } = require('../../server/tls/x509');

const CLIENT = path.join(__dirname, 'quic-raw-client.py');

function aioquicMissing() {
  try {
    execFileSync('python3', ['-c', 'import aioquic'], { stdio: 'ignore' });
    return false;
  } catch {
    return 'python3 aioquic is not installed (bash scripts/system-deps.sh install)';
  }
}

// { dir, identities: [{ cert, key, caFile }, ...] }: leaf Buffers and the file of their own CA.
async function makeIdentities(count = 2) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quic-ca-'));
  const identities = [];
  for (let i = 0; i < count; i++) {
    const ca = await makeCa(`negotiate-h2 quic test CA ${i}`);
    const leaf = await makeLeaf(ca);
    const caFile = path.join(dir, `ca${i}.pem`);
    fs.writeFileSync(caFile, ca.cert);
    identities.push({ cert: Buffer.from(leaf.cert), key: Buffer.from(leaf.key), caFile });
  }
  return { dir, identities };
}

// Runs one plan (see quic-raw-client.py) against 127.0.0.1:port; resolves its JSON result.
function rawClient(port, caFile, plan, timeoutMs = 30_000) {
  return new Promise((resolve, reject) => {
    execFile('python3', [CLIENT, '127.0.0.1', String(port), caFile, JSON.stringify(plan)], { timeout: timeoutMs },
      (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout))));
  });
}

module.exports = { aioquicMissing, makeIdentities, rawClient };
