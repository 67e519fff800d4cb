'use strict';
// server/tls/x509.js: the CA and the leaf it signs, read back by node:crypto and by openssl (the
// extensions as another implementation decodes them), and a leaf signed by a CA that openssl
// made, whose authority key identifier must be that CA's own.

const test = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { makeCa, makeLeaf, DAY_MS } = require('../../server/tls/x509');

const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

function opensslText(pem) {
  return execFileSync('openssl', ['x509', '-noout', '-text'], { input: pem }).toString();
}

test('a CA and a leaf it signs: names, issuer, signatures, validity, serials', async () => {
  const before = Date.now();
  const ca = await makeCa('negotiate-h2 CA user@host');
  const leaf = await makeLeaf(ca);
  const caCert = new crypto.X509Certificate(ca.cert);
  const leafCert = new crypto.X509Certificate(leaf.cert);
  assert.equal(caCert.subject, 'CN=negotiate-h2 CA user@host\nO=negotiate-h2');
  assert.equal(caCert.issuer, caCert.subject);
  assert.equal(leafCert.subject, 'CN=localhost\nO=negotiate-h2 development certificate');
  assert.equal(leafCert.issuer, caCert.subject);
  assert.equal(caCert.ca, true);
  assert.equal(leafCert.ca, false);
  assert.ok(caCert.verify(caCert.publicKey));
  assert.ok(leafCert.verify(caCert.publicKey));
  assert.ok(leafCert.checkIssued(caCert));
  assert.ok(leafCert.checkPrivateKey(crypto.createPrivateKey(leaf.key)));
  assert.equal(leafCert.subjectAltName, 'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
  assert.deepEqual(leafCert.keyUsage, ['1.3.6.1.5.5.7.3.1']);
  for (const [cert, days] of [[caCert, 3650], [leafCert, 825]]) {
    const from = Date.parse(cert.validFrom);
    // Backdated a minute, to the second.
    assert.ok(from <= before - 59_000 && from >= before - 61_000, cert.validFrom);
    assert.equal(Date.parse(cert.validTo) - from, days * DAY_MS + 60_000);
    assert.match(cert.serialNumber, /^[4-7][0-9A-F]{31}$/);
  }
  assert.notEqual(caCert.serialNumber, leafCert.serialNumber);
});

test('a leaf without a CA is its own issuer', async () => {
  const { cert, key } = await makeLeaf();
  const x509 = new crypto.X509Certificate(cert);
  assert.equal(x509.issuer, x509.subject);
  assert.ok(x509.verify(crypto.createPublicKey(key)));
});

test('openssl reads the extensions as meant', { skip: !hasOpenssl && 'openssl not found' }, async () => {
  const ca = await makeCa('test CA');
  const leaf = await makeLeaf(ca);
  const caText = opensslText(ca.cert);
  const leafText = opensslText(leaf.cert);
  assert.match(caText, /Version: 3 \(0x2\)/);
  assert.match(caText, /X509v3 Basic Constraints: critical\s+CA:TRUE, pathlen:0/);
  assert.match(caText, /X509v3 Key Usage: critical\s+Certificate Sign, CRL Sign\n/);
  assert.match(leafText, /X509v3 Basic Constraints: critical\s+CA:FALSE/);
  assert.match(leafText, /X509v3 Key Usage: critical\s+Digital Signature, Key Encipherment\n/);
  assert.match(leafText, /X509v3 Extended Key Usage: \s+TLS Web Server Authentication\n/);
  assert.match(leafText, /Signature Algorithm: sha256WithRSAEncryption/);
  const ski = /Subject Key Identifier: \s+([0-9A-F:]+)/.exec(caText)[1];
  assert.match(leafText, new RegExp(`Authority Key Identifier: \\s+(keyid:)?${ski}\\n`));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'x509-'));
  try {
    fs.writeFileSync(path.join(dir, 'ca.pem'), ca.cert);
    fs.writeFileSync(path.join(dir, 'leaf.pem'), leaf.cert);
    assert.equal(execFileSync('openssl', ['verify', '-x509_strict', '-CAfile', path.join(dir, 'ca.pem'), path.join(dir, 'leaf.pem')]).toString(),
      `${path.join(dir, 'leaf.pem')}: OK\n`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a leaf signed by a CA openssl made names that CA\'s key identifier', { skip: !hasOpenssl && 'openssl not found' }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'x509-'));
  try {
    const keyFile = path.join(dir, 'ca-key.pem');
    const certFile = path.join(dir, 'ca.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '30', '-subj', '/CN=other CA/O=elsewhere',
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign', '-keyout', keyFile, '-out', certFile], { stdio: 'ignore' });
    const ca = { cert: fs.readFileSync(certFile, 'utf8'), key: fs.readFileSync(keyFile, 'utf8') };
    const leaf = await makeLeaf(ca);
    assert.equal(new crypto.X509Certificate(leaf.cert).issuer, 'CN=other CA\nO=elsewhere');
    const ski = /Subject Key Identifier: \s+([0-9A-F:]+)/.exec(opensslText(ca.cert))[1];
    assert.match(opensslText(leaf.cert), new RegExp(`Authority Key Identifier: \\s+(keyid:)?${ski}\\n`));
    fs.writeFileSync(path.join(dir, 'leaf.pem'), leaf.cert);
    execFileSync('openssl', ['verify', '-x509_strict', '-CAfile', certFile, path.join(dir, 'leaf.pem')], { stdio: 'ignore' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
