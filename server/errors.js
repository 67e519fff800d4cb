'use strict';
// Stable error codes: the CLI exits 2 on ConfigError; request errors carry an HTTP status.

class ConfigError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ConfigError';
    this.code = 'ERR_BAD_OPTION';
  }
}

// A request that cannot be served as asked; `code` is logged at debug level and stable for tests.
class RequestError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// A decoder's output passed the maxOutputLength its caller set (see CodingEngine in codings.js);
// the same code and class Node's zlib uses for its maxOutputLength.
function outputTooLarge(maxOutputLength) {
  return Object.assign(new RangeError(`decoded output exceeds ${maxOutputLength} bytes`), { code: 'ERR_BUFFER_TOO_LARGE' });
}

// Why a native addon could not be loaded, in one line: node-gyp-build's error goes on to list
// every path it tried.
function loadFailure(err) {
  return String(err.message).split('\n')[0];
}

module.exports = { ConfigError, RequestError, outputTooLarge, loadFailure };
