'use strict';
// server/errors.js, the one catalogue of the server's error codes: every constructor's class,
// code, status and message, and a scan of server/ for codes written anywhere else.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const errors = require('../../server/errors');

const { ConfigError, RequestError, CODES, restated, revive } = errors;
const ROOT = path.resolve(__dirname, '..', '..');

// [constructor, argument, class, status, message]; status undefined: not a request error.
const CATALOGUE = [
  ['ERR_BAD_REQUEST', 'malformed method', RequestError, 400, 'malformed method'],
  ['ERR_BAD_HOST', 'no Host', RequestError, 400, 'no Host'],
  ['ERR_BAD_PATH', undefined, RequestError, 400, 'path must start with /'],
  ['ERR_BACKSLASH', undefined, RequestError, 400, 'backslash in path'],
  ['ERR_ENCODED_SEPARATOR', undefined, RequestError, 400, 'encoded / or \\ in path'],
  ['ERR_BAD_ENCODING', undefined, RequestError, 400, 'malformed percent-encoding'],
  ['ERR_NUL', undefined, RequestError, 400, 'NUL in path'],
  ['ERR_TRAVERSAL', undefined, RequestError, 400, 'path escapes the root'],
  ['ERR_DIRECTORY', undefined, RequestError, 400, 'path names a directory; add a trailing slash'],
  ['ERR_MISSING_PATH', undefined, RequestError, 400, 'query parameter "path" is required'],
  ['ERR_DOTFILE', undefined, RequestError, 404, 'dotfiles are not served'],
  ['ERR_NOT_FOUND', undefined, RequestError, 404, 'not found'],
  ['ERR_NOT_FOUND', 'no index.html', RequestError, 404, 'no index.html'],
  ['ERR_OUTSIDE_ROOT', 'symlink target outside the root', RequestError, 404, 'symlink target outside the root'],
  ['ERR_HEADERS_TIMEOUT', undefined, RequestError, 408, 'request head not received in time'],
  ['ERR_CONTENT', undefined, RequestError, 413, 'request content is not accepted'],
  ['ERR_PATH_TOO_LONG', undefined, RequestError, 414, 'request target too long'],
  ['ERR_PATH_TOO_LONG', { message: 'path too long' }, RequestError, 414, 'path too long'],
  ['ERR_HEAD_TOO_LARGE', undefined, RequestError, 431, 'request header fields too large'],
  ['ERR_HEADER_LIST_TOO_LARGE', undefined, RequestError, 431, 'request header fields too large'],
  ['ERR_METHOD', undefined, RequestError, 501, 'method not implemented'],
  ['ERR_TRANSFER_ENCODING', undefined, RequestError, 501, 'request content (Transfer-Encoding) is not accepted'],
  ['ERR_VERSION', undefined, RequestError, 505, 'only HTTP/1.1 and HTTP/1.0 are served here'],
  ['ERR_BUFFER_TOO_LARGE', { maxOutputLength: 100 }, RangeError, undefined, 'decoded output exceeds 100 bytes'],
  ['ERR_DELTA_BUDGET', undefined, Error, undefined, 'past the delta work budget'],
  ['ERR_DICTIONARY_FRAME', { coding: 'dcb' }, Error, undefined, 'not a dcb body: wrong or missing header'],
  ['ERR_DICTIONARY_MISMATCH', { coding: 'dcz' }, Error, undefined, 'dcz body made with another dictionary'],
  ['ERR_ENGINE_UNAVAILABLE', 'no zstd here', Error, undefined, 'no zstd here'],
  ['ERR_FILE_CHANGED', { file: '/a.txt' }, Error, undefined, '/a.txt changed while being served'],
  ['ERR_FILE_CHANGED', 'fd 7 keeps changing while read', Error, undefined, 'fd 7 keeps changing while read'],
  ['ERR_INVALID_ARG_VALUE', 'bad engine', TypeError, undefined, 'bad engine'],
  ['ERR_OUT_OF_RANGE', 'too big', RangeError, undefined, 'too big'],
  ['ERR_LIFECYCLE', 'http1 connection: end in state closed', Error, undefined, 'http1 connection: end in state closed'],
  ['ERR_SEND_TIMEOUT', { ms: 250 }, Error, undefined, 'no progress for 250 ms'],
  ['ERR_TLS_RENEGOTIATION_DISABLED', undefined, Error, undefined, 'TLS session renegotiation disabled for this socket'],
  ['ERR_UNKNOWN_CODING', { coding: 'xz' }, TypeError, undefined, "unknown content coding 'xz'"],
  ['ERR_ZSTD_TRUNCATED', undefined, Error, undefined, 'zstd input ends inside a frame'],
  ['ERR_ZSTD_WORKER', { cause: new Error('exited') }, Error, undefined, 'zstd worker failed: exited'],
  ['ERR_ZSTD_WORKER_OP', { op: 'shrink' }, Error, undefined, 'unknown zstd worker op shrink'],
];

test('every constructor makes its code, class, status and message', () => {
  for (const [name, arg, ErrorClass, status, message] of CATALOGUE) {
    const err = errors[name](arg);
    assert.deepEqual(
      [err.constructor, err.code, err.status, err.message, err.name],
      [ErrorClass, name, status, message, ErrorClass.name === 'RequestError' ? 'Error' : ErrorClass.name],
      name,
    );
  }
});

