'use strict';
// server/decision/core.js on its own: the whole response decision (negotiation, representations,
// preconditions, ranges, falling back) over a fake file store, a fake compression cache and
// FileInfo objects built by the real builder from made-up stats and bytes. No socket, no disk:
// every body here is in memory, so each answer is a descriptor decided without opening a file.

const test = require('node:test');
const assert = require('node:assert/strict');
const { Core } = require('../../server/decision/core');
const { createFileInfoBuilder } = require('../../server/decision/file-info');
const { RequestError } = require('../../server/errors');

const build = createFileInfoBuilder({
  encodings: ['br', 'gzip'], dynamicReasons: { br: null, gzip: null }, minCompressBytes: 0, cacheControl: 'public, max-age=0',
});
const stat = (ino, size, mtimeMs) => ({ dev: 1, ino, size, mtimeMs, ctimeMs: mtimeMs });
const JS = Buffer.from('abcdefghij'.repeat(205).slice(0, 2048));
const BR = Buffer.alloc(512, 'B');
const PNG = Buffer.alloc(64, 'P');
// What the fake cache's compressor makes of app.js in gzip: smaller than the file.
const GZIP = Buffer.alloc(100, 'G');

// app.js: a precompressed br variant next to it, gzip on the fly; photo.png: identity only (not
// a compressible type); /docs: a directory with an index.html.
function fileInfos() {
  const app = build('/app.js', '/r/app.js', { stat: stat(0x11, 2048, 1_700_000_000_500), bytes: JS }, {
    br: { stat: stat(0x12, 512, 1_700_000_001_000), bytes: BR, path: '/r/app.js.br', cached: false, age: 'fresh', mismatch: null },
  }, null).info;
  const png = build('/photo.png', '/r/photo.png', { stat: stat(0x13, 64, 1_700_000_000_500), bytes: PNG }, {}, null).info;
  const index = build('/docs/index.html', '/r/docs/index.html', { stat: stat(0x14, 64, 1_700_000_000_500), bytes: PNG }, {}, null).info;
  return new Map([['/app.js', app], ['/photo.png', png], ['/docs', { kind: 'dir', real: '/r/docs' }], ['/docs/index.html', index]]);
}

// A store that knows `infos` and nothing else; every rel it is asked about is recorded.
function fakeStore(infos) {
  const asked = [];
  return {
    asked,
    rootReal: '/r',
    current(rel) {
      asked.push(rel);
      return infos.get(rel);
    },
    lookup(rel) {
      asked.push(rel);
      return infos.has(rel) ? Promise.resolve(infos.get(rel)) : Promise.reject(new RequestError(404, 'ERR_NOT_FOUND', 'not found'));
    },
    invalidate() {},
  };
}

// The compression cache: `output(coding)` is what compressing gives (null: no slot free).
function fakeCache(output = () => GZIP) {
  const compressed = [];
  return {
    compressed,
    get: () => undefined,
    async getOrCompress(key, coding, source) {
      compressed.push([key, coding, (await source()).length]);
      return output(coding);
    },
  };
}

function makeCore({ infos = fileInfos(), cache = fakeCache() } = {}) {
  const errors = [];
  const store = fakeStore(infos);
  const core = new Core({
    store, cache, encodings: ['br', 'gzip'],
    log: { error: (line) => errors.push(line), warn: (line) => errors.push(line), debug() {} },
    negotiatePath: false, secure: true,
    deltas: { codings: [] },
    dictionaries: { note() {} },
    site: {
      cors: false, listing: false, hidden: () => false, rootWithoutIndex: 'no index.html',
      notFound: (c, err, isHead) => c.errorResponse(err, isHead),
    },
  });
  return { core, store, cache, errors };
}

const APP_TAG = '"800-60a241825e120-11"';
const BR_TAG = '"200-60a24182d8240-12-br"';
const GZIP_TAG = 'W/"800-60a241825e120-11-gzip"';
const PNG_TAG = '"40-60a241825e120-13"';
const LAST_MODIFIED = 'Tue, 14 Nov 2023 22:13:20 GMT';
const VARY = 'Accept-Encoding';

// The parts of a descriptor a client sees, and the source the metrics count.
function outcome(d) {
  const h = d.headers;
  const pick = ['content-encoding', 'content-length', 'content-range', 'etag', 'vary', 'location', 'accept-ranges'];
  return {
    status: d.status,
    source: d.source,
    headers: Object.fromEntries(pick.filter((k) => h[k] !== undefined).map((k) => [k, h[k]])),
    body: d.body === null ? null : d.body.toString('latin1'),
  };
}

