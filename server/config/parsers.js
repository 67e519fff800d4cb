'use strict';
// Value parsers of the configuration schema (schema.js). Each takes what a user wrote (a CLI
// or environment string, or a value from startServer()/negotiate.config.json) and returns the
// value the server uses, or throws an Error saying what was expected; the caller prefixes the
// name the user wrote it under (flag, variable, key). Each parser carries `schema`: the JSON
// Schema of the values a program or negotiate.config.json gives it (a CLI string is converted
// first), from which scripts/gen-types.js writes the option types and the config file's schema.

const net = require('node:net');
const { CODINGS, parseLevels, defaultLevel } = require('../compression/codings');
const { parseHost } = require('../http/host-header');
const { parseRequestPath } = require('../http/request-path');

// fn with its JSON Schema.
function described(schema, fn) {
  return Object.assign(fn, { schema });
}

// machineBound: max depends on this machine, so the schema, which is the same everywhere, leaves it out.
function intIn(min, max, { machineBound = false } = {}) {
  return described({ type: 'integer', minimum: min, ...(machineBound ? {} : { maximum: max }) }, (value) => {
    const s = String(value).trim();
    const n = Number(s);
    if (s === '' || !Number.isInteger(n) || n < min || n > max) {
      throw new Error(`expected an integer from ${min} to ${max}, got "${value}"`);
    }
    return n;
  });
}

const port = intIn(0, 65535);

// A DNS name or IP address (IPv6 with or without brackets), no port; kept in the form Host
// headers are compared in.
const hostName = described({ type: 'string', minLength: 1 }, (value) => {
  const host = parseHost(net.isIPv6(String(value)) ? `[${value}]` : String(value));
  if (host === null || host.name === '' || host.port !== '' || String(value).endsWith(':')) {
    throw new Error(`expected a host name or IP address without a port, got "${value}"`);
  }
  return host.name;
});

// A DNS name (RFC 1123 labels, a leading `*.` wildcard allowed, RFC 6125 6.4.3) or an IP
// address, as a certificate's subjectAltName holds them.
const DNS_NAME = /^(\*\.)?(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;
function certificateName(value) {
  const name = String(value).replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(name) !== 0) return name;
  if (!DNS_NAME.test(name)) throw new Error(`expected a DNS name (such as my-laptop.local or *.example.test) or an IP address, got "${value}"`);
  return name.toLowerCase();
}

// Names and addresses for a certificate: an array, or a comma-separated string (an environment
// variable), without duplicates.
const certificateNameList = described({ anyOf: [{ type: 'array', items: { type: 'string', minLength: 1 } }, { type: 'string' }] }, (value) => {
  const list = Array.isArray(value) ? value : String(value).split(',').map((s) => s.trim()).filter((s) => s !== '');
  return [...new Set(list.map(certificateName))];
});

// HOST:PORT ([IPv6]:PORT) for a listener: { host, port } (which it also takes, as parsed once).
const HOST_PORT = { type: 'object', properties: { host: { type: 'string' }, port: { type: 'integer' } }, required: ['host', 'port'], additionalProperties: false };
const hostPort = described({ anyOf: [{ type: 'string', pattern: ':\\d+$' }, HOST_PORT] }, (value) => {
  const text = value !== null && typeof value === 'object' ? `${net.isIPv6(String(value.host)) ? `[${value.host}]` : value.host}:${value.port}` : String(value);
  const m = /^(.*):(\d+)$/.exec(text);
  if (m === null) throw new Error(`expected HOST:PORT (such as 127.0.0.1:9464), got "${value}"`);
  const name = m[1].startsWith('[') && m[1].endsWith(']') ? m[1].slice(1, -1) : m[1];
  if (m[1] !== name && !net.isIPv6(name)) throw new Error(`expected an IPv6 address between the brackets, got "${value}"`);
  if (m[1] === name && name.includes(':')) throw new Error(`an IPv6 address goes between brackets, as in [::1]:9464, got "${value}"`);
  try {
    // hostName() checks the name; it writes IPv6 addresses in brackets, as Host headers do.
    return { host: net.isIPv6(name) ? name : hostName(name), port: port(m[2]) };
  } catch (err) {
    throw new Error(`${err.message} in "${value}"`);
  }
});

