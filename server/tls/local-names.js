'use strict';
// The names the local certificate covers and the URLs the server is reached at: localhost and
// its loopback addresses always, the names given with --cert-host, and, when the server listens
// on every interface (--host 0.0.0.0 or ::), each address of this machine that another device
// on the network can use, so that a phone on the LAN connects without a certificate error.

const net = require('node:net');
const os = require('node:os');
const { LEAF_NAMES } = require('./x509');

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

const isWildcardHost = (host) => WILDCARD_HOSTS.has(host);

// fe80::/10 needs a zone (%eth0) that neither a URL nor a certificate can carry.
const isLinkLocal = (address) => /^fe[89ab][0-9a-f]:/i.test(address);

/**
 * This machine's addresses other devices can reach: not loopback, not IPv6 link-local; IPv4
 * only when listening on 0.0.0.0 (an IPv4 socket).
 * @param {string} host the address listened on (a wildcard)
 * @param {ReturnType<typeof os.networkInterfaces>} interfaces
 */
function reachableAddresses(host, interfaces = os.networkInterfaces()) {
  const ipv4Only = host === '0.0.0.0';
  const addresses = Object.values(interfaces).flat()
    .filter((a) => a && !a.internal && !isLinkLocal(a.address) && (!ipv4Only || a.family === 'IPv4' || a.family === 4))
    .map((a) => a.address);
  return [...new Set(addresses)];
}

/** The subjectAltName entries the local certificate must hold, localhost's first. */
function leafNames({ host, certHosts = [] }, interfaces = undefined) {
  const extra = isWildcardHost(host) ? reachableAddresses(host, interfaces) : [];
  return [...new Set([...LEAF_NAMES, ...certHosts, ...extra])];
}

/** A name as certificates and comparisons use it: DNS names in lower case, IPv6 compressed. */
function canonicalName(name) {
  return net.isIPv6(name) ? new net.SocketAddress({ address: name, family: 'ipv6' }).address : name.toLowerCase();
}

/** An https URL's origin part for a name or address (IPv6 in brackets). */
const urlHost = (name) => (net.isIPv6(name) ? `[${name}]` : name);

module.exports = { isWildcardHost, reachableAddresses, leafNames, canonicalName, urlHost };
