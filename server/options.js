'use strict';
// Option definitions shared by the CLI, its environment-variable twins and startServer().
// Each CLI flag --foo-bar has the twin NEGOTIATE_FOO_BAR: the prefix keeps generic names such as
// HOST, PORT or ROOT inherited from a shell or CI from silently reconfiguring the server.

const os = require('node:os');
const path = require('node:path');
const { CODINGS } = require('./codings');
const { ConfigError } = require('./errors');

const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'];
const REPO_ROOT = path.resolve(__dirname, '..');

const OPTIONS = [
  { flag: 'root', key: 'root', arg: 'DIR', def: path.join(REPO_ROOT, 'static'), help: 'directory to serve' },
  { flag: 'host', key: 'host', arg: 'H', def: '127.0.0.1', help: 'address to listen on (:: for all interfaces)' },
  { flag: 'port', key: 'port', arg: 'N', def: 8443, parse: port, help: 'HTTPS (h2 + http/1.1) port, 0 = any free port' },
  { flag: 'cert', key: 'cert', arg: 'FILE', help: 'PEM certificate (with --key); default: self-signed in --certs-dir' },
  { flag: 'key', key: 'key', arg: 'FILE', help: 'PEM private key (with --cert)' },
  { flag: 'certs-dir', key: 'certsDir', arg: 'DIR', def: path.join(REPO_ROOT, 'certs'), help: 'where the self-signed localhost certificate is made and reused' },
  { flag: 'http-port', key: 'httpPort', arg: 'N', parse: port, help: 'plain-HTTP port that redirects to HTTPS (off by default)' },
  { flag: 'encodings', key: 'encodings', arg: 'LIST', def: CODINGS.join(','), parse: encodings, help: 'server preference order, a subset of ' + CODINGS.join(',') },
  { flag: 'brotli-engine', key: 'brotliEngine', arg: 'E', def: 'zlib', parse: oneOf(['zlib', 'iltorb']), help: 'zlib | iltorb' },
  { flag: 'no-dynamic', key: 'dynamic', bool: true, def: true, help: 'never compress on the fly (precompressed variants and identity only)' },
  { flag: 'log-level', key: 'logLevel', arg: 'L', def: 'info', parse: oneOf(LOG_LEVELS), help: LOG_LEVELS.join(' | ') },
  { flag: 'cache-control', key: 'cacheControl', arg: 'V', def: 'public, max-age=0', parse: headerValue, help: 'Cache-Control of file responses' },
  { flag: 'revalidate-ms', key: 'revalidateMs', arg: 'N', def: 0, parse: intIn(0, 3_600_000), help: 'reuse a file\'s stat for N ms (0 = check the disk on every request)' },
  { flag: 'engine', key: 'engine', arg: 'E', def: 'node', parse: oneOf(['node', 'native']), help: 'HTTP engines: node (node:http2 and Node\'s HTTP/1.1) | native (server/h2, RFC 9113 in JS with the native HPACK codec, and server/h1, RFC 9112)' },
  { flag: 'workers', key: 'workers', arg: 'N', def: 1, parse: intIn(1, Math.max(64, os.availableParallelism() * 4)), help: 'processes sharing the port (1 = no cluster)' },
  { flag: 'help', key: 'help', bool: true, help: 'show this help' },
];

function envName(opt) {
  return 'NEGOTIATE_' + opt.flag.toUpperCase().replace(/-/g, '_');
}

function port(value) {
  return intIn(0, 65535)(value);
}

function intIn(min, max) {
  return (value) => {
    const s = String(value).trim();
    const n = Number(s);
    if (s === '' || !Number.isInteger(n) || n < min || n > max) {
      throw new Error(`expected an integer from ${min} to ${max}, got "${value}"`);
    }
    return n;
  };
}

function oneOf(allowed) {
  return (value) => {
    if (!allowed.includes(value)) throw new Error(`expected one of ${allowed.join(', ')}, got "${value}"`);
    return value;
  };
}

function encodings(value) {
  const list = Array.isArray(value) ? value : String(value).split(',').map((s) => s.trim().toLowerCase());
  if (list.length === 0 || list.some((c) => !CODINGS.includes(c))) {
    throw new Error(`expected a comma-separated subset of ${CODINGS.join(',')}, got "${value}"`);
  }
  if (new Set(list).size !== list.length) throw new Error(`lists a coding twice: "${value}"`);
  return list;
}

