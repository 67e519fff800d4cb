'use strict';
// The site configuration's pure parts: glob matching, header-rule validation, the
// configuration file's keys and its place in the precedence (flags > environment > file >
// defaults), and the Accept check behind --spa.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const path = require('node:path');
const { compileGlob } = require('../../server/config/glob');
const { compileHeaderRules, headersFor } = require('../../server/config/header-rules');
const { acceptsHtml } = require('../../server/site/not-found');
const { parseCli, normalizeOptions } = require('../../server/config/options');
const { listSourceFiles, listNamedFiles } = require('../../server/files/tree-walk');
const { makeTempDir, writeFiles, REPO_ROOT } = require('../helpers/server');
const { SERVER } = require('../../server/config/schema');

test('globs match paths relative to the root', () => {
  const cases = [
    ['**/*.*.js', 'app.1f3a.js', true],
    ['**/*.*.js', 'assets/js/app.1f3a.js', true],
    ['**/*.*.js', 'app.js', false],
    ['**/*.*.js', 'app.1f3a.js.map', false],
    ['*.js', 'a/b.js', false],
    ['*.js', 'b.js', true],
    ['/*.js', 'b.js', true],
    ['assets/**', 'assets/a/b/c.png', true],
    ['assets/**', 'assetsx/a.png', false],
    ['a/**/b.txt', 'a/b.txt', true],
    ['a/**/b.txt', 'a/x/y/b.txt', true],
    ['?.txt', 'a.txt', true],
    ['?.txt', 'ab.txt', false],
    ['?.txt', '/.txt', false],
    ['*.{js,css}', 'x.css', true],
    ['*.{js,css}', 'x.html', false],
    ['{fonts,img}/*.{woff2,png}', 'img/a.png', true],
    ['{a,b{c,d}}.txt', 'bd.txt', true],
    ['a+b(c).txt', 'a+b(c).txt', true],
    ['a.txt', 'aXtxt', false],
  ];
  for (const [glob, subject, expected] of cases) assert.equal(compileGlob(glob).test(subject), expected, `${glob} ${subject}`);
});

test('bad globs are refused with the reason', () => {
  assert.throws(() => compileGlob('a**'), { message: '"**" must be a whole path segment in "a**"' });
  assert.throws(() => compileGlob('{a,b'), { message: 'unclosed "{" in "{a,b"' });
  assert.throws(() => compileGlob(''), { message: 'must be a non-empty glob string' });
});

test('header rules apply in order, a later rule winning per header name', () => {
  const rules = compileHeaderRules([
    { match: '**', headers: { 'x-frame-options': 'DENY', 'cache-control': 'no-cache' } },
    { match: '**/*.*.js', headers: { 'cache-control': 'public, max-age=31536000, immutable' } },
  ]);
  assert.deepEqual(headersFor(rules, '/js/app.1f.js'), { 'x-frame-options': 'DENY', 'cache-control': 'public, max-age=31536000, immutable' });
  assert.deepEqual(headersFor(rules, '/index.html'), { 'x-frame-options': 'DENY', 'cache-control': 'no-cache' });
  assert.equal(headersFor(compileHeaderRules([{ match: '*.css', headers: { a: 'b' } }]), '/x.js'), null);
});

