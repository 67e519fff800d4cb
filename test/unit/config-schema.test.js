'use strict';
// The configuration schema (server/config/schema.js) as the CLI, its environment twins,
// startServer()/handler() keys and the tools apply it (options.js, tool-args.js).

const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseCli, normalizeOptions, helpText, optionName, switchName } = require('../../server/config/options');
const { parseToolArgs } = require('../../server/config/tool-args');
const { SERVER, PRECOMPRESS, envName, defaultOf } = require('../../server/config/schema');
const { TIMEOUTS } = require('../../server/config/limits');

// A directory with no negotiate.config.json, so that only defaults and the input count.
const ROOT = os.tmpdir();
const usageError = (message) => Object.assign(new Error(message), { code: 'USAGE' });

// [what, () => result, expected error message]
const ERRORS = [
  ['unknown flag, near one', () => parseCli(['--prot', '1'], {}), 'unknown option "--prot"; did you mean --port?'],
  ['unknown flag, near none', () => parseCli(['--colour'], {}), 'unknown option "--colour" (see --help)'],
  ['unknown short flag', () => parseCli(['-x'], {}), 'unknown option "-x" (see --help)'],
  ['unknown variable', () => parseCli([], { NEGOTIATE_PROT: '1' }), 'NEGOTIATE_PROT: unknown variable; did you mean NEGOTIATE_PORT?'],
  ['unknown variable, near none', () => parseCli([], { NEGOTIATE_COLOUR: 'x' }), 'NEGOTIATE_COLOUR: unknown variable (see --help)'],
  ['unknown API key', () => normalizeOptions({ root: ROOT, bufferLimt: 1 }), 'bufferLimt: unknown option; did you mean bufferLimit?'],
  ['unknown API key, near none', () => normalizeOptions({ root: ROOT, colour: 'blue' }), 'colour: unknown option'],
  ['unknown timeout', () => normalizeOptions({ root: ROOT, timeouts: { idle: 1 } }), `timeouts: unknown timeout "idle", expected one of ${Object.keys(TIMEOUTS).join(', ')}`],
  ['bad timeout', () => normalizeOptions({ root: ROOT, timeouts: { idleTimeout: 0 } }), 'timeouts: idleTimeout: expected an integer from 1 to 3600000, got "0"'],
  ['bad flag value', () => parseCli(['--port', '99999'], {}), '--port: expected an integer from 0 to 65535, got "99999"'],
  ['bad variable value', () => parseCli([], { NEGOTIATE_PORT: 'abc' }), 'NEGOTIATE_PORT: expected an integer from 0 to 65535, got "abc"'],
  ['bad bool variable', () => parseCli([], { NEGOTIATE_SPA: 'maybe' }), 'NEGOTIATE_SPA: expected true or false, got "maybe"'],
  // An API value is named by its key, a flag's value by the flag, a variable's by the variable.
  ['bad API value', () => normalizeOptions({ root: ROOT, logLevel: 'loud' }), 'logLevel: expected one of silent, error, warn, info, debug, got "loud"'],
  ['bad API port', () => normalizeOptions({ root: ROOT, port: 'x' }), 'port: expected an integer from 0 to 65535, got "x"'],
  ['bad short flag value', () => parseCli(['-p', 'x'], {}), '--port: expected an integer from 0 to 65535, got "x"'],
  ['short flag without value', () => parseCli(['-p'], {}), '-p needs a value N'],
  ['bad API-only number', () => normalizeOptions({ root: ROOT, bufferLimit: -1 }), `bufferLimit: expected an integer from 0 to ${Number.MAX_SAFE_INTEGER}, got "-1"`],
  ['repeated coding', () => parseCli(['--encodings', 'br,br'], {}), '--encodings: lists a coding twice: "br,br"'],
  ['empty coding', () => parseCli(['--encodings', 'br,'], {}), '--encodings: expected a comma-separated subset of br,zstd,gzip,deflate,lzma, got "br,"'],
  ['bool with a value', () => parseCli(['--no-dynamic=1'], {}), '--no-dynamic takes no value'],
  ['missing value', () => parseCli(['--port'], {}), '--port needs a value N'],
  ['two directories', () => parseCli(['a', 'b'], {}), 'one directory to serve, got "a" and "b"'],
  ['directory twice', () => parseCli(['a', '--root', 'b'], {}), 'give the directory either as "a" or with --root, not both'],
  ['lone cert', () => normalizeOptions({ root: ROOT, cert: 'c.pem' }), 'cert and key go together'],
  ['lone --cert', () => normalizeOptions(parseCli([ROOT, '--cert', 'c.pem'], {})), '--cert and --key go together'],
  ['redirect without TLS', () => normalizeOptions({ root: ROOT, https: false, httpPort: 80 }), 'httpPort needs TLS and cannot go with https: false'],
  ['--http-port without TLS', () => normalizeOptions(parseCli([ROOT, '--no-tls', '--http-port', '80'], {})), '--http-port needs TLS and cannot go with --no-tls'],
  ['variables: redirect without TLS', () => normalizeOptions(parseCli([ROOT], { NEGOTIATE_NO_TLS: '1', NEGOTIATE_HTTP_PORT: '80' })), 'NEGOTIATE_HTTP_PORT needs TLS and cannot go with NEGOTIATE_NO_TLS=1'],
  ['--metrics without a host', () => parseCli(['--metrics', '9464'], {}), '--metrics: expected HOST:PORT (such as 127.0.0.1:9464), got "9464"'],
  ['--metrics IPv6 without brackets', () => parseCli(['--metrics', '::1:9464'], {}), '--metrics: an IPv6 address goes between brackets, as in [::1]:9464, got "::1:9464"'],
  ['--metrics non-IPv6 in brackets', () => parseCli(['--metrics', '[localhost]:1'], {}), '--metrics: expected an IPv6 address between the brackets, got "[localhost]:1"'],
  ['--metrics bad port', () => parseCli(['--metrics', '127.0.0.1:70000'], {}), '--metrics: expected an integer from 0 to 65535, got "70000" in "127.0.0.1:70000"'],
  ['--metrics with --workers', () => normalizeOptions(parseCli([ROOT, '--metrics', '127.0.0.1:0', '--workers', '2'], {})), '--metrics counts one process and cannot go with --workers 2'],
  ['tool: unknown flag', () => parseToolArgs(['--levles', 'br=1'], PRECOMPRESS, usageError), 'unknown option "--levles"; did you mean --levels?'],
  ['tool: bad shared value', () => parseToolArgs(['--levels', 'deflate=3'], PRECOMPRESS, usageError), '--levels: "deflate" is not one of br, zstd, gzip, lzma'],
  ['tool: coding without variant', () => parseToolArgs(['--codings', 'deflate'], PRECOMPRESS, usageError), '--codings: expected a comma-separated subset of br,zstd,gzip,lzma, got "deflate"'],
  ['tool: two directories', () => parseToolArgs(['a', 'b'], PRECOMPRESS, usageError), 'expected at most one directory, got 2'],
];