function headerValue(value) {
  // eslint-disable-next-line no-control-regex
  if (typeof value !== 'string' || /[\u0000-\u001f\u007f]/.test(value)) throw new Error('must be a printable header value');
  return value;
}

function parseBool(value) {
  if (typeof value === 'boolean') return value;
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off|)$/i.test(value)) return false;
  throw new Error(`expected true or false, got "${value}"`);
}

function badOption(opt, err) {
  return new ConfigError(`--${opt.flag}: ${err.message}`);
}

// CLI beats environment beats default. Returns camelCase options for startServer.
function parseCli(argv, env) {
  const out = {};
  for (const opt of OPTIONS) {
    const raw = env[envName(opt)];
    if (raw === undefined || opt.flag === 'help') continue;
    try {
      // NEGOTIATE_NO_DYNAMIC=1 means "no dynamic", like the flag.
      out[opt.key] = opt.bool ? (opt.key === 'dynamic' ? !parseBool(raw) : parseBool(raw)) : raw;
    } catch (err) {
      throw new ConfigError(`${envName(opt)}: ${err.message}`);
    }
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '-h') { out.help = true; continue; }
    const m = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
    const opt = m && OPTIONS.find((o) => o.flag === m[1]);
    if (!opt) throw new ConfigError(`unknown option "${arg}" (see --help)`);
    if (opt.bool) {
      if (m[2] !== undefined) throw new ConfigError(`--${opt.flag} takes no value`);
      out[opt.key] = opt.key === 'dynamic' ? false : true;
      continue;
    }
    const value = m[2] !== undefined ? m[2] : argv[++i];
    if (value === undefined) throw new ConfigError(`--${opt.flag} needs a value ${opt.arg}`);
    out[opt.key] = value;
  }
  return out;
}

// Validates and fills defaults; accepts either CLI strings or API values.
function normalizeOptions(input = {}) {
  const out = { ...input };
  for (const opt of OPTIONS) {
    if (opt.key === 'help') continue;
    if (out[opt.key] === undefined || out[opt.key] === null) {
      if (opt.def !== undefined) out[opt.key] = opt.def;
      else continue;
    }
    try {
      if (opt.bool) out[opt.key] = parseBool(out[opt.key]);
      else if (opt.parse) out[opt.key] = opt.parse(out[opt.key]);
      else if (typeof out[opt.key] !== 'string' || out[opt.key] === '') throw new Error('must be a non-empty string');
    } catch (err) {
      throw badOption(opt, err);
    }
  }
  if (Boolean(out.cert) !== Boolean(out.key)) throw new ConfigError('--cert and --key go together');
  out.root = path.resolve(out.root);
  return out;
}

// `defaults` with the keys of `overrides` (startServer's `timeouts`, in ms) replaced.
function mergeTimeouts(defaults, overrides = {}) {
  if (overrides === null || typeof overrides !== 'object') throw new ConfigError('timeouts: expected an object of milliseconds');
  const out = { ...defaults };
  for (const [key, value] of Object.entries(overrides)) {
    if (!Object.hasOwn(defaults, key)) throw new ConfigError(`timeouts.${key}: unknown, expected one of ${Object.keys(defaults).join(', ')}`);
    try {
      out[key] = intIn(1, 3_600_000)(value);
    } catch (err) {
      throw new ConfigError(`timeouts.${key}: ${err.message}`);
    }
  }
  return out;
}

function helpText() {
  const lines = ['Usage: node server [options]', '', 'Options (each has the environment twin shown under it; flags win):'];
  for (const opt of OPTIONS) {
    const left = `  --${opt.flag}${opt.arg ? ' ' + opt.arg : ''}`;
    const def = opt.def !== undefined && !opt.bool ? ` (default: ${opt.def})` : '';
    lines.push(`${left.padEnd(26)} ${opt.help}${def}`);
    if (opt.flag !== 'help') lines.push(`${''.padEnd(26)} env ${envName(opt)}`);
  }
  return lines.join('\n') + '\n';
}

module.exports = { parseCli, normalizeOptions, mergeTimeouts, helpText };
