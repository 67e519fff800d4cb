'use strict';
// Every setting of the server and of its tools, described once. An entry is
//   key    its startServer()/handler() option and negotiate.config.json key (camelCase)
//   flag   its CLI flag --flag (none: API only); each flag has the environment twin
//          NEGOTIATE_FLAG (see envName)
//   short  its one-letter CLI alias -x, if any
//   arg    the flag's value placeholder in --help; bool entries take no value
//   command  true for the flags that print something and exit (--help, --version): they have
//          no environment twin and no option key
//   def    the default, written here and nowhere else
//   middlewareDef  the default inside handler() and fastifyPlugin, where it differs from def
//   parse  turns what the user wrote into the value used, or throws saying what was expected;
//          its `schema` (parsers.js) is the JSON Schema of the values a program or the file gives
//   schema that JSON Schema, for an entry whose value another module checks (bool entries: boolean)
//   file   false when negotiate.config.json may not set it
//   help   the --help line
// options.js applies SERVER to the CLI, the environment, the configuration file and the API;
// the tools (precompress, `negotiate-h2 codings`) take the entries they share from here.
// scripts/gen-types.js writes the API's option types (types/options.d.ts) and the JSON Schema
// of negotiate.config.json (negotiate.config.schema.json) from SERVER.

const os = require('node:os');
const path = require('node:path');
const { CODINGS, VARIANT_EXTENSIONS } = require('../compression/codings');
const { MIN_COMPRESS_BYTES } = require('../compression/compressibility');
const { LOG_FORMATS } = require('../log/access-log');
const { TIMEOUTS } = require('./limits');
const { CONFIG_NAME } = require('./config-file');
const p = require('./parsers');

const MiB = 1024 * 1024;
const REPO_ROOT = path.resolve(__dirname, '..', '..');
const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'];
const VARIANT_CODINGS = CODINGS.filter((c) => Object.hasOwn(VARIANT_EXTENSIONS, c));
const MAX_WORKERS = Math.max(64, os.availableParallelism() * 4);
const MAX_BYTES = Number.MAX_SAFE_INTEGER;
const TIMEOUT_MS = p.intIn(1, 3_600_000);
// Checked by header-rules.js.
const HEADER_RULES_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    properties: { match: { type: 'string' }, headers: { type: 'object', additionalProperties: { type: 'string' } } },
    required: ['match', 'headers'],
    additionalProperties: false,
  },
};
// Checked by dictionary-rules.js (RFC 9842 2.1.3: an id of up to 1024 printable characters).
const DICTIONARY_RULES_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      match: { type: 'string' },
      matchDest: { type: 'array', items: { type: 'string' }, uniqueItems: true },
      id: { type: 'string', minLength: 1, maxLength: 1024 },
      link: { type: 'string' },
      linkFrom: { type: 'string' },
    },
    required: ['match'],
    additionalProperties: false,
  },
};
// tls.createServer takes either.
const PEM = { type: 'string', tsType: 'string | Buffer' };
const PEM_PAIR = { type: 'object', properties: { cert: PEM, key: PEM }, required: ['cert', 'key'], additionalProperties: false };

// The user's XDG directories: the local CA, certificates and the variant cache belong to the
// user, never to a copy of the package (which may be read-only, or shared by several users).
function userDir(variable, fallback) {
  const base = process.env[variable] && path.isAbsolute(process.env[variable])
    ? process.env[variable] : path.join(os.homedir(), fallback);
  return path.join(base, 'negotiate-h2');
}
const userConfigDir = () => userDir('XDG_CONFIG_HOME', '.config');
const userCacheDir = () => userDir('XDG_CACHE_HOME', '.cache');

// Entries the server and a tool share: the tools spread them with their own flag names.
const SHARED = {
  dir: { key: 'root', arg: 'DIR', def: '.', parse: p.nonEmptyString },
  variantCodings: { arg: 'LIST', def: VARIANT_CODINGS, parse: p.codingList(VARIANT_CODINGS) },
  variantLevels: { arg: 'LIST', parse: p.levelsOf(VARIANT_CODINGS) },
  minBytes: { def: MIN_COMPRESS_BYTES, parse: p.intIn(0, MAX_BYTES) },
  cacheDir: { flag: 'cache-dir', key: 'cacheDir', arg: 'DIR', def: userCacheDir(), parse: p.nonEmptyString },
};

