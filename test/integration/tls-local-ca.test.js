'use strict';
// The local CA and the localhost certificate it signs: what is made, where, with which
// extensions and modes; which existing certificates are reused, remade, or left alone.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const path = require('node:path');
const crypto = require('node:crypto');
const { writeFileSync } = require('node:fs');
const { execFileSync } = require('node:child_process');
// node-forge (a devDependency) reads the certificates back: an X.509 implementation that is not ours.
const forge = require('node-forge');
const { loadCertificate, generateSelfSigned } = require('../../server/tls/certs');
const { Logger } = require('../../server/log/logger');
const { ConfigError } = require('../../server/errors');
const { makeTempDir } = require('../helpers/server');

const DAY_MS = 86_400_000;
const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
const log = new Logger({ level: 'silent' });

function extensions(pem) {
  const cert = forge.pki.certificateFromPem(pem);
  const get = (name) => cert.getExtension(name);
  return {
    basicConstraints: { cA: Boolean(get('basicConstraints').cA), critical: get('basicConstraints').critical },
    keyUsage: Object.fromEntries(['digitalSignature', 'keyEncipherment', 'keyCertSign', 'cRLSign', 'critical']
      .map((k) => [k, Boolean(get('keyUsage')[k])])),
  };
}

async function dirs(t) {
  const dir = await makeTempDir('negotiate-ca-');
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  return { dir, caDir: path.join(dir, 'config', 'negotiate-h2'), certsDir: path.join(dir, 'certs') };
}

