'use strict';
// Option definitions shared by the CLI, its environment-variable twins and startServer().
// Each CLI flag --foo-bar has the twin NEGOTIATE_FOO_BAR: the prefix keeps generic names such as
// HOST, PORT or ROOT inherited from a shell or CI from silently reconfiguring the server.

const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { CODINGS, VARIANT_EXTENSIONS, LEVEL_RANGES, defaultLevel, parseLevels } = require('../compression/codings');
const { ConfigError } = require('../errors');
const { parseHost } = require('../engines/host-header');
const { parseRequestPath } = require('../files/resolve-path');
const { closest } = require('./did-you-mean');
const { readConfigFile, CONFIG_NAME } = require('../site/config-file');
const { compileHeaderRules } = require('../site/header-rules');
const { LOG_FORMATS } = require('../log/access-log');

const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'];
const REPO_ROOT = path.resolve(__dirname, '..', '..');

const VARIANT_CODINGS = CODINGS.filter((c) => Object.hasOwn(VARIANT_EXTENSIONS, c));

const OPTIONS = [
  { flag: 'root', key: 'root', arg: 'DIR', def: '.', help: 'directory to serve (or give it as the one positional argument)' },
  { flag: 'config', key: 'config', arg: 'FILE', help: `site configuration (headers rules and these options' keys); default: ${CONFIG_NAME} in the root when present` },
  { flag: 'host', key: 'host', arg: 'H', def: '127.0.0.1', help: 'address to listen on (:: for all interfaces)' },
  { flag: 'port', key: 'port', arg: 'N', def: 8443, parse: port, help: 'HTTPS (h2 + http/1.1) port, 0 = any free port' },
  { flag: 'cert', key: 'cert', arg: 'FILE', help: 'PEM certificate (with --key), reloaded when it changes or on SIGHUP; default: made in --certs-dir, signed by the local CA' },
  { flag: 'key', key: 'key', arg: 'FILE', help: 'PEM private key (with --cert)' },
  { flag: 'certs-dir', key: 'certsDir', arg: 'DIR', def: path.join(REPO_ROOT, 'certs'), help: 'where the localhost certificate signed by the local CA is made and reused' },
  { flag: 'ca-dir', key: 'caDir', arg: 'DIR', def: userConfigDir(), help: 'where the local CA is made once (trust it with "negotiate-h2 trust")' },
  { flag: 'no-tls', key: 'https', bool: true, def: true, help: 'serve plain HTTP/1.1 on --port instead of HTTPS: for local development only (no HTTP/2, no encryption)' },
  { flag: 'http-port', key: 'httpPort', arg: 'N', parse: port, help: 'plain-HTTP port that redirects to HTTPS (off by default)' },
  { flag: 'public-host', key: 'publicHost', arg: 'NAME', parse: hostName, help: 'a name --http-port may redirect to besides the certificate\'s names' },
  { flag: 'encodings', key: 'encodings', arg: 'LIST', def: CODINGS.join(','), parse: encodings, help: 'server preference order, a subset of ' + CODINGS.join(',') },
  { flag: 'brotli-engine', key: 'brotliEngine', arg: 'E', def: 'zlib', parse: oneOf(['zlib', 'iltorb']), help: 'zlib | iltorb' },
  { flag: 'no-dynamic', key: 'dynamic', bool: true, def: true, help: 'never compress on the fly (precompressed variants and identity only)' },
  { flag: 'negotiate-endpoint', key: 'negotiateEndpoint', arg: 'PATH', def: '/_negotiate', parse: endpointPath, help: 'path of the JSON negotiation explainer the demo uses; off = none' },
  { flag: 'dynamic-levels', key: 'dynamicLevels', arg: 'LIST', parse: (v) => levels(v, CODINGS), help: 'on-the-fly levels, e.g. br=5,zstd=3 (default ' + levelList('dynamic', CODINGS) + '; `negotiate-h2 codings` suggests some)' },
  { flag: 'precompress-levels', key: 'precompressLevels', arg: 'LIST', parse: (v) => levels(v, VARIANT_CODINGS), help: 'levels of the variants written at start, e.g. br=11 (default ' + levelList('max', VARIANT_CODINGS) + ')' },
  { flag: 'watch', key: 'watch', bool: true, def: false, help: 'refresh the variants of changed, new and deleted files while serving (CLI only)' },
  { flag: 'no-precompress', key: 'precompress', bool: true, def: true, help: 'do not write variants of the root\'s files in the background at start (CLI only)' },
  { flag: 'log-level', key: 'logLevel', arg: 'L', def: 'info', parse: oneOf(LOG_LEVELS), help: LOG_LEVELS.join(' | ') },
  { flag: 'cache-control', key: 'cacheControl', arg: 'V', def: 'public, max-age=0', parse: headerValue, help: 'Cache-Control of file responses' },
  { flag: 'spa', key: 'spa', bool: true, def: false, help: 'answer GET/HEAD of a missing path with /index.html when the request accepts text/html (single-page apps)' },
  { flag: 'listing', key: 'listing', bool: true, def: false, help: 'list a directory that has no index.html' },
  { flag: 'log-format', key: 'logFormat', arg: 'F', def: 'short', parse: oneOf(LOG_FORMATS), help: LOG_FORMATS.join(' | ') + ' (access-log lines)' },
  { flag: 'revalidate-ms', key: 'revalidateMs', arg: 'N', def: 0, parse: intIn(0, 3_600_000), help: 'reuse a file\'s stat for N ms (0 = check the disk on every request)' },
  { flag: 'engine', key: 'engine', arg: 'E', def: 'native', parse: oneOf(['node', 'native']), help: 'HTTP engines: node (node:http2 and Node\'s HTTP/1.1) | native (server/engines/h2, RFC 9113 in JS with the native HPACK codec, and server/engines/h1, RFC 9112)' },
  { flag: 'workers', key: 'workers', arg: 'N', def: 1, parse: intIn(1, Math.max(64, os.availableParallelism() * 4)), help: 'processes sharing the port (1 = no cluster)' },
  { flag: 'help', key: 'help', bool: true, help: 'show this help' },
];