test('the table covers every constructor the catalogue exports, and CODES every code', () => {
  const constructors = Object.keys(errors).filter((name) => name.startsWith('ERR_'));
  assert.deepEqual(constructors.sort(), [...new Set(CATALOGUE.map(([name]) => name))].sort());
  const others = ['ERR_BAD_OPTION', 'ERR_ZSTD', 'ERR_HTTP_REQUEST_TIMEOUT', 'ERR_TLS_HANDSHAKE_TIMEOUT', 'ERR_TLS_SESSION_ATTACK',
    'ERR_QPACK_FIELD_SECTION_TOO_LARGE', 'ERR_QPACK_BLOCKED_TOO_LARGE'];
  assert.deepEqual(Object.entries(CODES).sort(), [...constructors, ...others].map((code) => [code, code]).sort());
  assert.ok(Object.isFrozen(CODES));
});

test('a cause is kept only where one is given', () => {
  const cause = new Error('zlib said no');
  assert.equal(errors.ERR_ZSTD_TRUNCATED({ cause }).cause, cause);
  assert.equal(errors.ERR_ENGINE_UNAVAILABLE({ message: 'iltorb is missing', cause }).cause, cause);
  assert.equal(Object.hasOwn(errors.ERR_ZSTD_TRUNCATED(), 'cause'), false);
});

test('ConfigError, restated request errors and errors revived from a worker', () => {
  const config = new ConfigError('port: not a number');
  assert.deepEqual([config instanceof Error, config.name, config.code, config.message], [true, 'ConfigError', 'ERR_BAD_OPTION', 'port: not a number']);

  const moved = restated(errors.ERR_OUTSIDE_ROOT('opened file is outside the root'), 'put an index.html here');
  assert.deepEqual([moved instanceof RequestError, moved.status, moved.code, moved.message], [true, 404, 'ERR_OUTSIDE_ROOT', 'put an index.html here']);

  const range = revive({ name: 'RangeError', message: 'decoded output exceeds 9 bytes', code: 'ERR_BUFFER_TOO_LARGE' });
  assert.deepEqual([range.constructor, range.code, range.message], [RangeError, 'ERR_BUFFER_TOO_LARGE', 'decoded output exceeds 9 bytes']);
  const other = revive({ name: 'TypeError', message: 'Unknown frame descriptor', code: 'ERR_ZSTD' });
  assert.deepEqual([other.constructor, other.code, other.message], [Error, 'ERR_ZSTD', 'Unknown frame descriptor']);
});

function serverFiles(rel = 'server') {
  return fs.readdirSync(path.join(ROOT, rel), { withFileTypes: true }).flatMap((e) => {
    const child = path.posix.join(rel, e.name);
    if (e.isDirectory()) return serverFiles(child);
    return /\.[cm]?js$/.test(e.name) ? [child] : [];
  });
}

// Comments may name a code they do not write.
const codeOf = (rel) => fs.readFileSync(path.join(ROOT, rel), 'utf8').replace(/^\s*(\/\/|\/?\*).*$/gm, '').replace(/\s\/\/ .*$/gm, '');

test('no server file but the catalogue writes an error code', () => {
  const found = [];
  for (const rel of serverFiles()) {
    if (rel === 'server/errors.js') continue;
    const text = codeOf(rel);
    for (const m of text.matchAll(/['"`]ERR_[A-Z0-9_]*|Object\.assign\(\s*new\b|\.code\s*=[^=]/g)) {
      // The HTTP/2 protocol's numeric codes (RFC 9113 7) are its engine's errors.js'.
      if (m[0].startsWith('.code') && /^server\/engines\/h\d\/errors\.js$/.test(rel)) continue;
      found.push(`${rel}: ${m[0].trim()}`);
    }
  }
  assert.deepEqual(found, []);
});

// A name missing either way fails only when its line runs, often a throw no test reaches.
test('every code or constructor a server file takes from the catalogue is in it, and each it uses is taken', () => {
  const wrong = [];
  for (const rel of serverFiles()) {
    if (rel === 'server/errors.js') continue;
    const text = codeOf(rel);
    const taken = new Set();
    for (const [, names, spec] of text.matchAll(/const \{([^}]*)\} = require\('(\.[^']*)'\)/g)) {
      if (path.posix.join(path.posix.dirname(rel), spec) !== 'server/errors') continue;
      for (const name of names.split(',').map((n) => n.trim())) {
        taken.add(name);
        if (!Object.hasOwn(errors, name)) wrong.push(`${rel}: takes ${name}`);
      }
    }
    for (const [, code] of text.matchAll(/\bCODES\.([A-Za-z0-9_]+)/g)) {
      if (!Object.hasOwn(CODES, code)) wrong.push(`${rel}: CODES.${code}`);
    }
    for (const name of Object.keys(errors)) {
      if (!taken.has(name) && new RegExp(`(?<![.'"\\w])${name}\\b(?!')`).test(text)) wrong.push(`${rel}: uses ${name}`);
    }
  }
  assert.deepEqual(wrong, []);
});
