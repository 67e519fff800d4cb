'use strict';
// Builds the two kinds of certificate the server makes: a local certificate authority and a
// localhost server certificate (signed by that CA, or by its own key for throwaway test pairs).
// Node has no X.509 builder, so the TBSCertificate is encoded here (DER: der.js) and signed with
// node:crypto; keys come from node:crypto too (native, off the main thread). No X.509 library:
// the one the server used (node-forge) weighed 1.8 MB installed and 9 MiB once loaded.

const crypto = require('node:crypto');
const net = require('node:net');
const { promisify } = require('node:util');
const der = require('./der');

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

// 126 random bits in 16 octets whose top bits are 01: positive, so DER needs no padding byte,
// and never led by zero bits DER would strip, so every serial has the same length (RFC 5280
// 4.1.2.2 allows up to 20 octets; CA/Browser Forum wants at least 64 random bits).
function randomSerial() {
  const bytes = crypto.randomBytes(16);
  bytes[0] = (bytes[0] & 0x3f) | 0x40;
  return bytes;
}

const OID = {
  commonName: '2.5.4.3',
  organizationName: '2.5.4.10',
  sha256WithRSAEncryption: '1.2.840.113549.1.1.11',
  ecdsaWithSHA256: '1.2.840.10045.4.3.2',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  subjectAltName: '2.5.29.17',
  subjectKeyIdentifier: '2.5.29.14',
  authorityKeyIdentifier: '2.5.29.35',
  serverAuth: '1.3.6.1.5.5.7.3.1',
};

// Names as UTF8String (RFC 5280 4.1.2.4): PrintableString has no '@' (as in user@host), and
// Chromium rejects a certificate whose names break their string type.
function distinguishedName(commonName, organizationName) {
  const rdn = (type, value) => der.set(der.sequence(der.oid(type), der.utf8String(value)));
  return der.sequence(rdn(OID.commonName, commonName), rdn(OID.organizationName, organizationName));
}

// The AlgorithmIdentifier of a SHA-256 signature by `key`: RSA PKCS #1 v1.5 carries a NULL
// parameter, ECDSA none (RFC 4055 5, RFC 5758 3.2).
function signatureAlgorithm(key) {
  return key.asymmetricKeyType === 'rsa'
    ? der.sequence(der.oid(OID.sha256WithRSAEncryption), der.nullValue())
    : der.sequence(der.oid(OID.ecdsaWithSHA256));
}

/** A public key (PEM or KeyObject) as its DER SubjectPublicKeyInfo and key identifier. */
function publicKeyParts(publicKey) {
  const key = publicKey instanceof crypto.KeyObject ? publicKey : crypto.createPublicKey(publicKey);
  const spki = key.export({ type: 'spki', format: 'der' });
  const [, bits] = der.children(spki, der.readTlv(spki));
  // RFC 5280 4.2.1.2 method 1: SHA-1 of the subjectPublicKey BIT STRING's value (past its
  // unused-bits byte), as node-forge, OpenSSL and mkcert compute it.
  return { spki, keyIdentifier: crypto.createHash('sha1').update(spki.subarray(bits.start + 1, bits.end)).digest() };
}

function extension(id, value, critical = false) {
  return der.sequence(der.oid(id), ...(critical ? [der.boolean(true)] : []), der.octetString(value));
}

// KeyUsage bits (RFC 5280 4.2.1.3), numbered from the first bit: a DER named BIT STRING drops
// its trailing zero bits, so the unused-bit count is what follows the last bit set.
function keyUsage(bitNumbers) {
  const last = Math.max(...bitNumbers);
  const bytes = Buffer.alloc((last >> 3) + 1);
  for (const n of bitNumbers) bytes[n >> 3] |= 0x80 >> (n & 7);
  return der.tlv(der.TAG.BIT_STRING, [Buffer.from([7 - (last & 7)]), bytes]);
}
const KEY_USAGE = { digitalSignature: 0, keyEncipherment: 2, keyCertSign: 5, cRLSign: 6 };

// GeneralNames of a subjectAltName: dNSName [2] or iPAddress [7] (RFC 5280 4.2.1.6).
function altNames(hosts) {
  return der.sequence(...hosts.map((host) => (net.isIP(host) === 0
    ? der.implicit(2, Buffer.from(host, 'ascii'))
    : der.implicit(7, ipBytes(host)))));
}

