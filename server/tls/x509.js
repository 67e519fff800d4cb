'use strict';
// Builds the two kinds of certificate the server makes: a local certificate authority and a
// localhost server certificate (signed by that CA, or by its own key for throwaway test pairs).
// Node has no X.509 builder, so node-forge encodes and signs; keys come from node:crypto
// (native, off the main thread). RSA 2048 because forge signs only with RSA.

const crypto = require('node:crypto');
const { promisify } = require('node:util');
// node-forge (about 9 MiB resident once loaded) is loaded when a certificate is first made or
// read, not by a server that is given its own.
let forgeModule = null;
const forge = () => (forgeModule ??= require('node-forge'));

const DAY_MS = 86_400_000;
const CA_VALID_DAYS = 3650;
const LEAF_VALID_DAYS = 825; // the longest validity Apple platforms accept for a TLS server certificate
// Subject organization of every server certificate the tool makes: how it recognizes its own
// files (and leaves everyone else's alone), as mkcert does with "mkcert development certificate".
const LEAF_ORGANIZATION = 'negotiate-h2 development certificate';
const LEAF_NAMES = ['localhost', '127.0.0.1', '::1'];
// Clocks of a browser and the server may disagree a little.
const BACKDATE_MS = 60_000;

const generateKeyPair = promisify(crypto.generateKeyPair);

async function newKeyPair() {
  return generateKeyPair('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
}

// 128 random bits with the top bit clear: a positive DER INTEGER without a padding byte.
function randomSerial() {
  const bytes = crypto.randomBytes(16);
  bytes[0] &= 0x7f;
  return bytes.toString('hex');
}

// UTF8String names: forge defaults to PrintableString, which has no '@' (as in user@host), and
// Chromium rejects a certificate whose names break their string type.
function names(commonName, organizationName) {
  const utf8 = forge().asn1.Type.UTF8;
  return [
    { name: 'commonName', value: forge().util.encodeUtf8(commonName), valueTagClass: utf8 },
    { name: 'organizationName', value: forge().util.encodeUtf8(organizationName), valueTagClass: utf8 },
  ];
}

function sign({ publicKey, subject, issuer, signingKey, days, extensions }) {
  const cert = forge().pki.createCertificate();
  cert.publicKey = forge().pki.publicKeyFromPem(publicKey);
  cert.serialNumber = randomSerial();
  const now = Date.now();
  cert.validity.notBefore = new Date(now - BACKDATE_MS);
  cert.validity.notAfter = new Date(now + days * DAY_MS);
  cert.setSubject(subject);
  cert.setIssuer(issuer);
  cert.setExtensions(extensions);
  cert.sign(forge().pki.privateKeyFromPem(signingKey), forge().md.sha256.create());
  return forge().pki.certificateToPem(cert);
}

// Resolves { cert, key } PEM strings of a CA named `name` (CA:true, keyCertSign + cRLSign).
async function makeCa(name) {
  const { publicKey, privateKey } = await newKeyPair();
  const subject = names(name, 'negotiate-h2');
  const cert = sign({
    publicKey,
    subject,
    issuer: subject,
    signingKey: privateKey,
    days: CA_VALID_DAYS,
    extensions: [
      { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
      { name: 'subjectKeyIdentifier' },
    ],
  });
  return { cert, key: privateKey };
}

// Resolves { cert, key } PEM strings of a server certificate for localhost, 127.0.0.1 and ::1,
// signed by `ca` ({ cert, key } PEM) or, without one, by its own key.
async function makeLeaf(ca = null) {
  const { publicKey, privateKey } = await newKeyPair();
  const subject = names('localhost', LEAF_ORGANIZATION);
  const caCert = ca && forge().pki.certificateFromPem(ca.cert);
  const extensions = [
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] },
    { name: 'subjectKeyIdentifier' },
  ];
  if (caCert) extensions.push({ name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() });
  const cert = sign({
    publicKey,
    subject,
    issuer: caCert ? caCert.subject.attributes : subject,
    signingKey: ca ? ca.key : privateKey,
    days: LEAF_VALID_DAYS,
    extensions,
  });
  return { cert, key: privateKey };
}

module.exports = { makeCa, makeLeaf, LEAF_ORGANIZATION, LEAF_NAMES, DAY_MS };