test('invalid header rules name the rule and the reason', () => {
  const cases = [
    [{}, 'headers: expected an array of { "match": GLOB, "headers": { NAME: VALUE } }'],
    [[null], 'headers[0]: expected { "match": GLOB, "headers": { NAME: VALUE } }'],
    [[{ match: '*', headers: {}, extra: 1 }], 'headers[0]: unknown key "extra" (expected match and headers)'],
    [[{ headers: {} }], 'headers[0].match: must be a non-empty glob string'],
    [[{ match: '*', headers: [] }], 'headers[0].headers: expected an object of header names and string values'],
    [[{ match: '*', headers: { ok: 'v' } }, { match: '*', headers: { 'X-Frame-Options': 'DENY' } }], 'headers[1]: header name "X-Frame-Options" must be lowercase'],
    [[{ match: '*', headers: { ':status': '200' } }], 'headers[0]: ":status" is not a valid header name'],
    [[{ match: '*', headers: { 'bad name': 'v' } }], 'headers[0]: "bad name" is not a valid header name'],
    [[{ match: '*', headers: { 'content-length': '1' } }], 'headers[0]: "content-length" is set by the server and cannot be configured'],
    [[{ match: '*', headers: { etag: '"x"' } }], 'headers[0]: "etag" is set by the server and cannot be configured'],
    [[{ match: '*', headers: { vary: 'Origin' } }], 'headers[0]: "vary" is set by the server and cannot be configured'],
    [[{ match: '*', headers: { connection: 'close' } }], 'headers[0]: "connection" is set by the server and cannot be configured'],
    [[{ match: '*', headers: { 'x-a': 'a\r\nset-cookie: b' } }], 'headers[0]: the value of "x-a" must be a non-empty string of visible characters, spaces and tabs (no CR, LF, NUL, no other control characters, nothing beyond U+00FF) without surrounding spaces'],
    [[{ match: '*', headers: { 'x-a': 'a\0' } }], 'headers[0]: the value of "x-a" must be a non-empty string of visible characters, spaces and tabs (no CR, LF, NUL, no other control characters, nothing beyond U+00FF) without surrounding spaces'],
    [[{ match: '*', headers: { 'x-a': 'snow \u2603' } }], 'headers[0]: the value of "x-a" must be a non-empty string of visible characters, spaces and tabs (no CR, LF, NUL, no other control characters, nothing beyond U+00FF) without surrounding spaces'],
    [[{ match: '*', headers: { 'x-a': ' padded' } }], 'headers[0]: the value of "x-a" must be a non-empty string of visible characters, spaces and tabs (no CR, LF, NUL, no other control characters, nothing beyond U+00FF) without surrounding spaces'],
    [[{ match: '*', headers: { 'x-a': 1 } }], 'headers[0]: the value of "x-a" must be a non-empty string of visible characters, spaces and tabs (no CR, LF, NUL, no other control characters, nothing beyond U+00FF) without surrounding spaces'],
  ];
  for (const [rules, message] of cases) assert.throws(() => compileHeaderRules(rules), { message }, message);
});

test('Accept lists text/html (explicitly, q > 0)', () => {
  const cases = [
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', true],
    ['TEXT/HTML', true],
    ['text/html;q=0', false],
    ['text/html; q=0.5', true],
    ['*/*', false],
    ['application/json', false],
    [undefined, false],
  ];
  for (const [accept, expected] of cases) assert.equal(acceptsHtml(accept), expected, String(accept));
});

async function rootWith(t, config) {
  const dir = await makeTempDir('negotiate-site-');
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  if (config !== undefined) await fs.writeFile(path.join(dir, 'negotiate.config.json'), typeof config === 'string' ? config : JSON.stringify(config));
  return dir;
}

test('precedence: flags over environment over the configuration file over defaults', async (t) => {
  const root = await rootWith(t, { cacheControl: 'from-file', revalidateMs: 7, spa: true, logFormat: 'json' });
  const env = { NEGOTIATE_CACHE_CONTROL: 'from-env', NEGOTIATE_REVALIDATE_MS: '9' };
  const opts = normalizeOptions(parseCli([root, '--cache-control', 'from-flag'], env));
  assert.equal(opts.cacheControl, 'from-flag');
  assert.equal(opts.revalidateMs, 9);
  assert.equal(opts.spa, true);
  assert.equal(opts.logFormat, 'json');
  assert.equal(opts.listing, false);
  assert.equal(opts.config, path.join(root, 'negotiate.config.json'));
  const none = normalizeOptions(parseCli([await rootWith(t)], {}));
  assert.equal(none.cacheControl, 'public, max-age=0');
  assert.equal(none.config, undefined);
});