for (const [what, run, message] of ERRORS) {
  test(`rejected: ${what}`, () => {
    assert.throws(run, (err) => {
      assert.equal(err.message, message);
      assert.ok(err.code === 'ERR_BAD_OPTION' || err.code === 'USAGE', err.code);
      return true;
    });
  });
}

// [flag arguments, the same as environment variables, the parsed keys]
const SAME = [
  [['--port', '8080'], { NEGOTIATE_PORT: '8080' }, { port: 8080 }],
  [['--no-dynamic'], { NEGOTIATE_NO_DYNAMIC: '1' }, { dynamic: false }],
  [['--spa'], { NEGOTIATE_SPA: 'yes' }, { spa: true }],
  [['--encodings', 'GZIP, br'], { NEGOTIATE_ENCODINGS: 'GZIP, br' }, { encodings: ['gzip', 'br'] }],
  [['--dynamic-levels', 'br=4,zstd=1'], { NEGOTIATE_DYNAMIC_LEVELS: 'br=4,zstd=1' }, { dynamicLevels: { br: 4, zstd: 1 } }],
  [['--negotiate-endpoint', 'off'], { NEGOTIATE_NEGOTIATE_ENDPOINT: 'off' }, { negotiateEndpoint: false }],
  [['--public-host', '::1'], { NEGOTIATE_PUBLIC_HOST: '::1' }, { publicHost: '[::1]' }],
  [['--cors'], { NEGOTIATE_CORS: '1' }, { cors: true }],
  [['--metrics', '[::1]:9464'], { NEGOTIATE_METRICS: '[::1]:9464' }, { metrics: { host: '::1', port: 9464 } }],
  [['--metrics', 'localhost:0', '--metrics-token-file', 't'], { NEGOTIATE_METRICS: 'localhost:0', NEGOTIATE_METRICS_TOKEN_FILE: 't' }, { metrics: { host: 'localhost', port: 0 }, metricsTokenFile: 't' }],
];

// The settings alone, without the names they were given under (LABELS, a symbol key).
const settings = (options) => Object.fromEntries(Object.entries(options));

for (const [argv, env, expected] of SAME) {
  test(`${argv.join(' ')} and its environment twin give the same setting`, () => {
    assert.deepEqual(settings(parseCli(argv, {})), expected);
    assert.deepEqual(settings(parseCli([], env)), expected);
  });
}

test('short flags: -p for --port, -v for --version, -h for --help', () => {
  assert.deepEqual(settings(parseCli(['-p', '8080', 'site'], {})), { port: 8080, root: 'site' });
  assert.deepEqual(settings(parseCli(['-p8080'], {})), { port: 8080 });
  assert.deepEqual(settings(parseCli(['-v'], {})), { version: true });
  assert.deepEqual(settings(parseCli(['-h'], {})), { help: true });
  assert.ok(helpText().includes('  -p, --port N '));
  assert.ok(helpText().includes('  -v, --version '));
});