test('first start makes a CA in --ca-dir and a localhost certificate it signed; later starts reuse both', async (t) => {
  const { caDir, certsDir } = await dirs(t);
  const first = await loadCertificate({ caDir, certsDir }, log);
  assert.equal(first.generated, true);
  assert.equal((await fs.stat(caDir)).mode & 0o777, 0o700);
  assert.equal((await fs.stat(path.join(caDir, 'ca-key.pem'))).mode & 0o777, 0o600);
  assert.equal((await fs.stat(path.join(certsDir, 'localhost-key.pem'))).mode & 0o777, 0o600);

  const caPem = await fs.readFile(path.join(caDir, 'ca.pem'), 'utf8');
  const ca = new crypto.X509Certificate(caPem);
  assert.match(ca.subject, /^CN=negotiate-h2 local CA [^@\n]+@[^\n]+$/m);
  assert.equal(ca.issuer, ca.subject);
  assert.deepEqual(extensions(caPem), {
    basicConstraints: { cA: true, critical: true },
    keyUsage: { digitalSignature: false, keyEncipherment: false, keyCertSign: true, cRLSign: true, critical: true },
  });
  const caDays = (Date.parse(ca.validTo) - Date.now()) / DAY_MS;
  assert.ok(caDays > 3649 && caDays <= 3650, `CA valid for ${caDays} days`);
  assert.equal(ca.publicKey.asymmetricKeyDetails.modulusLength, 2048);

  const leaf = new crypto.X509Certificate(first.cert);
  assert.equal(first.certFile, path.join(certsDir, 'localhost-cert.pem'));
  assert.equal(await fs.readFile(first.certFile, 'utf8'), first.cert);
  assert.ok(leaf.checkIssued(ca) && leaf.verify(ca.publicKey), 'signed by the CA');
  assert.equal(leaf.subjectAltName, 'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
  assert.deepEqual(leaf.keyUsage, [SERVER_AUTH]);
  assert.deepEqual(extensions(first.cert), {
    basicConstraints: { cA: false, critical: true },
    keyUsage: { digitalSignature: true, keyEncipherment: true, keyCertSign: false, cRLSign: false, critical: true },
  });
  const leafDays = (Date.parse(leaf.validTo) - Date.now()) / DAY_MS;
  assert.ok(leafDays > 824 && leafDays <= 825, `leaf valid for ${leafDays} days`);
  assert.ok(leaf.checkPrivateKey(crypto.createPrivateKey(first.key)));

  const second = await loadCertificate({ caDir, certsDir }, log);
  assert.equal(second.generated, false);
  assert.equal(second.cert, first.cert);
  assert.equal(await fs.readFile(path.join(caDir, 'ca.pem'), 'utf8'), caPem);
});

// openssl makes the certificates this tool would never make itself.
function openssl(dir, name, { subject, days, san, signer }) {
  const key = path.join(dir, `${name}-key.pem`);
  const cert = path.join(dir, `${name}-cert.pem`);
  const ext = path.join(dir, `${name}.ext`);
  execFileSync('openssl', ['genrsa', '-out', key, '2048'], { stdio: 'ignore' });
  writeFileSync(ext, `basicConstraints=critical,CA:FALSE\nsubjectAltName=${san}\n`);
  const csr = execFileSync('openssl', ['req', '-new', '-key', key, '-subj', subject]);
  const signing = signer ? ['-CA', signer.cert, '-CAkey', signer.key, '-set_serial', '7'] : ['-signkey', key];
  execFileSync('openssl', ['x509', '-req', '-days', String(days), '-extfile', ext, ...signing, '-out', cert], { input: csr, stdio: ['pipe', 'ignore', 'ignore'] });
  return { cert, key };
}

const OURS = '/CN=localhost/O=negotiate-h2 development certificate';
const FULL_SAN = 'DNS:localhost,IP:127.0.0.1,IP:::1';

test('an existing localhost certificate: reused, remade, or (not ours) refused and left alone', { skip: !hasOpenssl() && 'openssl not found' }, async (t) => {
  const cases = [
    // [label, openssl spec (signer 'ca' = the local CA, 'other' = another CA), outcome]
    ['ours, good', { subject: OURS, days: 400, san: FULL_SAN, signer: 'ca' }, 'reused'],
    ['someone else\'s, but signed by the local CA with every name', { subject: '/CN=me', days: 400, san: FULL_SAN, signer: 'ca' }, 'reused'],
    ['ours, expiring within 30 days', { subject: OURS, days: 20, san: FULL_SAN, signer: 'ca' }, 'remade'],
    ['ours, missing ::1', { subject: OURS, days: 400, san: 'DNS:localhost,IP:127.0.0.1', signer: 'ca' }, 'remade'],
    ['ours, signed by an older CA', { subject: OURS, days: 400, san: FULL_SAN, signer: 'other' }, 'remade'],
    ['the self-signed CN=localhost earlier versions made', { subject: '/CN=localhost', days: 825, san: FULL_SAN }, 'remade'],
    ['someone else\'s self-signed', { subject: '/CN=my.dev', days: 400, san: 'DNS:my.dev' }, 'refused'],
    ['someone else\'s, expiring', { subject: '/CN=me', days: 5, san: FULL_SAN, signer: 'ca' }, 'refused'],
  ];
  const { dir, caDir } = await dirs(t);
  await loadCertificate({ caDir, certsDir: path.join(dir, 'warmup') }, log);
  const local = { cert: path.join(caDir, 'ca.pem'), key: path.join(caDir, 'ca-key.pem') };
  const otherDir = path.join(dir, 'other');
  await fs.mkdir(otherDir);
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '30', '-subj', '/CN=other CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-keyout', path.join(otherDir, 'k.pem'), '-out', path.join(otherDir, 'c.pem')], { stdio: 'ignore' });
  const other = { cert: path.join(otherDir, 'c.pem'), key: path.join(otherDir, 'k.pem') };

  for (const [i, [label, spec, outcome]] of cases.entries()) {
    const certsDir = path.join(dir, `case-${i}`);
    await fs.mkdir(certsDir);
    const made = openssl(certsDir, 'src', { ...spec, signer: spec.signer === 'ca' ? local : spec.signer === 'other' ? other : null });
    await fs.rename(made.cert, path.join(certsDir, 'localhost-cert.pem'));
    await fs.rename(made.key, path.join(certsDir, 'localhost-key.pem'));
    const before = await fs.readFile(path.join(certsDir, 'localhost-cert.pem'), 'utf8');
    let result;
    try {
      const got = await loadCertificate({ caDir, certsDir }, log);
      result = got.generated ? 'remade' : got.cert === before ? 'reused' : 'changed without saying so';
    } catch (err) {
      assert.ok(err instanceof ConfigError, `${label}: ${err.stack}`);
      assert.match(err.message, /was not made by negotiate-h2; move it away, or serve it with --cert\/--key$/, label);
      result = 'refused';
    }
    assert.equal(result, outcome, label);
    const after = await fs.readFile(path.join(certsDir, 'localhost-cert.pem'), 'utf8');
    assert.equal(after === before, outcome !== 'remade', `${label}: file ${outcome === 'remade' ? 'not replaced' : 'touched'}`);
  }
});