test('configuration file errors name the file and the key', async (t) => {
  const cases = [
    [{ cachControl: 'x' }, 'negotiate.config.json: unknown key "cachControl" (did you mean cacheControl?)'],
    [{ 'cache-control': 'x' }, 'negotiate.config.json: unknown key "cache-control" (did you mean cacheControl?)'],
    [{ colour: 'blue' }, 'negotiate.config.json: unknown key "colour"'],
    [{ root: '/' }, 'negotiate.config.json: "root" cannot be set in the configuration file (use the flag)'],
    [{ port: 'abc' }, 'negotiate.config.json: port: expected an integer from 0 to 65535, got "abc"'],
    [{ logFormat: 'xml' }, 'negotiate.config.json: logFormat: expected one of short, combined, json, got "xml"'],
    [{ headers: [{ match: '**', headers: { 'content-encoding': 'br' } }] }, 'negotiate.config.json: headers[0]: "content-encoding" is set by the server and cannot be configured'],
    ['{ "spa": true, }', /^negotiate\.config\.json: not valid JSON \(/],
    ['[]', 'negotiate.config.json: expected a JSON object of options'],
    [{ $schema: 1 }, 'negotiate.config.json: "$schema" must be a string (the schema\'s URL or path)'],
  ];
  for (const [config, message] of cases) {
    const root = await rootWith(t, config);
    assert.throws(() => normalizeOptions({ root }), { name: 'ConfigError', message }, String(message));
  }
});

test('"$schema" is accepted, and the shipped JSON Schema lists exactly the keys the file may set', async (t) => {
  const schema = JSON.parse(await fs.readFile(path.join(REPO_ROOT, 'negotiate.config.schema.json'), 'utf8'));
  const root = await rootWith(t, { $schema: './node_modules/negotiate-h2/negotiate.config.schema.json', spa: true });
  assert.equal(normalizeOptions({ root }).spa, true);
  const fileKeys = SERVER.filter((e) => e.file !== false).map((e) => e.key);
  assert.deepEqual(Object.keys(schema.properties).sort(), ['$schema', ...fileKeys].sort());
  assert.equal(schema.additionalProperties, false);
});

// ajv comes with fastify (a devDependency); the check skips without it.
function loadAjv() {
  try {
    return require('ajv/dist/2020');
  } catch {
    return null;
  }
}

test('the JSON Schema and the file reader agree on what a configuration file may say', { skip: loadAjv() === null && 'ajv is not installed (it comes with the fastify devDependency)' }, async (t) => {
  const Ajv = loadAjv();
  const validate = new Ajv({ strict: true }).compile(JSON.parse(await fs.readFile(path.join(REPO_ROOT, 'negotiate.config.schema.json'), 'utf8')));
  const cases = [
    [{ $schema: 'negotiate.config.schema.json', spa: true, port: 8080, encodings: ['br', 'gzip'], logLevel: 'warn' }, true],
    [{ encodings: 'br,gzip', dynamicLevels: { br: 5 }, precompressLevels: 'br=11', negotiateEndpoint: false }, true],
    [{ negotiateEndpoint: '/_explain', https: false, workers: 4 }, true],
    [{ headers: [{ match: '**/*.js', headers: { 'cache-control': 'no-cache' } }] }, true],
    [{ cachControl: 'x' }, false],
    [{ root: '/' }, false],
    [{ port: 70000 }, false],
    [{ logFormat: 'xml' }, false],
    [{ encodings: ['br', 'identity'] }, false],
    [{ dynamicLevels: { brotli: 5 } }, false],
    [{ headers: [{ match: '*', headers: {}, extra: 1 }] }, false],
    [{ $schema: 1 }, false],
  ];
  for (const [config, valid] of cases) {
    const root = await rootWith(t, config);
    let read = true;
    try {
      normalizeOptions({ root });
    } catch (err) {
      if (err.name !== 'ConfigError') throw err;
      read = false;
    }
    assert.deepEqual([validate(config), read], [valid, valid], JSON.stringify(config));
  }
});

test('--config names another file; its relative paths are resolved against its folder', async (t) => {
  const root = await rootWith(t, { spa: true });
  const other = path.join(await rootWith(t), 'site.json');
  await fs.writeFile(other, JSON.stringify({ listing: true, certsDir: 'certs' }));
  const opts = normalizeOptions({ root, config: other });
  assert.equal(opts.listing, true);
  assert.equal(opts.spa, false, 'the root\'s own file is not read');
  assert.equal(opts.certsDir, path.join(path.dirname(other), 'certs'));
  assert.throws(() => normalizeOptions({ root, config: path.join(root, 'missing.json') }),
    { message: `config: cannot read ${path.join(root, 'missing.json')} (ENOENT)` });
  assert.throws(() => normalizeOptions(parseCli([root, '--config', path.join(root, 'missing.json')], {})),
    { message: `--config: cannot read ${path.join(root, 'missing.json')} (ENOENT)` });
});

test('precompression never lists a site configuration file', async (t) => {
  const root = await rootWith(t, { spa: true });
  await writeFiles(root, { 'a.json': '{}', 'sub/negotiate.config.json': '{}' });
  assert.deepEqual((await listSourceFiles(root)).files, [path.join(root, 'a.json')]);
  assert.deepEqual((await listNamedFiles(root, ['negotiate.config.json', 'a.json'])).files, [path.join(root, 'a.json')]);
});
