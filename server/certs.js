'use strict';
// TLS material: the configured --cert/--key, or a self-signed localhost certificate made on
// first start in the certs directory and reused afterwards.

const fs = require('node:fs/promises');
const path = require('node:path');
const crypto = require('node:crypto');
const { promisify } = require('node:util');
const selfsigned = require('selfsigned');
const { ConfigError } = require('./errors');

const CERT_FILE = 'localhost-cert.pem';
const KEY_FILE = 'localhost-key.pem';
const VALID_DAYS = 825; // the longest validity Apple platforms accept for a TLS server certificate

// Resolves { cert, key } PEM strings for localhost (SAN: localhost, 127.0.0.1, ::1).
async function generateSelfSigned() {
  // Node's native key generation is fast and off the main thread; selfsigned only signs.
  const { publicKey, privateKey } = await promisify(crypto.generateKeyPair)('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  const pems = selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    keyPair: { publicKey, privateKey },
    days: VALID_DAYS,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [
        { type: 2, value: 'localhost' },
        { type: 7, ip: '127.0.0.1' },
        { type: 7, ip: '::1' },
      ] },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

async function readPair(certFile, keyFile) {
  const [cert, key] = await Promise.all([fs.readFile(certFile), fs.readFile(keyFile)]);
  return { cert, key };
}

// The configured --cert/--key, read and checked to be a certificate and its key, so a wrong
// path or file is one line naming the flag rather than a TLS stack trace.
async function readConfiguredPair(certFile, keyFile) {
  const read = (flag, file) => fs.readFile(file).catch((err) => {
    throw new ConfigError(`--${flag}: cannot read ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  });
  const cert = await read('cert', certFile);
  const key = await read('key', keyFile);
  let x509;
  let privateKey;
  try {
    x509 = new crypto.X509Certificate(cert);
  } catch {
    throw new ConfigError(`--cert: ${certFile} is not a PEM certificate`);
  }
  try {
    privateKey = crypto.createPrivateKey(key);
  } catch {
    throw new ConfigError(`--key: ${keyFile} is not a PEM private key (or it is encrypted)`);
  }
  if (!x509.checkPrivateKey(privateKey)) throw new ConfigError(`--key: ${keyFile} is not the key of the certificate in ${certFile}`);
  return { cert, key };
}

// Resolves { cert, key, generated, certFile } from options.cert/key or options.certsDir.
async function loadCertificate({ cert, key, certsDir }, log) {
  if (cert) return { ...(await readConfiguredPair(cert, key)), generated: false, certFile: cert };
  const certFile = path.join(certsDir, CERT_FILE);
  const keyFile = path.join(certsDir, KEY_FILE);
  const certsDirError = (err) => new ConfigError(`--certs-dir: ${certsDir}: ${err.message}`);
  try {
    return { ...(await readPair(certFile, keyFile)), generated: false, certFile };
  } catch (err) {
    if (err.code !== 'ENOENT') throw certsDirError(err);
  }
  const pair = await generateSelfSigned();
  // Written under temporary names and renamed so a concurrent start never reads half a file.
  const suffix = `.${process.pid}.tmp`;
  try {
    await fs.mkdir(certsDir, { recursive: true });
    await fs.writeFile(keyFile + suffix, pair.key, { mode: 0o600 });
    await fs.writeFile(certFile + suffix, pair.cert);
    await fs.rename(keyFile + suffix, keyFile);
    await fs.rename(certFile + suffix, certFile);
  } catch (err) {
    throw certsDirError(err);
  }
  log.info(`generated a self-signed certificate for localhost in ${certFile} (reused on later starts)`);
  return { ...pair, generated: true, certFile };
}

// The DNS names (wildcards included) and IP addresses in a PEM certificate's subjectAltName.
function certificateNames(cert) {
  const san = new crypto.X509Certificate(cert).subjectAltName ?? '';
  return [...san.matchAll(/(?:^|, )(?:DNS|IP Address):([^,]+)/g)].map((m) => m[1]);
}

module.exports = { loadCertificate, generateSelfSigned, certificateNames };