function ipBytes(ip) {
  if (net.isIPv4(ip)) return Buffer.from(ip.split('.').map(Number));
  const socket = new net.SocketAddress({ address: ip, family: 'ipv6' });
  // SocketAddress normalises; expand '::' into the eight 16-bit groups.
  const [left, right = ''] = socket.address.split('::');
  const groups = (part) => (part === '' ? [] : part.split(':'));
  const all = [...groups(left), ...Array(8 - groups(left).length - groups(right).length).fill('0'), ...groups(right)];
  return Buffer.from(all.map((g) => g.padStart(4, '0')).join(''), 'hex');
}

/** The DER Name of the subject of a PEM certificate, byte for byte (a leaf's issuer). */
function subjectName(certPem) {
  const bytes = new crypto.X509Certificate(certPem).raw;
  const tbs = der.children(bytes, der.readTlv(bytes))[0];
  const fields = der.children(bytes, tbs);
  // version [0] is present in every v3 certificate; subject follows serial, signature, issuer, validity.
  const subject = fields[fields[0].tag === 0xa0 ? 5 : 4];
  return bytes.subarray(subject.offset, subject.end);
}

function sign({ publicKey, subject, issuer, signingKey, days, extensions }) {
  const key = crypto.createPrivateKey(signingKey);
  const algorithm = signatureAlgorithm(key);
  const now = Date.now();
  const tbs = der.sequence(
    der.explicit(0, der.integer(2)), // v3
    der.integer(randomSerial()),
    algorithm,
    issuer,
    der.sequence(der.time(new Date(now - BACKDATE_MS)), der.time(new Date(now + days * DAY_MS))),
    subject,
    publicKeyParts(publicKey).spki,
    der.explicit(3, der.sequence(...extensions)),
  );
  const signature = crypto.sign('sha256', tbs, key);
  const certDer = der.sequence(tbs, algorithm, der.bitString(signature));
  return `-----BEGIN CERTIFICATE-----\n${certDer.toString('base64').match(/.{1,64}/g).join('\n')}\n-----END CERTIFICATE-----\n`;
}

// Resolves { cert, key } PEM strings of a CA named `name` (CA:true, keyCertSign + cRLSign).
async function makeCa(name) {
  const { publicKey, privateKey } = await newKeyPair();
  const subject = distinguishedName(name, 'negotiate-h2');
  const cert = sign({
    publicKey,
    subject,
    issuer: subject,
    signingKey: privateKey,
    days: CA_VALID_DAYS,
    extensions: [
      extension(OID.basicConstraints, der.sequence(der.boolean(true), der.integer(0)), true),
      extension(OID.keyUsage, keyUsage([KEY_USAGE.keyCertSign, KEY_USAGE.cRLSign]), true),
      extension(OID.subjectKeyIdentifier, der.octetString(publicKeyParts(publicKey).keyIdentifier)),
    ],
  });
  return { cert, key: privateKey };
}

// Resolves { cert, key } PEM strings of a server certificate for `names` (DNS names and IP
// addresses; localhost, 127.0.0.1 and ::1 by default), signed by `ca` ({ cert, key } PEM) or,
// without one, by its own key.
async function makeLeaf(ca = null, names = LEAF_NAMES) {
  const { publicKey, privateKey } = await newKeyPair();
  const subject = distinguishedName('localhost', LEAF_ORGANIZATION);
  const extensions = [
    // cA FALSE is the DEFAULT, which DER leaves out: an empty SEQUENCE.
    extension(OID.basicConstraints, der.sequence(), true),
    extension(OID.keyUsage, keyUsage([KEY_USAGE.digitalSignature, KEY_USAGE.keyEncipherment]), true),
    extension(OID.extKeyUsage, der.sequence(der.oid(OID.serverAuth))),
    extension(OID.subjectAltName, altNames(names)),
    extension(OID.subjectKeyIdentifier, der.octetString(publicKeyParts(publicKey).keyIdentifier)),
  ];
  if (ca) {
    const caKeyId = publicKeyParts(new crypto.X509Certificate(ca.cert).publicKey).keyIdentifier;
    extensions.push(extension(OID.authorityKeyIdentifier, der.sequence(der.implicit(0, caKeyId))));
  }
  const cert = sign({
    publicKey,
    subject,
    issuer: ca ? subjectName(ca.cert) : subject,
    signingKey: ca ? ca.key : privateKey,
    days: LEAF_VALID_DAYS,
    extensions,
  });
  return { cert, key: privateKey };
}

module.exports = { makeCa, makeLeaf, LEAF_ORGANIZATION, LEAF_NAMES, DAY_MS };
