'use strict';
// A throwaway self-signed certificate for localhost/127.0.0.1/::1 written to dir, so the servers
// under test share one certificate and key type (RSA 2048, like a typical production key) and
// nothing depends on the default certificate folder or the user's local CA. Made by the server's own
// certificate code, so there is one way to build one.
const path = require('node:path');
const { generateSelfSigned } = require('../../server/tls/certs');
const { writePemPair } = require('../../server/tls/write-pem-pair');

async function writeSelfSignedCert(dir) {
  const files = { certFile: path.join(dir, 'cert.pem'), keyFile: path.join(dir, 'key.pem') };
  await writePemPair(files, await generateSelfSigned());
  return { cert: files.certFile, key: files.keyFile };
}

module.exports = { writeSelfSignedCert };
