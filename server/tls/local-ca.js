'use strict';
// The user's local certificate authority, made once in --ca-dir (the user's config directory,
// never the package) and reused: the localhost certificate it signs is what browsers accept once
// `negotiate-h2 trust` has installed the CA. The key never leaves that 0700 directory.

const fs = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { ConfigError } = require('../errors');
const { makeCa, DAY_MS } = require('./x509');
const { writePemPair } = require('./write-pem-pair');

// The command as a user types it: npx finds the bin of a local install (which is not on PATH)
// as well as a global one.
const TRUST_COMMAND = 'npx negotiate-h2 trust';

const CA_CERT_FILE = 'ca.pem';
const CA_KEY_FILE = 'ca-key.pem';

function caFiles(caDir) {
  return { certFile: path.join(caDir, CA_CERT_FILE), keyFile: path.join(caDir, CA_KEY_FILE) };
}

// Names the CA after the account and machine, so a user who trusts CAs from several machines
// can tell them apart in a browser's certificate manager.
function newCaName() {
  let user;
  try {
    user = os.userInfo().username;
  } catch {
    user = process.env.USER || 'user';
  }
  return `negotiate-h2 local CA ${user}@${os.hostname()}`;
}

// The CA's common name, which is also its nickname in the NSS databases.
function caCommonName(x509) {
  return /^CN=(.*)$/m.exec(x509.subject)?.[1] ?? x509.subject;
}

// Resolves { cert, key, x509, name, certFile } of the CA in caDir, checked to be a usable CA:
// a broken or foreign pair is reported, never replaced (it may be trusted somewhere).
async function readCa(caDir) {
  const { certFile, keyFile } = caFiles(caDir);
  // One after the other, so a directory that cannot be read is reported the same way every time.
  const cert = await fs.readFile(certFile, 'utf8');
  const key = await fs.readFile(keyFile, 'utf8');
  const broken = (why) => new ConfigError(`--ca-dir: ${caDir}: ${why}; move ${CA_CERT_FILE} and ${CA_KEY_FILE} away to make a new CA (and run "${TRUST_COMMAND}" again)`);
  let x509;
  try {
    x509 = new crypto.X509Certificate(cert);
    if (!x509.checkPrivateKey(crypto.createPrivateKey(key))) throw new Error();
  } catch {
    throw broken(`${CA_CERT_FILE} and ${CA_KEY_FILE} are not a PEM certificate and its key`);
  }
  if (!x509.ca) throw broken(`${CA_CERT_FILE} is not a CA certificate`);
  if (Date.parse(x509.validTo) < Date.now() + DAY_MS) throw broken(`the CA expired on ${x509.validTo}`);
  return { cert, key, x509, name: caCommonName(x509), certFile };
}

// Errors of making a folder that mean no one may write there.
const UNWRITABLE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOENT', 'ENOTDIR']);

// The default --ca-dir is under HOME: where HOME cannot be written, that is what to say (the
// bare errno names a folder the user never chose), with the ways out.
function caDirError(caDir, err) {
  const home = os.homedir();
  if (UNWRITABLE.has(err.code) && !path.relative(home, caDir).startsWith('..')) {
    return new ConfigError(`--ca-dir: cannot make the local CA in ${caDir}: HOME (${home}) is not writable (${err.code}); ` +
      'choose a writable folder with --ca-dir DIR (or XDG_CONFIG_HOME), or serve your own certificate with --cert and --key');
  }
  return new ConfigError(`--ca-dir: ${caDir}: ${err.message}`);
}

// Resolves the CA in caDir, making it first if the directory has none.
async function loadOrCreateCa(caDir, log) {
  const dirError = (err) => caDirError(caDir, err);
  try {
    return await readCa(caDir);
  } catch (err) {
    if (err.code !== 'ENOENT') throw err instanceof ConfigError ? err : dirError(err);
  }
  const { certFile, keyFile } = caFiles(caDir);
  // One file without the other is not a CA this tool can reuse, nor one it may overwrite.
  for (const file of [certFile, keyFile]) {
    if (await fs.access(file).then(() => true, () => false)) {
      throw new ConfigError(`--ca-dir: ${file} exists without its pair; move it away to make a new CA`);
    }
  }
  const name = newCaName();
  const pair = await makeCa(name);
  try {
    await fs.mkdir(caDir, { recursive: true, mode: 0o700 });
    await writePemPair({ certFile, keyFile }, pair);
  } catch (err) {
    throw dirError(err);
  }
  log.info(`made a local certificate authority "${name}" in ${certFile}; "${TRUST_COMMAND}" makes browsers accept the certificates it signs`);
  return { ...pair, x509: new crypto.X509Certificate(pair.cert), name, certFile };
}

module.exports = { loadOrCreateCa, readCa, caFiles, TRUST_COMMAND };
