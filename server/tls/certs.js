'use strict';
// TLS material: the configured --cert/--key, or a localhost certificate signed by the user's
// local CA (see tls/local-ca.js), made in the certs directory and reused while it stays good.

const fs = require('node:fs/promises');
const path = require('node:path');
const crypto = require('node:crypto');
const { ConfigError } = require('../errors');
const { optionName } = require('../config/options');
const { makeLeaf, LEAF_ORGANIZATION, DAY_MS } = require('./x509');
const { leafNames, canonicalName } = require('./local-names');
const { loadOrCreateCa, TRUST_COMMAND } = require('./local-ca');
const { writePemPair } = require('./write-pem-pair');

const CERT_FILE = 'localhost-cert.pem';
const KEY_FILE = 'localhost-key.pem';
// A certificate this close to expiry is remade at start rather than left to fail mid-run.
const RENEW_BEFORE_DAYS = 30;

// Resolves { cert, key } PEM strings of a self-signed certificate for localhost (SAN: localhost,
// 127.0.0.1, ::1): a throwaway pair for tests and benchmarks, trusted by passing it as `ca`.
function generateSelfSigned() {
  return makeLeaf();
}

// The configured cert and key files (--cert/--key), read and checked to be a certificate and its
// key, so a wrong path or file is one line naming the setting rather than a TLS stack trace.
async function readConfiguredPair(options) {
  const { cert: certFile, key: keyFile } = options;
  const fail = (key, why) => new ConfigError(`${optionName(options, key)}: ${why}`);
  const read = (key, file) => fs.readFile(file).catch((err) => {
    throw fail(key, `cannot read ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  });
  const cert = await read('cert', certFile);
  const key = await read('key', keyFile);
  let x509;
  let privateKey;
  try {
    x509 = new crypto.X509Certificate(cert);
  } catch {
    throw fail('cert', `${certFile} is not a PEM certificate`);
  }
  try {
    privateKey = crypto.createPrivateKey(key);
  } catch {
    throw fail('key', `${keyFile} is not a PEM private key (or it is encrypted)`);
  }
  if (!x509.checkPrivateKey(privateKey)) throw fail('key', `${keyFile} is not the key of the certificate in ${certFile}`);
  return { cert, key };
}

// The DNS names (wildcards included) and IP addresses in a PEM certificate's subjectAltName.
function certificateNames(cert) {
  const san = new crypto.X509Certificate(cert).subjectAltName ?? '';
  return [...san.matchAll(/(?:^|, )(?:DNS|IP Address):([^,]+)/g)].map((m) => m[1]);
}

function parseCertificate(cert) {
  try {
    return new crypto.X509Certificate(cert);
  } catch {
    return null;
  }
}

// Why the pair in the certs directory cannot serve (null: it can). `x509` is null when the
// certificate does not parse, `key` null when its file is missing; `names` what it must name,
// no more and no less (a name dropped from --cert-host is dropped from the certificate too).
function leafProblem(x509, key, ca, names) {
  if (x509 === null) return 'is not a PEM certificate';
  if (key === null) return `has no ${KEY_FILE} next to it`;
  let keyMatches;
  try {
    keyMatches = x509.checkPrivateKey(crypto.createPrivateKey(key));
  } catch {
    keyMatches = false;
  }
  if (!keyMatches) return `does not match ${KEY_FILE}`;
  if (!x509.checkIssued(ca.x509) || !x509.verify(ca.x509.publicKey)) return `is not signed by the local CA in ${ca.certFile}`;
  if (Date.parse(x509.validTo) < Date.now() + RENEW_BEFORE_DAYS * DAY_MS) return `expires within ${RENEW_BEFORE_DAYS} days (${x509.validTo})`;
  const held = new Set(certificateNames(x509.toString()).map(canonicalName));
  const wanted = new Set(names.map(canonicalName));
  if (held.size !== wanted.size || [...wanted].some((n) => !held.has(n))) return `names ${[...held].join(', ')}, not ${[...wanted].join(', ')}`;
  return null;
}

// Whether this tool wrote the certificate: its organization marks it, or it is the self-signed
// CN=localhost certificate that versions before the local CA made here.
function madeByTool(x509) {
  if (x509 === null) return false;
  return x509.subject.split('\n').includes(`O=${LEAF_ORGANIZATION}`)
    || (x509.subject === 'CN=localhost' && x509.issuer === 'CN=localhost');
}

async function readIfPresent(file) {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    if (err.code === 'ENOENT') return null;
    throw err;
  }
}

// Resolves { cert, key, generated, certFile } from options.cert/key, or the local certificate
// in options.certsDir (localhost, --cert-host's names, every reachable address when listening
// on all of them) signed by the CA in options.caDir (both made when needed).
async function loadCertificate(options, log) {
  const { cert, certsDir, caDir, certHosts = [] } = options;
  if (cert) {
    if (certHosts.length > 0) throw new ConfigError(`${optionName(options, 'certHosts')}: adds names to the local certificate, but ${optionName(options, 'cert')} serves your own`);
    return { ...(await readConfiguredPair(options)), generated: false, certFile: cert };
  }
  const names = leafNames(options);
  const ca = await loadOrCreateCa(caDir, log);
  const certFile = path.join(certsDir, CERT_FILE);
  const keyFile = path.join(certsDir, KEY_FILE);
  const certsDirError = (err) => new ConfigError(`--certs-dir: ${certsDir}: ${err.message}`);
  let existing;
  try {
    existing = { cert: await readIfPresent(certFile), key: await readIfPresent(keyFile) };
  } catch (err) {
    throw certsDirError(err);
  }
  if (existing.cert !== null) {
    const x509 = parseCertificate(existing.cert);
    const problem = leafProblem(x509, existing.key, ca, names);
    if (problem === null) return { cert: existing.cert, key: existing.key, generated: false, certFile };
    if (!madeByTool(x509)) {
      throw new ConfigError(`--certs-dir: ${certFile} ${problem} and was not made by negotiate-h2; move it away, or serve it with --cert/--key`);
    }
    log.info(`remaking ${certFile}: it ${problem}`);
  } else if (existing.key !== null) {
    throw new ConfigError(`--certs-dir: ${keyFile} exists without ${CERT_FILE}; move it away`);
  }
  const pair = await makeLeaf(ca, names);
  try {
    await fs.mkdir(certsDir, { recursive: true, mode: 0o700 });
    await writePemPair({ certFile, keyFile }, pair);
  } catch (err) {
    throw certsDirError(err);
  }
  log.info(`made a certificate for ${names.join(', ')} signed by the local CA in ${certFile} (reused on later starts); trust ${ca.certFile} with "${TRUST_COMMAND}", or curl --cacert it`);
  return { ...pair, generated: true, certFile };
}

module.exports = { loadCertificate, generateSelfSigned, certificateNames, readConfiguredPair };
