'use strict';
// A throwaway self-signed certificate for localhost/127.0.0.1/::1 written to dir, so the servers
// under test share one certificate and key type (RSA 2048, like a typical production key) and
// nothing depends on the repo's certs/ folder or the user's local CA. Made by the server's own
// certificate code, so there is one way to build one.
const fs = require('node:fs/promises');
const path = require('node:path');
const { generateSelfSigned } = require('../../server/tls/certs');

async function writeSelfSignedCert(dir) {
  const pair = await generateSelfSigned();
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  await fs.writeFile(cert, pair.cert);
  await fs.writeFile(key, pair.key, { mode: 0o600 });
  return { cert, key };
}

module.exports = { writeSelfSignedCert };