// The XDG config directory: the local CA belongs to the user, not to a copy of the package.
function userConfigDir() {
  const base = process.env.XDG_CONFIG_HOME && path.isAbsolute(process.env.XDG_CONFIG_HOME)
    ? process.env.XDG_CONFIG_HOME : path.join(os.homedir(), '.config');
  return path.join(base, 'negotiate-h2');
}

// --no-foo sets foo to false.
function negated(opt) {
  return opt.flag.startsWith('no-');
}

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

// A DNS name or IP address (IPv6 with or without brackets), no port; kept in the form Host
// headers are compared in.
function hostName(value) {
  const host = parseHost(net.isIPv6(String(value)) ? `[${value}]` : String(value));
  if (host === null || host.name === '' || host.port !== '' || String(value).endsWith(':')) {
    throw new Error(`expected a host name or IP address without a port, got "${value}"`);
  }
  return host.name;
}

function oneOf(allowed) {
  return (value) => {
    if (!allowed.includes(value)) throw new Error(`expected one of ${allowed.join(', ')}, got "${value}"`);
    return value;
  };
}

// A canonical path (as requests are matched after normalisation) or false for "off". The
// endpoint hides a file of the same name, hence a way to move it or switch it off.
function endpointPath(value) {
  if (value === false || value === 'off') return false;
  let rel = null;
  try {
    if (typeof value === 'string' && !value.includes('?')) rel = parseRequestPath(value).rel;
  } catch {
    rel = null;
  }
  if (rel !== value || value === '/') throw new Error(`expected off or a normalised path such as /_negotiate, got "${value}"`);
  return value;
}

// { coding: level } from "br=5,zstd=3" (or that object, from the API).
function levels(value, codings) {
  if (value !== null && typeof value === 'object') return parseLevels(formatLevels(value), codings);
  return parseLevels(value, codings);
}

/** "br=5,zstd=3" from { br: 5, zstd: 3 }: the form the level flags take. */
function formatLevels(byCoding) {
  return Object.entries(byCoding).map(([coding, level]) => `${coding}=${level}`).join(',');
}