const ok = (source, headers, body) => ({ status: 200, source, headers, body });
const text = (status, body, extra = {}) => ({ status, source: null, headers: { 'content-length': String(body.length), ...extra }, body });
const identityHeaders = { 'content-length': '2048', 'etag': APP_TAG, 'vary': VARY, 'accept-ranges': 'bytes' };
const brHeaders = { 'content-encoding': 'br', 'content-length': '512', 'etag': BR_TAG, 'vary': VARY, 'accept-ranges': 'bytes' };
const gzipHeaders = { 'content-encoding': 'gzip', 'content-length': '100', 'etag': GZIP_TAG, 'vary': VARY, 'accept-ranges': 'bytes' };
const notModified = (etag, source) => ({ status: 304, source, headers: { etag, vary: VARY }, body: null });

// [name, method, target, request headers, outcome]
const CASES = [
  ['identity only: a type never compressed', 'GET', '/photo.png', { 'accept-encoding': 'br, gzip' },
    ok('identity', { 'content-length': '64', 'etag': PNG_TAG, 'vary': VARY, 'accept-ranges': 'bytes' }, PNG.toString())],
  ['no Accept-Encoding: identity', 'GET', '/app.js', {}, ok('identity', identityHeaders, JS.toString())],
  ['the precompressed br variant', 'GET', '/app.js', { 'accept-encoding': 'gzip, br' }, ok('precompressed', brHeaders, BR.toString())],
  ['gzip preferred by q: compressed on the fly, weak ETag', 'GET', '/app.js', { 'accept-encoding': 'br;q=0.5, gzip' }, ok('dynamic', gzipHeaders, GZIP.toString())],
  ['HEAD: the same headers, no body', 'HEAD', '/app.js', { 'accept-encoding': 'br' }, ok('precompressed', brHeaders, null)],
  ['404: no such file', 'GET', '/missing.js', { 'accept-encoding': 'br' }, text(404, 'not found\n')],
  ['404: a dot segment, refused before the store', 'GET', '/a/.env', {}, text(404, 'dotfiles are not served\n')],
  ['406: nothing acceptable', 'GET', '/app.js', { 'accept-encoding': 'zstd, identity;q=0' },
    text(406, 'not acceptable; available content-codings: br, gzip, identity\n', { vary: VARY })],
  ['406: identity refused where it is all there is', 'GET', '/photo.png', { 'accept-encoding': 'br, identity;q=0' },
    text(406, 'not acceptable; available content-codings: identity\n', { vary: VARY })],
  ['304 by ETag (the br variant\'s)', 'GET', '/app.js', { 'accept-encoding': 'br', 'if-none-match': `"x", ${BR_TAG}` }, notModified(BR_TAG, 'precompressed')],
  ['304 by ETag: weak comparison matches the on-the-fly gzip', 'GET', '/app.js', { 'accept-encoding': 'gzip', 'if-none-match': GZIP_TAG }, notModified(GZIP_TAG, 'dynamic')],
  ['200: an ETag of another coding does not match', 'GET', '/app.js', { 'accept-encoding': 'br', 'if-none-match': APP_TAG }, ok('precompressed', brHeaders, BR.toString())],
  ['304 by date', 'GET', '/app.js', { 'if-modified-since': LAST_MODIFIED }, notModified(APP_TAG, 'identity')],
  ['200: modified since an earlier date', 'GET', '/app.js', { 'if-modified-since': 'Tue, 14 Nov 2023 22:13:19 GMT' }, ok('identity', identityHeaders, JS.toString())],
  ['date ignored when If-None-Match is present (RFC 9110 13.1.3)', 'GET', '/app.js', { 'if-none-match': '"other"', 'if-modified-since': LAST_MODIFIED },
    ok('identity', identityHeaders, JS.toString())],
  ['412: If-Match of another tag', 'GET', '/app.js', { 'if-match': '"other"' },
    text(412, 'precondition failed\n', { etag: APP_TAG, vary: VARY })],
  ['206: one range of identity', 'GET', '/app.js', { range: 'bytes=2-5' },
    { status: 206, source: null, headers: { ...identityHeaders, 'content-length': '4', 'content-range': 'bytes 2-5/2048' }, body: 'cdef' }],
  ['206: a suffix range of the br variant', 'GET', '/app.js', { 'accept-encoding': 'br', 'range': 'bytes=-3' },
    { status: 206, source: null, headers: { ...brHeaders, 'content-length': '3', 'content-range': 'bytes 509-511/512' }, body: 'BBB' }],
  ['206 HEAD: range headers, no body', 'HEAD', '/app.js', { range: 'bytes=0-0' },
    { status: 206, source: null, headers: { ...identityHeaders, 'content-length': '1', 'content-range': 'bytes 0-0/2048' }, body: null }],
  ['416: a range past the end', 'GET', '/app.js', { range: 'bytes=2048-' },
    text(416, 'range not satisfiable\n', { 'content-range': 'bytes */2048', 'etag': APP_TAG, 'vary': VARY })],
  ['If-Range with a weak tag never allows a range: the whole gzip', 'GET', '/app.js', { 'accept-encoding': 'gzip', 'range': 'bytes=0-1', 'if-range': GZIP_TAG },
    ok('dynamic', gzipHeaders, GZIP.toString())],
  ['If-Range of an old tag: the whole file', 'GET', '/app.js', { 'range': 'bytes=0-1', 'if-range': '"old"' }, ok('identity', identityHeaders, JS.toString())],
  ['a directory without its slash: 301', 'GET', '/docs?x=1', {}, text(301, 'moved to /docs/?x=1\n', { location: '/docs/?x=1' })],
  ['a directory with its slash: its index.html', 'GET', '/docs/', {},
    ok('identity', { 'content-length': '64', 'etag': '"40-60a241825e120-14"', 'vary': VARY, 'accept-ranges': 'bytes' }, PNG.toString())],
  ['a file named with a trailing slash: 404', 'GET', '/app.js/', {}, text(404, 'not a directory\n')],
  ['POST: 405', 'POST', '/app.js', {}, text(405, 'method not allowed\n')],
];

