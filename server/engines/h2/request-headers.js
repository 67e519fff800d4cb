'use strict';
// RFC 9113 8.2 and 8.3: a decoded request field list becomes the plain header object the core
// takes (lowercase names, pseudo-headers included, duplicates joined as node:http2 joins them);
// a malformed one (8.1.1) throws the stream error of type PROTOCOL_ERROR that resets it, like
// every protocol error of the engine. Messages name what the client sent only escaped.

const { addField } = require('../header-object');
const { HEADER_FIELD_OVERHEAD } = require('../../config/limits');
const { isRequestTarget } = require('../../http/request-target');
const { isToken, isLowercaseToken, isMalformedH2Value } = require('../../http/grammar');
const { ERROR, StreamError } = require('./errors');
const { escaped } = require('../../log/access-log');

const CONTENT_LENGTH = /^[0-9]{1,15}$/;

// 8.2.2: connection-specific fields are malformed in HTTP/2 (te is checked separately).
const CONNECTION_SPECIFIC = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

function isRequestPseudo(name) {
  switch (name) {
    case ':method': case ':scheme': case ':authority': case ':path': return true;
    default: return false;
  }
}

// A regular field shared by requests and trailers: null, or why it is malformed.
function checkField(name, value) {
  if (!isLowercaseToken(name)) return `invalid field name "${escaped(name)}"`;
  if (isMalformedH2Value(value)) return `invalid value of ${name}`;
  if (CONNECTION_SPECIFIC.has(name)) return `connection-specific field ${name}`;
  if (name === 'te' && value.toLowerCase() !== 'trailers') return 'te other than trailers';
  return null;
}

// HTTP/2's answer to a malformed message (8.1.1); HTTP/3 (../h3/request-headers.js) passes
// its own, since the rules are the same and only the error differs.
function protocolError(id, message) {
  return new StreamError(id, ERROR.PROTOCOL_ERROR, message);
}

// The request ({ headers, contentLength, listSize }) stream `id` carries in fields
// ([[name, value], ...]); throws malformedError(id, message) when it is malformed.
function readRequestHeaders(id, fields, malformedError = protocolError) {
  const malformed = (problem) => malformedError(id, `malformed request: ${problem}`);
  const headers = {};
  let regularSeen = false;
  let contentLength = -1;
  let listSize = 0;
  for (let i = 0; i < fields.length; i++) {
    const name = fields[i][0];
    const value = fields[i][1];
    listSize += name.length + value.length + HEADER_FIELD_OVERHEAD;
    if (name.charCodeAt(0) === 0x3a /* : */) {
      if (regularSeen) throw malformed(`pseudo-header ${escaped(name)} after a regular field`);
      if (!isRequestPseudo(name)) throw malformed(`pseudo-header ${escaped(name)} not allowed in a request`);
      if (headers[name] !== undefined) throw malformed(`duplicate ${name}`);
      if (isMalformedH2Value(value)) throw malformed(`invalid value of ${name}`);
      headers[name] = value;
      continue;
    }
    regularSeen = true;
    const problem = checkField(name, value);
    if (problem !== null) throw malformed(problem);
    if (name === 'content-length') {
      if (!CONTENT_LENGTH.test(value)) throw malformed('invalid content-length');
      const n = Number(value);
      if (contentLength !== -1 && contentLength !== n) throw malformed('conflicting content-length');
      contentLength = n;
    }
    addField(headers, name, value);
  }
  const method = headers[':method'];
  if (method === undefined) throw malformed('missing :method');
  if (!isToken(method)) throw malformed('invalid :method');
  if (method === 'CONNECT') {
    // 8.5: CONNECT names only the authority.
    if (headers[':scheme'] !== undefined || headers[':path'] !== undefined) throw malformed('CONNECT with :scheme or :path');
    if (headers[':authority'] === undefined) throw malformed('CONNECT without :authority');
  } else {
    if (headers[':scheme'] === undefined) throw malformed('missing :scheme');
    const path = headers[':path'];
    if (path === undefined) throw malformed('missing :path');
    // 8.3.1: a URI's path and query, not empty; a byte no URI holds makes the request
    // malformed (8.1.1), as nghttp2 (the node engine) has it.
    if (!isRequestTarget(path)) throw malformed(path === '' ? 'empty :path' : 'invalid character in :path');
  }
  // 8.3.1: a Host that names another authority than :authority.
  const authority = headers[':authority'];
  if (authority !== undefined && headers.host !== undefined && headers.host !== authority) {
    throw malformed('host differs from :authority');
  }
  return { headers, contentLength, listSize };
}

// Trailers (8.1): regular fields only, and they end the request; throws malformedError(id,
// message) when they are malformed.
function checkTrailers(id, fields, endStream, malformedError = protocolError) {
  const malformed = (problem) => malformedError(id, `malformed trailers: ${problem}`);
  if (!endStream) throw malformed('no END_STREAM');
  for (let i = 0; i < fields.length; i++) {
    const name = fields[i][0];
    if (name.charCodeAt(0) === 0x3a) throw malformed(`pseudo-header ${escaped(name)}`);
    const problem = checkField(name, fields[i][1]);
    if (problem !== null) throw malformed(problem);
  }
}

module.exports = { readRequestHeaders, checkTrailers };