const SERVER = [
  { ...SHARED.dir, flag: 'root', file: false, help: 'directory to serve (or give it as the one positional argument)' },
  { flag: 'config', key: 'config', arg: 'FILE', file: false, parse: p.nonEmptyString, help: `site configuration (headers rules and these options' keys); default: ${CONFIG_NAME} in the root when present` },
  { flag: 'host', key: 'host', arg: 'H', def: '127.0.0.1', parse: p.nonEmptyString, help: 'address to listen on (:: for all interfaces)' },
  { flag: 'port', short: 'p', key: 'port', arg: 'N', def: 8443, parse: p.port, help: 'HTTPS (h2 + http/1.1) port, 0 = any free port' },
  { flag: 'cert', key: 'cert', arg: 'FILE', parse: p.nonEmptyString, help: 'PEM certificate (with --key), reloaded when it changes or on SIGHUP; default: made in --certs-dir, signed by the local CA' },
  { flag: 'key', key: 'key', arg: 'FILE', parse: p.nonEmptyString, help: 'PEM private key (with --cert)' },
  { flag: 'certs-dir', key: 'certsDir', arg: 'DIR', def: path.join(userConfigDir(), 'certs'), parse: p.nonEmptyString, help: 'where the localhost certificate signed by the local CA is made and reused' },
  { flag: 'cert-host', key: 'certHosts', arg: 'NAME', multiple: true, parse: p.certificateNameList, help: 'a name or address the local certificate covers besides localhost (repeatable; with --host 0.0.0.0 or :: it covers every address of this machine too)' },
  { flag: 'ca-dir', key: 'caDir', arg: 'DIR', def: userConfigDir(), parse: p.nonEmptyString, help: 'where the local CA is made once (trust it with "negotiate-h2 trust")' },
  { flag: 'no-tls', key: 'https', bool: true, def: true, help: 'serve plain HTTP/1.1 on --port instead of HTTPS: for local development only (no HTTP/2, no encryption)' },
  { flag: 'no-http3', key: 'http3', bool: true, def: true, help: 'do not serve HTTP/3 (QUIC on the --port number over UDP, advertised by Alt-Svc; needs Node 22.20+ or 24, docs/http3.md); --http3 turns it back on' },
  { flag: 'http-port', key: 'httpPort', arg: 'N', parse: p.port, help: 'plain-HTTP port that redirects to HTTPS (off by default)' },
  { flag: 'public-host', key: 'publicHost', arg: 'NAME', parse: p.hostName, help: 'a name --http-port may redirect to besides the certificate\'s names' },
  { flag: 'encodings', key: 'encodings', arg: 'LIST', def: CODINGS, parse: p.codingList(CODINGS), help: 'server preference order, a subset of ' + CODINGS.join(',') },
  { flag: 'brotli-engine', key: 'brotliEngine', arg: 'E', def: 'zlib', parse: p.oneOf(['zlib', 'iltorb']), help: 'zlib | iltorb (for benchmarks: needs npm install iltorb)' },
  { flag: 'no-dynamic', key: 'dynamic', bool: true, def: true, help: 'never compress on the fly (precompressed variants and identity only)' },
  { flag: 'negotiate-endpoint', key: 'negotiateEndpoint', arg: 'PATH', def: '/_negotiate', middlewareDef: 'off', parse: p.endpointPath, help: 'path of the JSON negotiation explainer the demo uses; off = none (handler() has it off unless this option is given)' },
  { flag: 'cors', key: 'cors', bool: true, def: false, help: 'let pages of any origin read the responses (Access-Control-Allow-Origin: *) and answer CORS preflights' },
  { flag: 'dynamic-levels', key: 'dynamicLevels', arg: 'LIST', parse: p.levelsOf(CODINGS), help: `on-the-fly levels, e.g. br=5,zstd=3 (default ${p.defaultLevels('dynamic', CODINGS)}; \`negotiate-h2 codings\` suggests some)` },
  { ...SHARED.variantLevels, flag: 'precompress-levels', key: 'precompressLevels', help: `levels of the variants written at start, e.g. br=11 (default ${p.defaultLevels('max', VARIANT_CODINGS)})` },
  { flag: 'watch', key: 'watch', bool: true, def: false, help: 'make cached variants of changed and new files while serving (CLI only)' },
  { flag: 'no-precompress', key: 'precompress', bool: true, def: true, help: 'do not make cached variants of the root\'s files in the background at start (CLI only)' },
  { ...SHARED.cacheDir, file: false, help: 'where variants made in the background are kept, one folder per served root (never in the root; "negotiate-h2 precompress DIR" writes them next to the files)' },
  { flag: 'cache-max-age-days', key: 'cacheMaxAgeDays', arg: 'N', def: 30, parse: p.intIn(0, 36_500), file: false, help: 'at start, remove the --cache-dir folders of roots no server has used for N days (0: never; "negotiate-h2 cache" lists them)' },
  { flag: 'cache-bytes', key: 'cacheBytes', arg: 'N', def: 256 * MiB, parse: p.intIn(0, MAX_BYTES), help: 'size limit of each root\'s folder in --cache-dir; the oldest variants go first' },
  { flag: 'log-level', key: 'logLevel', arg: 'L', def: 'info', parse: p.oneOf(LOG_LEVELS), help: LOG_LEVELS.join(' | ') },
  { flag: 'cache-control', key: 'cacheControl', arg: 'V', def: 'public, max-age=0', parse: p.headerValue, help: 'Cache-Control of file responses' },
  { flag: 'spa', key: 'spa', bool: true, def: false, help: 'answer GET/HEAD of a missing path with /index.html when the request accepts text/html (single-page apps)' },
  { flag: 'listing', key: 'listing', bool: true, def: false, help: 'list a directory that has no index.html' },
  { flag: 'log-format', key: 'logFormat', arg: 'F', def: 'short', parse: p.oneOf(LOG_FORMATS), help: LOG_FORMATS.join(' | ') + ' (access-log lines)' },
  { flag: 'revalidate-ms', key: 'revalidateMs', arg: 'N', def: 0, parse: p.intIn(0, 3_600_000), help: 'reuse a file\'s stat for N ms (0 = check the disk on every request)' },
  { flag: 'engine', key: 'engine', arg: 'E', def: 'native', parse: p.oneOf(['node', 'native']), help: 'HTTP engines: node (node:http2 and Node\'s HTTP/1.1) | native (server/engines/h2, RFC 9113 in JS with the native HPACK codec, and server/engines/h1, RFC 9112)' },
  { flag: 'metrics', key: 'metrics', arg: 'HOST:PORT', parse: p.hostPort, help: 'serve GET /metrics (Prometheus text format) on this address: plain HTTP on loopback, elsewhere HTTPS with the server\'s certificate and --metrics-token-file (off by default; docs/operations.md)' },
  { flag: 'metrics-token-file', key: 'metricsTokenFile', arg: 'FILE', parse: p.nonEmptyString, help: 'file holding the bearer token scrapes of --metrics must send (needed off loopback)' },
  { flag: 'transport', key: 'transport', arg: 'T', def: 'auto', parse: p.oneOf(['auto', 'c', 'node']), help: 'TLS connections of the native engine: auto (c where it loads, else node) | c (native/transport, Linux: sockets, TLS and backpressure in C; falls back to node with a warning where it cannot load) | node (node:tls)' },
  { flag: 'workers', key: 'workers', arg: 'N', def: 1, parse: p.intIn(1, MAX_WORKERS, { machineBound: true }), help: 'processes sharing the port (1 = no cluster)' },
  { flag: 'help', short: 'h', key: 'help', bool: true, command: true, file: false, help: 'show this help' },
  { flag: 'version', short: 'v', key: 'version', bool: true, command: true, file: false, help: 'print the version' },
  // The site's response-header rules (header-rules.js checks them).
  { key: 'headers', def: [], schema: HEADER_RULES_SCHEMA, help: 'response-header rules: [{ "match": GLOB, "headers": { NAME: VALUE } }]' },
  // Compression dictionaries, RFC 9842 (dictionary-rules.js checks them; docs/dictionaries.md).
  { key: 'dictionaries', def: [], schema: DICTIONARY_RULES_SCHEMA, help: 'dictionary rules: [{ "match": "/assets/app.*.js", "matchDest": ["script"], "id": "app" }]; "link": "/dict/app.dict" with "linkFrom": "/*.html" announces a standalone dictionary file on those pages' },
  // API only: what a program embedding the server passes.
  { key: 'tls', file: false, parse: p.objectOf('{ cert, key } of PEM strings', PEM_PAIR), help: 'certificate and key contents, instead of --cert/--key files' },
  { key: 'logger', file: false, parse: p.objectOf('a Logger', { type: 'object', tsType: 'Logger' }), help: 'a Logger (server/log/logger.js) to write to' },
  { key: 'timeouts', file: false, def: TIMEOUTS, parse: timeouts, help: 'some of the timeouts in ms of server/config/limits.js, replacing those defaults' },
  { key: 'bufferLimit', file: false, def: 4 * MiB, parse: p.intIn(0, MAX_BYTES), help: 'files up to this size are read whole into memory; larger ones are streamed' },
  { ...SHARED.minBytes, key: 'minCompressBytes', file: false, help: 'smaller files are sent as they are' },
  { key: 'fileCacheBytes', file: false, def: 64 * MiB, parse: p.intIn(0, MAX_BYTES), help: 'bytes of file contents kept in memory' },
  { key: 'watchMaxAgeMs', file: false, def: 1000, parse: p.intIn(0, 24 * 3600 * 1000), help: 'the longest a file whose directories are watched is served from one check of the disk, should no change event come' },
  { key: 'compressCacheBytes', file: false, def: 64 * MiB, parse: p.intIn(0, MAX_BYTES), help: 'bytes of compressed responses kept in memory' },
  { key: 'maxConcurrentCompressions', file: false, parse: p.intIn(1, 1024), help: 'on-the-fly compressions running at once on each thread pool (default: sized to the pools, server/compression/compression-budget.js); more get another coding or 503' },
  // Response bytes held in memory on their way to clients (see server/files/byte-budget.js): 5120
  // stalled HTTP/2 streams (40 connections x 128) pin one 16 KiB first chunk each, 80 MiB.
  { key: 'bufferedBytesLimit', file: false, def: 128 * MiB, parse: p.intIn(0, MAX_BYTES), help: 'response bytes held in memory on their way to slow clients' },
  { key: 'spoolDiskBytes', file: false, def: 1024 * MiB, parse: p.intIn(0, MAX_BYTES), help: 'compressed output spooled to temporary files for clients slower than the compressor' },
];

