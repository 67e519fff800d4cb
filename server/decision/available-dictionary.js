'use strict';
// Whether a request may get a dictionary-compressed response (RFC 9842), and with which
// dictionary hash: the request's Available-Dictionary, read as RFC 9651 sf-binary holding a
// SHA-256 (RFC 9842 2.2), on a path a dictionary rule covers, under the RFC's rules that keep
// one origin from reading another's responses through dictionaries (RFC 9842 10.2, 11). Any
// header that is malformed, oversized or names no usable dictionary means "no dictionary":
// the request is negotiated as any other, never refused.

const { parseItem } = require('structured-headers');

const HASH_BYTES = 32;
// ":" + base64 of 32 bytes (44 characters) + ":", with room for parameters the RFC allows; a
// longer value is not parsed at all, which bounds what a request can make the parser do.
const MAX_HEADER_LENGTH = 256;

// The SHA-256 a well-formed Available-Dictionary names, as a Buffer, or null.
function parseAvailableDictionary(value) {
  if (typeof value !== 'string' || value.length > MAX_HEADER_LENGTH) return null;
  let item;
  try {
    item = parseItem(value);
  } catch {
    return null;
  }
  const bytes = item[0];
  if (!(bytes instanceof ArrayBuffer) || bytes.byteLength !== HASH_BYTES) return null;
  return Buffer.from(bytes);
}

// RFC 9842 11 (and 10.2): a dictionary-compressed response must be readable by the page that
// asked for it. Same-origin requests (or requests without Fetch metadata, from clients that
// are not browsers) are; a cross-origin one only in CORS mode with a response whose
// Access-Control-Allow-Origin lets that origin read it. `responseHeaders`: the site's header
// rules for the file (site/header-rules.js), or null.
function readableByRequester(headers, responseHeaders) {
  const site = headers['sec-fetch-site'];
  if (site === undefined || site === 'same-origin' || site === 'none') return true;
  if (headers['sec-fetch-mode'] !== 'cors') return false;
  const allowed = responseHeaders?.['access-control-allow-origin'];
  return allowed === '*' || (allowed !== undefined && allowed === headers.origin);
}

// The dictionary hash the request may be answered against, or null: the file must be covered by
// a dictionary rule (`rule`), the connection secure (RFC 9842 10.1: dictionaries are for
// HTTPS only), and the response readable by the requester.
function requestedDictionary(rule, secure, headers, responseHeaders) {
  if (rule === null || !secure) return null;
  const hash = parseAvailableDictionary(headers['available-dictionary']);
  if (hash === null || !readableByRequester(headers, responseHeaders)) return null;
  return hash;
}

module.exports = { parseAvailableDictionary, readableByRequester, requestedDictionary, MAX_HEADER_LENGTH };