test('a broken CA in --ca-dir is reported, never replaced', async (t) => {
  const { caDir, certsDir } = await dirs(t);
  await fs.mkdir(caDir, { recursive: true });
  await fs.writeFile(path.join(caDir, 'ca.pem'), 'not a certificate');
  await assert.rejects(loadCertificate({ caDir, certsDir }, log), (err) => err instanceof ConfigError
    && err.message === `--ca-dir: ${path.join(caDir, 'ca.pem')} exists without its pair; move it away to make a new CA`);
  const { cert, key } = await generateSelfSigned();
  await fs.writeFile(path.join(caDir, 'ca.pem'), cert);
  await fs.writeFile(path.join(caDir, 'ca-key.pem'), key);
  await assert.rejects(loadCertificate({ caDir, certsDir }, log), (err) => err instanceof ConfigError
    && err.message.startsWith(`--ca-dir: ${caDir}: ca.pem is not a CA certificate;`));
  assert.equal(await fs.readFile(path.join(caDir, 'ca.pem'), 'utf8'), cert);
});

test('generateSelfSigned: a throwaway localhost pair that is its own issuer', async () => {
  const { cert, key } = await generateSelfSigned();
  const x509 = new crypto.X509Certificate(cert);
  assert.ok(x509.verify(x509.publicKey));
  assert.ok(x509.checkPrivateKey(crypto.createPrivateKey(key)));
  assert.equal(x509.subjectAltName, 'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
});

function hasOpenssl() {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

test('--cert-host names are added to the local certificate, which is remade when the set changes', async (t) => {
  const { caDir, certsDir } = await dirs(t);
  const lines = [];
  const recording = { info: (line) => lines.push(line), warn: (line) => lines.push(line), debug() {} };
  const plain = await loadCertificate({ caDir, certsDir, host: '127.0.0.1', certHosts: [] }, log);
  const named = await loadCertificate({ caDir, certsDir, host: '127.0.0.1', certHosts: ['my-box.test', '10.9.8.7'] }, recording);
  assert.equal(named.generated, true);
  assert.match(lines.join(''), /remaking .*localhost-cert\.pem: it names localhost, 127\.0\.0\.1, ::1, not localhost, 127\.0\.0\.1, ::1, my-box\.test, 10\.9\.8\.7/);
  const x509 = new crypto.X509Certificate(named.cert);
  assert.equal(x509.subjectAltName, 'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:my-box.test, IP Address:10.9.8.7');
  assert.equal(x509.checkHost('my-box.test'), 'my-box.test');
  assert.equal(x509.checkIP('10.9.8.7'), '10.9.8.7');
  // The same set again: reused. A name dropped: remade without it.
  assert.equal((await loadCertificate({ caDir, certsDir, host: '127.0.0.1', certHosts: ['10.9.8.7', 'my-box.test'] }, log)).cert, named.cert);
  const again = await loadCertificate({ caDir, certsDir, host: '127.0.0.1', certHosts: [] }, log);
  assert.equal(again.generated, true);
  assert.equal(new crypto.X509Certificate(again.cert).subjectAltName, new crypto.X509Certificate(plain.cert).subjectAltName);
});

test('--cert-host with --cert is refused in one line', async (t) => {
  const { caDir, certsDir } = await dirs(t);
  await assert.rejects(loadCertificate({ caDir, certsDir, cert: '/x.pem', key: '/y.pem', certHosts: ['a.test'] }, log),
    (err) => err instanceof ConfigError && /certHosts: adds names to the local certificate, but cert serves your own/.test(err.message));
});