function levelList(kind, codings) {
  return formatLevels(Object.fromEntries(codings.map((c) => [c, defaultLevel(c, kind)])));
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

// CLI beats environment beats default. Returns camelCase options for startServer. Values are
// checked here so that an error names what the user wrote: the flag or the variable.
function parseCli(argv, env) {
  checkEnvNames(env);
  const out = {};
  const source = {};
  for (const opt of OPTIONS) {
    const raw = env[envName(opt)];
    if (raw === undefined || opt.flag === 'help') continue;
    try {
      // NEGOTIATE_NO_DYNAMIC=1 means "no dynamic", like the flag.
      out[opt.key] = opt.bool ? parseBool(raw) !== negated(opt) : raw;
    } catch (err) {
      throw new ConfigError(`${envName(opt)}: ${err.message}`);
    }
    source[opt.key] = envName(opt);
  }
  let positional;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '-h') { out.help = true; continue; }
    if (!arg.startsWith('-')) {
      if (positional !== undefined) throw new ConfigError(`one directory to serve, got "${positional}" and "${arg}"`);
      positional = arg;
      continue;
    }
    const m = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
    const opt = m && OPTIONS.find((o) => o.flag === m[1]);
    if (!opt) throw new ConfigError(`unknown option "${arg}" (see --help)`);
    if (opt.bool) {
      if (m[2] !== undefined) throw new ConfigError(`--${opt.flag} takes no value`);
      out[opt.key] = !negated(opt);
      continue;
    }
    const value = m[2] !== undefined ? m[2] : argv[++i];
    if (value === undefined) throw new ConfigError(`--${opt.flag} needs a value ${opt.arg}`);
    out[opt.key] = value;
    source[opt.key] = `--${opt.flag}`;
  }
  if (positional !== undefined) {
    if (source.root === '--root') throw new ConfigError(`give the directory either as "${positional}" or with --root, not both`);
    out.root = positional;
    source.root = 'directory';
  }
  for (const opt of OPTIONS) {
    if (source[opt.key] !== undefined) out[opt.key] = checkValue(opt, out[opt.key], source[opt.key]);
  }
  return out;
}

// A NEGOTIATE_* variable that is no option's twin is almost always a typo that would otherwise
// leave the server running with a setting the user believes changed.
function checkEnvNames(env) {
  const known = OPTIONS.filter((opt) => opt.flag !== 'help').map(envName);
  for (const name of Object.keys(env)) {
    if (!name.startsWith('NEGOTIATE_') || known.includes(name)) continue;
    const hint = closest(name, known);
    throw new ConfigError(`${name}: unknown variable${hint !== null ? `; did you mean ${hint}?` : ' (see --help)'}`);
  }
}

// The option's value parsed and validated; errors are labelled with `label` (flag or variable).
function checkValue(opt, value, label) {
  try {
    if (opt.bool) return parseBool(value);
    if (opt.parse) return opt.parse(value);
    if (typeof value !== 'string' || value === '') throw new Error('must be a non-empty string');
    return value;
  } catch (err) {
    throw new ConfigError(`${label}: ${err.message}`);
  }
}

// Validates and fills defaults; accepts either CLI strings or API values.
// The site configuration file fills what the caller left unset; its values' errors name the
// file and the key.
function normalizeOptions(input = {}) {
  const out = { ...input };
  const site = readConfigFile(path.resolve(out.root ?? OPTIONS.find((o) => o.key === 'root').def), out.config ?? undefined, OPTIONS);
  const labels = {};
  for (const [key, value] of Object.entries(site.values)) {
    if (out[key] !== undefined && out[key] !== null) continue;
    out[key] = value;
    labels[key] = `${site.label}: ${key}`;
  }
  out.config = site.file ?? undefined;
  for (const opt of OPTIONS) {
    if (opt.key === 'help') continue;
    if (out[opt.key] === undefined || out[opt.key] === null) {
      if (opt.def !== undefined) out[opt.key] = opt.def;
      else continue;
    }
    out[opt.key] = checkValue(opt, out[opt.key], labels[opt.key] ?? `--${opt.flag}`);
  }
  out.headers ??= [];
  try {
    compileHeaderRules(out.headers);
  } catch (err) {
    throw new ConfigError(labels.headers !== undefined ? `${site.label}: ${err.message}` : err.message);
  }
  if (Boolean(out.cert) !== Boolean(out.key)) throw new ConfigError('--cert and --key go together');
  if (!out.https) {
    const tlsOnly = ['httpPort', 'cert'].find((key) => out[key] !== undefined);
    if (tlsOnly !== undefined) throw new ConfigError(`--${OPTIONS.find((o) => o.key === tlsOnly).flag} needs TLS and cannot go with --no-tls`);
  }
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
  const lines = ['Usage: negotiate-h2 [dir] [options]   (dir: the directory to serve, default the current one)', '', 'Options (each has the environment twin shown under it; flags win):'];
  for (const opt of OPTIONS) {
    const left = `  --${opt.flag}${opt.arg ? ' ' + opt.arg : ''}`;
    const def = opt.def !== undefined && !opt.bool ? ` (default: ${opt.def})` : '';
    lines.push(`${left.padEnd(26)} ${opt.help}${def}`);
    if (opt.flag !== 'help') lines.push(`${''.padEnd(26)} env ${envName(opt)}`);
  }
  return lines.join('\n') + '\n';
}

module.exports = { parseCli, normalizeOptions, mergeTimeouts, helpText, formatLevels };
