'use strict';
// server/tls/local-names.js and the --cert-host parser: which names the local certificate holds
// and which addresses a server on every interface is announced at.

const test = require('node:test');
const assert = require('node:assert/strict');
const { reachableAddresses, leafNames, canonicalName, urlHost, isWildcardHost } = require('../../server/tls/local-names');
const { certificateNameList } = require('../../server/config/parsers');

const address = (addr, family, internal = false) => ({ address: addr, family, internal });
const INTERFACES = {
  lo: [address('127.0.0.1', 'IPv4', true), address('::1', 'IPv6', true)],
  eth0: [address('192.168.1.20', 'IPv4'), address('fd00::20', 'IPv6'), address('fe80::1', 'IPv6')],
  wlan0: [address('10.0.0.7', 'IPv4'), address('192.168.1.20', 'IPv4')],
};

test('reachable addresses: no loopback, no link-local, IPv4 only on 0.0.0.0, each once', () => {
  assert.deepEqual(reachableAddresses('::', INTERFACES), ['192.168.1.20', 'fd00::20', '10.0.0.7']);
  assert.deepEqual(reachableAddresses('0.0.0.0', INTERFACES), ['192.168.1.20', '10.0.0.7']);
  assert.deepEqual(reachableAddresses('::', { lo: INTERFACES.lo }), []);
});

// [options, names the certificate must hold]
const LEAF_NAMES = [
  [{ host: '127.0.0.1' }, ['localhost', '127.0.0.1', '::1']],
  [{ host: '127.0.0.1', certHosts: ['my-box.test', '127.0.0.1'] }, ['localhost', '127.0.0.1', '::1', 'my-box.test']],
  [{ host: '0.0.0.0', certHosts: ['my-box.test'] }, ['localhost', '127.0.0.1', '::1', 'my-box.test', '192.168.1.20', '10.0.0.7']],
  [{ host: '::' }, ['localhost', '127.0.0.1', '::1', '192.168.1.20', 'fd00::20', '10.0.0.7']],
  [{ host: '192.168.1.20' }, ['localhost', '127.0.0.1', '::1']],
];

test('leafNames: localhost\'s names, then --cert-host\'s, then the reachable addresses on a wildcard host', () => {
  for (const [options, expected] of LEAF_NAMES) assert.deepEqual(leafNames(options, INTERFACES), expected, JSON.stringify(options));
});

test('canonicalName, urlHost, isWildcardHost', () => {
  assert.equal(canonicalName('0:0:0:0:0:0:0:1'), '::1');
  assert.equal(canonicalName('FD00:0:0:0:0:0:0:20'), 'fd00::20');
  assert.equal(canonicalName('My-Box.Test'), 'my-box.test');
  assert.equal(canonicalName('10.0.0.7'), '10.0.0.7');
  assert.equal(urlHost('fd00::20'), '[fd00::20]');
  assert.equal(urlHost('10.0.0.7'), '10.0.0.7');
  assert.deepEqual(['0.0.0.0', '::', '[::]', '127.0.0.1', '::1', 'localhost'].map(isWildcardHost), [true, true, true, false, false, false]);
});

// [written, parsed or the error it gives]
const PARSED = [
  [['my-box.local'], ['my-box.local']],
  [['My-Box.LOCAL', 'my-box.local'], ['my-box.local']],
  ['a.test, 10.0.0.7 ,[fd00::1]', ['a.test', '10.0.0.7', 'fd00::1']],
  [['*.dev.test'], ['*.dev.test']],
  [['box'], ['box']],
  [[], []],
  [['bad_name'], /expected a DNS name .* got "bad_name"/],
  [['a..b'], /got "a..b"/],
  [['-a.test'], /got "-a.test"/],
  [['a.*.test'], /got "a.\*.test"/],
  [['a.test:8443'], /got "a.test:8443"/],
  [[`${'a'.repeat(64)}.test`], /expected a DNS name/],
];

test('--cert-host accepts DNS names (a leading wildcard too) and IP addresses, and says what it expected', () => {
  for (const [written, expected] of PARSED) {
    if (expected instanceof RegExp) assert.throws(() => certificateNameList(written), expected, String(written));
    else assert.deepEqual(certificateNameList(written), expected, String(written));
  }
});
