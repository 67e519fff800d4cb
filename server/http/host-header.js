'use strict';
// The Host header of HTTP/1.x requests (RFC 9112 3.2, RFC 3986 3.2.2) and the names this server
// answers for. Used by the HTTP/1.1 adapter (400 for a missing, repeated or malformed Host) and by
// the plain-HTTP redirect port (which only redirects to names the certificate covers).

const net = require('node:net');

// uri-host [ ":" port ]: an IP-literal in brackets, or a reg-name (which includes IPv4 addresses).
const HOST = /^(?:\[([0-9a-f:.]+)\]|((?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*))(?::([0-9]*))?$/i;

/**
 * Parses a Host value into a lower-case name (IPv6 in canonical bracketed form, one trailing dot
 * of an absolute DNS name dropped) and its port (a digit string, '' when absent), or null.
 * @param {string} value
 * @returns {{ name: string, port: string } | null}
 */
function parseHost(value) {
  const m = matchHost(value);
  if (m === null) return null;
  const port = m[3] ?? '';
  if (m[1] !== undefined) return { name: canonicalIPv6(m[1]), port };
  return { name: m[2].toLowerCase().replace(/\.$/, ''), port };
}

// HOST's match of a well-formed value (a bracketed literal must be IPv6), or null: the one
// definition of well-formed that parseHost() and isValidHost() share.
function matchHost(value) {
  const m = HOST.exec(value);
  return m === null || (m[1] !== undefined && !net.isIPv6(m[1])) ? null : m;
}

// The last value found well-formed: a connection's requests, and most clients', repeat it.
let lastValidHost = null;

// Whether a Host value is well-formed: what parseHost() accepts, without building the result.
function isValidHost(value) {
  if (value === lastValidHost) return true;
  if (matchHost(value) === null) return false;
  lastValidHost = value;
  return true;
}

function canonicalIPv6(address) {
  return new URL(`http://[${address}]/`).hostname;
}

/**
 * Why a request's Host field lines break RFC 9112 3.2, or null: exactly one field line with a
 * valid value, which HTTP/1.0 may leave out. The one rule both HTTP/1.1 engines apply.
 * @param {number} count how many Host field lines the request has
 * @param {string | undefined} value the value of the (last) one
 * @param {boolean} http10
 * @returns {string | null}
 */
function hostError(count, value, http10) {
  if (count > 1) return 'more than one Host header';
  if (count === 0) return http10 ? null : 'missing Host header';
  return isValidHost(value) ? null : 'invalid Host header';
}

/**
 * The request's Host for Node's HTTP/1.1 server. Node keeps only the first of repeated Host lines
 * in req.headers, so the raw list is counted.
 * @param {import('node:http').IncomingMessage} req
 * @returns {{ host: { name: string, port: string } | null } | { error: string }}
 */
function requestHost(req) {
  const raw = req.rawHeaders;
  let value;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].length === 4 && raw[i].toLowerCase() === 'host') {
      count++;
      value = raw[i + 1];
    }
  }
  const error = hostError(count, value, req.httpVersion === '1.0');
  if (error !== null) return { error };
  return { host: count === 0 ? null : parseHost(value) };
}

/**
 * A predicate telling whether a parsed host name is one of `names`: DNS names (a leading '*.'
 * covers exactly one label, as in certificates) and IP addresses, compared case-insensitively.
 * @param {string[]} names
 * @returns {(name: string) => boolean}
 */
function createHostMatcher(names) {
  const exact = new Set();
  const wildcards = new Set();
  for (const name of names) {
    if (name.startsWith('*.')) wildcards.add(name.slice(2).toLowerCase());
    else if (net.isIPv6(name)) exact.add(canonicalIPv6(name));
    else exact.add(name.toLowerCase().replace(/\.$/, ''));
  }
  return (name) => {
    if (exact.has(name)) return true;
    const dot = name.indexOf('.');
    return dot > 0 && !name.startsWith('[') && wildcards.has(name.slice(dot + 1));
  };
}

module.exports = { parseHost, hostError, requestHost, createHostMatcher };