function oneOf(allowed) {
  return described({ enum: allowed }, (value) => {
    if (!allowed.includes(value)) throw new Error(`expected one of ${allowed.join(', ')}, got "${value}"`);
    return value;
  });
}

// A canonical path (as requests are matched after normalisation) or false for "off". The
// endpoint hides a file of the same name, hence a way to move it or switch it off.
const endpointPath = described({ anyOf: [{ const: false }, { const: 'off' }, { type: 'string', pattern: '^/.' }] }, (value) => {
  if (value === false || value === 'off') return false;
  let rel = null;
  try {
    if (typeof value === 'string' && !value.includes('?')) rel = parseRequestPath(value).rel;
  } catch {
    rel = null;
  }
  if (rel !== value || value === '/') throw new Error(`expected off or a normalised path such as /_negotiate, got "${value}"`);
  return value;
});

// { coding: level } from "br=5,zstd=3" (or that object, from the API), naming only `codings`.
function levelsOf(codings) {
  const byCoding = { type: 'object', properties: Object.fromEntries(codings.map((c) => [c, { type: 'integer' }])), additionalProperties: false };
  return described({ anyOf: [byCoding, { type: 'string', pattern: '^[a-z]+=\\d+(,[a-z]+=\\d+)*$' }] },
    (value) => parseLevels(value !== null && typeof value === 'object' ? formatLevels(value) : value, codings));
}

/** "br=5,zstd=3" from { br: 5, zstd: 3 }: the form the level flags take. */
function formatLevels(byCoding) {
  return Object.entries(byCoding).map(([coding, level]) => `${coding}=${level}`).join(',');
}

/** The default levels of `kind` ('dynamic' or 'max') as the level flags write them. */
function defaultLevels(kind, codings) {
  return formatLevels(Object.fromEntries(codings.map((c) => [c, defaultLevel(c, kind)])));
}

// A comma-separated list (or array) of distinct codings out of `allowed`, in the order given.
function codingList(allowed = CODINGS) {
  const array = { type: 'array', items: { enum: allowed }, minItems: 1, uniqueItems: true };
  return described({ anyOf: [array, { type: 'string', minLength: 1 }] }, (value) => {
    const list = Array.isArray(value) ? value : String(value).split(',').map((s) => s.trim().toLowerCase());
    if (list.length === 0 || list.some((c) => !allowed.includes(c))) {
      throw new Error(`expected a comma-separated subset of ${allowed.join(',')}, got "${value}"`);
    }
    if (new Set(list).size !== list.length) throw new Error(`lists a coding twice: "${value}"`);
    return list;
  });
}

const headerValue = described({ type: 'string' }, (value) => {
  // eslint-disable-next-line no-control-regex
  if (typeof value !== 'string' || /[\u0000-\u001f\u007f]/.test(value)) throw new Error('must be a printable header value');
  return value;
});

const nonEmptyString = described({ type: 'string', minLength: 1 }, (value) => {
  if (typeof value !== 'string' || value === '') throw new Error('must be a non-empty string');
  return value;
});

function parseBool(value) {
  if (typeof value === 'boolean') return value;
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off|)$/i.test(value)) return false;
  throw new Error(`expected true or false, got "${value}"`);
}

function positiveNumber(value) {
  const n = Number(value);
  if (!(n > 0) || !Number.isFinite(n)) throw new Error(`expected a positive number, got "${value}"`);
  return n;
}

// schema: what the object holds.
function objectOf(what, schema) {
  return described(schema, (value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`expected ${what}`);
    return value;
  });
}

module.exports = {
  described, intIn, port, hostName, hostPort, certificateNameList, oneOf, endpointPath, levelsOf, formatLevels, defaultLevels, codingList,
  headerValue, nonEmptyString, parseBool, positiveNumber, objectOf,
};