test('decide(): request → exact response, over a fake store', async () => {
  for (const [name, method, target, headers, expected] of CASES) {
    const { core, errors } = makeCore();
    const d = await core.decide(method, target, headers);
    assert.deepEqual(outcome(d), expected, name);
    assert.deepEqual(errors, [], name);
  }
});

test('the representation\'s own headers go with a 200: type, validators, caching', async () => {
  const { core } = makeCore();
  const d = await core.decide('GET', '/app.js', { 'accept-encoding': 'br' });
  assert.deepEqual(d.headers, {
    'content-type': 'text/javascript; charset=utf-8', 'etag': BR_TAG, 'last-modified': LAST_MODIFIED,
    'cache-control': 'public, max-age=0', 'vary': VARY, 'content-encoding': 'br', 'content-length': '512', 'accept-ranges': 'bytes',
  });
  assert.equal(d.coding, 'br');
  assert.equal(d.identitySize, 2048);
});

test('a dot segment never reaches the store; a file is looked up by its normalised path', async () => {
  const { core, store } = makeCore();
  await core.decide('GET', '/.git/config', {});
  await core.decide('GET', '/x/%2eenv', {});
  assert.deepEqual(store.asked, []);
  await core.decide('GET', '/x/../app.js', {});
  assert.deepEqual(store.asked, ['/app.js']);
});

test('on-the-fly gzip is asked of the cache under the snapshot\'s key, with the file\'s bytes', async () => {
  const { core, cache } = makeCore();
  for (let i = 0; i < 3; i++) assert.equal((await core.decide('GET', '/app.js', { 'accept-encoding': 'gzip' })).source, 'dynamic');
  // The fake cache never hits, so each request asks it; every ask is for the same key.
  assert.deepEqual(cache.compressed.map(([key, coding, n]) => [key.endsWith('\0gzip'), coding, n]), [[true, 'gzip', 2048], [true, 'gzip', 2048], [true, 'gzip', 2048]]);
});

test('falling back: gzip output not smaller than the file, and no compression slot', async () => {
  // [name, what compressing gives, Accept-Encoding, outcome]
  const cases = [
    ['not smaller: gzip withdrawn, identity instead', () => Buffer.alloc(2048), 'gzip', ok('identity', identityHeaders, JS.toString())],
    ['not smaller, identity refused: 406 naming what is left', () => Buffer.alloc(4096), 'gzip, identity;q=0',
      text(406, 'not acceptable; available content-codings: br, identity\n', { vary: VARY })],
    ['no slot: identity, which needs none', () => null, 'gzip', ok('identity', identityHeaders, JS.toString())],
    ['no slot, identity refused: 503', () => null, 'gzip, identity;q=0',
      text(503, 'all compression slots are busy, retry\n', { vary: VARY })],
  ];
  for (const [name, output, ae, expected] of cases) {
    const { core } = makeCore({ cache: fakeCache(output) });
    assert.deepEqual(outcome(await core.decide('GET', '/app.js', { 'accept-encoding': ae })), expected, name);
  }
});

test('a withdrawn coding stays withdrawn for that snapshot: compressed once, not per request', async () => {
  const { core, cache } = makeCore({ cache: fakeCache(() => Buffer.alloc(2048)) });
  for (let i = 0; i < 3; i++) assert.equal((await core.decide('GET', '/app.js', { 'accept-encoding': 'gzip' })).source, 'identity');
  assert.equal(cache.compressed.length, 1);
});

test('an unexpected failure of the store is a 500, logged, never a rejection', async () => {
  const { core, store, errors } = makeCore({ infos: new Map() });
  store.lookup = () => Promise.reject(new Error('EIO'));
  assert.deepEqual(outcome(await core.decide('GET', '/app.js', {})), text(500, 'internal server error\n'));
  assert.equal(errors.length, 1);
  assert.match(errors[0], /^internal error: Error: EIO/);
});
