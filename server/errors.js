'use strict';
// Every error code the server throws or compares, defined here once (the HTTP/2 protocol's
// numeric codes are engines/h2/errors.js'; the addon's ERR_HPACK_/ERR_QPACK_ ones native/'s),
// so that no code is spelled twice: tests, the debug log, the refusals metric
// (docs/operations.md) and users match on them, and they never change; messages are for people.
// Each code's constructor bears its name (`throw ERR_NOT_FOUND()`) and makes an error of the
// code's class. It takes a message, or an object: `message` where the site says more than the
// code's own, the parameters of the code's message, `cause`. Comparisons use CODES.

// A setting that cannot be used as given; the CLI exits 2 on it.
const BAD_OPTION = 'ERR_BAD_OPTION';

class ConfigError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ConfigError';
    this.code = BAD_OPTION;
  }
}

// A request that cannot be served as asked; it is answered with `status`.
class RequestError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// code: [status, message]. Without a message, each site gives its own.
const REQUEST_ERRORS = {
  ERR_BAD_REQUEST: [400], // what the HTTP/1.1 parser found wrong
  ERR_BAD_HOST: [400], // what is wrong with the Host (or :authority)
  ERR_BAD_PATH: [400, 'path must start with /'],
  ERR_BACKSLASH: [400, 'backslash in path'],
  ERR_ENCODED_SEPARATOR: [400, 'encoded / or \\ in path'],
  ERR_BAD_ENCODING: [400, 'malformed percent-encoding'],
  ERR_NUL: [400, 'NUL in path'],
  ERR_TRAVERSAL: [400, 'path escapes the root'],
  ERR_DIRECTORY: [400, 'path names a directory; add a trailing slash'],
  ERR_MISSING_PATH: [400, 'query parameter "path" is required'],
  ERR_DOTFILE: [404, 'dotfiles are not served'],
  ERR_NOT_FOUND: [404, 'not found'],
  ERR_OUTSIDE_ROOT: [404], // what pointed outside: a symlink, or the file opened
  ERR_HEADERS_TIMEOUT: [408, 'request head not received in time'],
  ERR_CONTENT: [413, 'request content is not accepted'],
  ERR_PATH_TOO_LONG: [414, 'request target too long'],
  ERR_HEAD_TOO_LARGE: [431, 'request header fields too large'],
  // RFC 9113 6.5.2 / RFC 6585 5: past SETTINGS_MAX_HEADER_LIST_SIZE, which HTTP/2 peers may
  // treat as advisory.
  ERR_HEADER_LIST_TOO_LARGE: [431, 'request header fields too large'],
  ERR_METHOD: [501, 'method not implemented'],
  ERR_TRANSFER_ENCODING: [501, 'request content (Transfer-Encoding) is not accepted'],
  ERR_VERSION: [505, 'only HTTP/1.1 and HTTP/1.0 are served here'],
};

// code: [class, message], the message a string or made of the constructor's parameters.
// Without a message, each site gives its own.
const SERVER_ERRORS = {
  // A decoder's output passed the maxOutputLength its caller set (see CodingEngine in
  // compression/codings.js): the code and class Node's zlib uses for its maxOutputLength.
  ERR_BUFFER_TOO_LARGE: [RangeError, ({ maxOutputLength }) => `decoded output exceeds ${maxOutputLength} bytes`],
  ERR_DELTA_BUDGET: [Error, 'past the delta work budget'],
  ERR_DICTIONARY_FRAME: [Error, ({ coding }) => `not a ${coding} body: wrong or missing header`],
  ERR_DICTIONARY_MISMATCH: [Error, ({ coding }) => `${coding} body made with another dictionary`],
  ERR_ENGINE_UNAVAILABLE: [Error], // which engine, and why
  ERR_FILE_CHANGED: [Error, ({ file }) => `${file} changed while being served`],
  ERR_INVALID_ARG_VALUE: [TypeError],
  ERR_LIFECYCLE: [Error], // which lifecycle, event and state (engines/lifecycle.js): a bug of ours
  ERR_OUT_OF_RANGE: [RangeError],
  ERR_SEND_TIMEOUT: [Error, ({ ms }) => `no progress for ${ms} ms`],
  // node:tls's own error for a renegotiation on a socket that disabled it, made by the C transport
  // for the same event (engines/tls-renegotiation.js), so the engines tell both apart alike.
  ERR_TLS_RENEGOTIATION_DISABLED: [Error, 'TLS session renegotiation disabled for this socket'],
  ERR_UNKNOWN_CODING: [TypeError, ({ coding }) => `unknown content coding '${coding}'`],
  ERR_ZSTD_TRUNCATED: [Error, 'zstd input ends inside a frame'],
  ERR_ZSTD_WORKER: [Error, ({ cause }) => `zstd worker failed: ${cause.message}`],
  ERR_ZSTD_WORKER_OP: [Error, ({ op }) => `unknown zstd worker op ${op}`],
};

