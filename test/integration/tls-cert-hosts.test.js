'use strict';
// A server on every interface, as a user runs it for a phone on the LAN: it prints a URL for each
// address of the machine, and its local certificate covers those addresses and the names given
// with --cert-host, so a client that trusts the local CA verifies it under any of them. Only
// loopback is connected to; the other names are checked against the certificate it presented.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const tls = require('node:tls');
const { spawnCli, makeTempDir } = require('../helpers/server');
const { waitFor } = require('../helpers/poll');

// This machine's IPv4 addresses a LAN device could use (not loopback, not link-local).
const lanAddresses = () => Object.values(os.networkInterfaces()).flat()
  .filter((a) => !a.internal && (a.family === 'IPv4' || a.family === 4) && !a.address.startsWith('169.254.'))
  .map((a) => a.address);

function peerCertificate({ port, servername, ca }) {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername, ca, ALPNProtocols: ['h2'] }, () => {
      const cert = socket.getPeerCertificate();
      socket.end();
      resolve(cert);
    });
    socket.once('error', reject);
  });
}

test('--host 0.0.0.0 --cert-host NAME: a URL per address, and a certificate verified under each name', async (t) => {
  const dir = await makeTempDir('negotiate-lan-');
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  const root = path.join(dir, 'root');
  await fs.mkdir(root);
  await fs.writeFile(path.join(root, 'index.html'), 'hello');
  const server = await spawnCli(['--host', '0.0.0.0', '--port', '0', '--root', root, '--certs-dir', path.join(dir, 'certs'),
    '--cert-host', 'my-box.test', '--no-precompress'], { env: { NEGOTIATE_CA_DIR: path.join(dir, 'ca') } });
  t.after(() => server.stop('SIGKILL'));
  const addresses = lanAddresses();
  const expected = addresses.map((a) => `https://${a}:${server.port}/`);
  if (expected.length > 0) {
    await waitFor(() => server.output().includes('on the network: '), { what: 'the network URLs' });
    assert.equal(/on the network: (.*)\n/.exec(server.output())[1], expected.join(' '));
  } else {
    t.diagnostic('this machine has no LAN address: only localhost is announced');
  }
  const ca = await fs.readFile(path.join(dir, 'ca', 'ca.pem'));
  // Verified by the client under the --cert-host name (checkServerIdentity with the servername).
  const cert = await peerCertificate({ port: server.port, servername: 'my-box.test', ca });
  for (const name of ['localhost', '127.0.0.1', '::1', 'my-box.test', ...addresses]) {
    assert.equal(tls.checkServerIdentity(name, cert), undefined, name);
  }
  assert.ok(tls.checkServerIdentity('other.test', cert) instanceof Error, 'a name not given is not covered');
});
