'use strict';
// RFC 9113 8.2 and 8.3: a decoded request field list becomes the plain header object the core
// takes (lowercase names, pseudo-headers included, duplicates joined as node:http2 joins them),
// or the reason it is malformed (a stream error of type PROTOCOL_ERROR, 8.1.1).

const { addField } = require('../header-object');
const { HEADER_FIELD_OVERHEAD } = require('../../config/limits');
const { isRequestTarget } = require('../request-target');

// 8.2.1 with RFC 9110 5.1: a field name is a token, and lowercase in HTTP/2.
const NAME_CHARS = new Uint8Array(256);
for (const c of "abcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+-.^_`|~") NAME_CHARS[c.charCodeAt(0)] = 1;
// 8.2.1: no NUL, CR or LF anywhere, no whitespace at either end.
const BAD_VALUE = /[\0\r\n]|^[ \t]|[ \t]$/;
const CONTENT_LENGTH = /^[0-9]{1,15}$/;

// 8.2.2: connection-specific fields are malformed in HTTP/2 (te is checked separately).
const CONNECTION_SPECIFIC = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

function isFieldName(name) {
  if (name.length === 0) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c > 0xff || NAME_CHARS[c] === 0) return false;
  }
  return true;
}

function isRequestPseudo(name) {
  switch (name) {
    case ':method': case ':scheme': case ':authority': case ':path': return true;
    default: return false;
  }
}

// A regular field shared by requests and trailers: null, or why it is malformed.
function checkField(name, value) {
  if (!isFieldName(name)) return `invalid field name "${name}"`;
  if (BAD_VALUE.test(value)) return `invalid value of ${name}`;
  if (CONNECTION_SPECIFIC.has(name)) return `connection-specific field ${name}`;
  if (name === 'te' && value.toLowerCase() !== 'trailers') return 'te other than trailers';
  return null;
}

// Fills `request` ({ headers, contentLength, listSize }) from fields ([[name, value], ...]).
// Returns null, or a string saying why the request is malformed.
function readRequestHeaders(fields, request) {
  const headers = {};
  let regularSeen = false;
  let contentLength = -1;
  let listSize = 0;
  for (let i = 0; i < fields.length; i++) {
    const name = fields[i][0];
    const value = fields[i][1];
    listSize += name.length + value.length + HEADER_FIELD_OVERHEAD;
    if (name.charCodeAt(0) === 0x3a /* : */) {
      if (regularSeen) return `pseudo-header ${name} after a regular field`;
      if (!isRequestPseudo(name)) return `pseudo-header ${name} not allowed in a request`;
      if (headers[name] !== undefined) return `duplicate ${name}`;
      if (BAD_VALUE.test(value)) return `invalid value of ${name}`;
      headers[name] = value;
      continue;
    }
    regularSeen = true;
    const problem = checkField(name, value);
    if (problem !== null) return problem;
    if (name === 'content-length') {
      if (!CONTENT_LENGTH.test(value)) return 'invalid content-length';
      const n = Number(value);
      if (contentLength !== -1 && contentLength !== n) return 'conflicting content-length';
      contentLength = n;
    }
    addField(headers, name, value);
  }
  const method = headers[':method'];
  if (method === undefined) return 'missing :method';
  if (method === 'CONNECT') {
    // 8.5: CONNECT names only the authority.
    if (headers[':scheme'] !== undefined || headers[':path'] !== undefined) return 'CONNECT with :scheme or :path';
    if (headers[':authority'] === undefined) return 'CONNECT without :authority';
  } else {
    if (headers[':scheme'] === undefined) return 'missing :scheme';
    const path = headers[':path'];
    if (path === undefined) return 'missing :path';
    // 8.3.1: a URI's path and query, not empty; a byte no URI holds makes the request
    // malformed (8.1.1), as nghttp2 (the node engine) has it.
    if (!isRequestTarget(path)) return path === '' ? 'empty :path' : 'invalid character in :path';
  }
  // 8.3.1: a Host that names another authority than :authority.
  const authority = headers[':authority'];
  if (authority !== undefined && headers.host !== undefined && headers.host !== authority) {
    return 'host differs from :authority';
  }
  request.headers = headers;
  request.contentLength = contentLength;
  request.listSize = listSize;
  return null;
}

// Trailers (8.1): regular fields only. Returns null or why they are malformed.
function checkTrailers(fields) {
  for (let i = 0; i < fields.length; i++) {
    const name = fields[i][0];
    if (name.charCodeAt(0) === 0x3a) return `pseudo-header ${name} in trailers`;
    const problem = checkField(name, fields[i][1]);
    if (problem !== null) return problem;
  }
  return null;
}

module.exports = { readRequestHeaders, checkTrailers };