// Codes the server gives errors it did not make: the zstd worker's label for an error without
// a code (the error is rebuilt by revive()).
const LABELS = ['ERR_ZSTD'];

// Codes of Node's own errors that the server tells apart.
const NODE_CODES = [
  'ERR_HTTP_REQUEST_TIMEOUT', // http's 'clientError': no complete request head in requestTimeout
  'ERR_TLS_HANDSHAKE_TIMEOUT', // tls's 'tlsClientError': past handshakeTimeout
  'ERR_TLS_SESSION_ATTACK', // renegotiations past Node's limit
];

// Codes of the addon's errors (native/) that the server tells apart.
const ADDON_CODES = [
  'ERR_QPACK_FIELD_SECTION_TOO_LARGE', // a request's field section past our SETTINGS_MAX_FIELD_SECTION_SIZE
  'ERR_QPACK_BLOCKED_TOO_LARGE', // sections waiting for inserts past the decoder's byte cap
];

function messageOf(message, details) {
  if (details.message !== undefined) return details.message;
  return typeof message === 'function' ? message(details) : message;
}

function detailsOf(arg) {
  return typeof arg === 'string' ? { message: arg } : arg;
}

function requestErrorConstructor(code, [status, message]) {
  return (arg = {}) => new RequestError(status, code, messageOf(message, detailsOf(arg)));
}

function serverErrorConstructor(code, [ErrorClass, message]) {
  return (arg = {}) => {
    const details = detailsOf(arg);
    const err = new ErrorClass(messageOf(message, details), 'cause' in details ? { cause: details.cause } : undefined);
    err.code = code;
    return err;
  };
}

const constructors = {
  ...Object.fromEntries(Object.entries(REQUEST_ERRORS).map(([code, entry]) => [code, requestErrorConstructor(code, entry)])),
  ...Object.fromEntries(Object.entries(SERVER_ERRORS).map(([code, entry]) => [code, serverErrorConstructor(code, entry)])),
};

const CODES = Object.freeze(Object.fromEntries(
  [BAD_OPTION, ...Object.keys(constructors), ...LABELS, ...NODE_CODES, ...ADDON_CODES].map((code) => [code, code]),
));

// A request error of the same status and code as `err` that says `message` instead.
function restated(err, message) {
  return new RequestError(err.status, err.code, message);
}

// An error a worker thread posted as { name, message, code }, as this thread throws it: the
// same message and code, and a RangeError (ERR_BUFFER_TOO_LARGE) stays one.
function revive({ name, message, code }) {
  return Object.assign(new (name === 'RangeError' ? RangeError : Error)(message), { code });
}

// Why a native addon could not be loaded, in one line: node-gyp-build's error goes on to list
// every path it tried.
function loadFailure(err) {
  return String(err.message).split('\n')[0];
}

module.exports = { ConfigError, RequestError, CODES, ...constructors, restated, revive, loadFailure };