// `timeouts`: a partial override of TIMEOUTS, each in ms.
function timeouts(value) {
  p.objectOf('an object of milliseconds')(value);
  const out = { ...TIMEOUTS };
  for (const [key, ms] of Object.entries(value)) {
    if (!Object.hasOwn(TIMEOUTS, key)) throw new Error(`unknown timeout "${key}", expected one of ${Object.keys(TIMEOUTS).join(', ')}`);
    try {
      out[key] = TIMEOUT_MS(ms);
    } catch (err) {
      throw new Error(`${key}: ${err.message}`);
    }
  }
  return out;
}
p.described({ type: 'object', properties: Object.fromEntries(Object.keys(TIMEOUTS).map((k) => [k, TIMEOUT_MS.schema])), additionalProperties: false }, timeouts);

// The precompress tool (tools/precompress): the directory and codings it shares with the server.
const PRECOMPRESS = [
  { ...SHARED.dir, key: 'dir', def: path.join(REPO_ROOT, 'static'), help: 'directory whose files get variants' },
  { ...SHARED.variantCodings, flag: 'codings', key: 'codings', help: 'variants to write' },
  { ...SHARED.variantLevels, flag: 'levels', key: 'levels', help: `levels, e.g. br=11 (default ${p.defaultLevels('max', VARIANT_CODINGS)})` },
  { flag: 'only', key: 'only', arg: 'NAME', multiple: true, help: 'only this file or directory, relative to dir (repeatable); variants of a vanished one are removed' },
  { flag: 'force', key: 'force', bool: true, def: false, help: 'rewrite fresh variants and replace files precompress did not write' },
  { flag: 'quiet', key: 'quiet', bool: true, def: false, help: 'no progress or summary' },
  { ...SHARED.minBytes, key: 'minBytes', help: 'smaller files get no variants' },
  { ...SHARED.cacheDir, help: 'the server\'s cache folder, where the dictionary deltas of a directory whose negotiate.config.json has dictionary rules are made (never in the directory)' },
];

/** Each flag --foo-bar has the twin NEGOTIATE_FOO_BAR: the prefix keeps generic names such as
 * HOST, PORT or ROOT inherited from a shell or CI from silently reconfiguring the server. */
function envName(entry) {
  return 'NEGOTIATE_' + entry.flag.toUpperCase().replace(/-/g, '_');
}

// --no-foo sets foo to false.
function negated(entry) {
  return entry.flag.startsWith('no-');
}

function entryOf(entries, key) {
  const entry = entries.find((e) => e.key === key);
  if (entry === undefined) throw new Error(`no setting "${key}"`);
  return entry;
}

/** The default of `key` among `entries` (SERVER unless given). */
function defaultOf(key, entries = SERVER) {
  return entryOf(entries, key).def;
}

module.exports = { SERVER, PRECOMPRESS, SHARED, VARIANT_CODINGS, envName, negated, defaultOf, entryOf };
