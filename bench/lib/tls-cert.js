'use strict';
// A throwaway self-signed certificate for 127.0.0.1/localhost, so the servers
// under test share one certificate and key type (RSA 2048, like a typical
// production key) and nothing depends on the repo's certs/ folder.
const fs = require('node:fs/promises');
const path = require('node:path');
const selfsigned = require('selfsigned');

async function writeSelfSignedCert(dir) {
  const pems = await new Promise((resolve, reject) => {
    selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
      keySize: 2048,
      days: 2,
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }],
    }, (err, result) => (err ? reject(err) : resolve(result)));
  });
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  await fs.writeFile(cert, pems.cert);
  await fs.writeFile(key, pems.private, { mode: 0o600 });
  return { cert, key };
}

module.exports = { writeSelfSignedCert };