test('the options carry how each setting was named: flag, variable, positional, file key, API key', async (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'negotiate-labels-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.writeFileSync(path.join(root, 'negotiate.config.json'), JSON.stringify({ spa: true }));
  const cli = normalizeOptions(parseCli([root, '-p', '1'], { NEGOTIATE_HOST: '::1' }));
  assert.deepEqual(['root', 'port', 'host', 'spa', 'listing'].map((key) => optionName(cli, key)),
    ['directory', '--port', 'NEGOTIATE_HOST', 'negotiate.config.json: spa', '--listing']);
  assert.equal(switchName(cli, 'listing', true), '--listing');
  const api = normalizeOptions({ root, port: 1 });
  assert.deepEqual(['root', 'port', 'spa', 'listing'].map((key) => optionName(api, key)),
    ['root', 'port', 'negotiate.config.json: spa', 'listing']);
  assert.equal(switchName(api, 'listing', true), 'listing: true');
  // Spread into another call (cli.js hands its options to startServer) they keep their names.
  assert.equal(optionName(normalizeOptions({ ...cli, logger: null }), 'port'), '--port');
});

test('cors: off by default, a key of the API and of the configuration file', async (t) => {
  assert.equal(normalizeOptions({ root: ROOT }).cors, false);
  assert.equal(normalizeOptions({ root: ROOT, cors: true }).cors, true);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'negotiate-cors-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.writeFileSync(path.join(root, 'negotiate.config.json'), JSON.stringify({ cors: true }));
  assert.equal(normalizeOptions({ root }).cors, true);
  assert.throws(() => normalizeOptions({ root: ROOT, cors: 'yes please' }), { message: 'cors: expected true or false, got "yes please"' });
});

test('handler() defaults: the /_negotiate explainer is off unless asked for', async (t) => {
  assert.equal(normalizeOptions({ root: ROOT }).negotiateEndpoint, '/_negotiate');
  assert.equal(normalizeOptions({ root: ROOT }, { middleware: true }).negotiateEndpoint, false);
  assert.equal(normalizeOptions({ root: ROOT, negotiateEndpoint: '/x' }, { middleware: true }).negotiateEndpoint, '/x');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'negotiate-mw-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.writeFileSync(path.join(root, 'negotiate.config.json'), JSON.stringify({ negotiateEndpoint: '/_explain' }));
  assert.equal(normalizeOptions({ root }, { middleware: true }).negotiateEndpoint, '/_explain', 'the site\'s own file may turn it on');
});

test('every flag has the environment twin --help names, and the flag beats it', () => {
  for (const entry of SERVER.filter((e) => e.flag !== undefined && !e.command)) {
    assert.equal(envName(entry), 'NEGOTIATE_' + entry.flag.toUpperCase().replaceAll('-', '_'));
    assert.ok(helpText().includes(`--${entry.flag}`) && helpText().includes(envName(entry)), entry.flag);
  }
  assert.deepEqual(settings(parseCli(['--port', '1'], { NEGOTIATE_PORT: '2' })), { port: 1 });
  assert.deepEqual(settings(parseCli(['--spa', '--listing'], { NEGOTIATE_SPA: '0' })), { spa: true, listing: true });
});

test('each default is the schema\'s: what normalizeOptions fills in for an empty input', () => {
  const options = normalizeOptions({ root: ROOT });
  for (const entry of SERVER) {
    if (entry.def === undefined || entry.key === 'root') continue;
    assert.deepEqual(options[entry.key], entry.def, entry.key);
  }
  assert.equal(options.root, ROOT);
  assert.equal(options.cert, undefined);
});

test('--help shows each default of a valued flag', () => {
  const help = helpText();
  for (const entry of SERVER.filter((e) => e.flag !== undefined && !e.bool && e.def !== undefined)) {
    assert.ok(help.includes(`(default: ${entry.def})`), entry.flag);
  }
});

test('the tools share the server\'s entries: the same levels parse, the same minimum size', () => {
  const server = parseCli(['--precompress-levels', 'br=9,lzma=2'], {});
  const tool = parseToolArgs(['--levels', 'br=9,lzma=2'], PRECOMPRESS, usageError).values;
  assert.deepEqual(tool.levels, server.precompressLevels);
  assert.equal(defaultOf('minBytes', PRECOMPRESS), defaultOf('minCompressBytes'));
  assert.deepEqual(parseToolArgs([], PRECOMPRESS, usageError).values.codings, ['br', 'zstd', 'gzip', 'lzma']);
  assert.equal(parseToolArgs(['site'], PRECOMPRESS, usageError).values.dir, 'site');
});

test('a timeout override keeps the other defaults', () => {
  const { timeouts } = normalizeOptions({ root: ROOT, timeouts: { idleTimeout: 5 } });
  assert.deepEqual(timeouts, { ...TIMEOUTS, idleTimeout: 5 });
});
