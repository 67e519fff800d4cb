'use strict';
// RFC 9114 4.1.2, 4.2 and 4.3.1: a request's field section is checked by the same rules as
// HTTP/2's (../h2/request-headers.js: pseudo-headers, lowercase names, connection-specific
// fields, te, content-length) and becomes the same header object for the core; a malformed one
// is a stream error H3_MESSAGE_ERROR. HTTP/3 adds one rule: an http or https request names its
// authority, in :authority or Host.

const { readRequestHeaders, checkTrailers } = require('../h2/request-headers');
const { ERROR, StreamError } = require('./errors');

function messageError(id, message) {
  return new StreamError(id, ERROR.H3_MESSAGE_ERROR, message);
}

// fields: [[name, value], ...] -> { headers, contentLength, listSize }.
function readRequest(id, fields) {
  const request = readRequestHeaders(id, fields, messageError);
  const { headers } = request;
  if (headers[':method'] !== 'CONNECT' && headers[':authority'] === undefined && headers.host === undefined) {
    throw messageError(id, 'malformed request: no :authority and no host');
  }
  return request;
}

// Trailers end the request: after them only the stream's end may come.
function checkRequestTrailers(id, fields) {
  checkTrailers(id, fields, true, messageError);
}

module.exports = { readRequest, checkRequestTrailers };
