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
// rules for the file (config/header-rules.js), or null.
function readableByRequester(headers, responseHeaders) {
  const site = headers['sec-fetch-site'];
  if (site === undefined || site === 'same-origin' || site === 'none') return true;
  if (headers['sec-fetch-mode'] !== 'cors') return false;
  const allowed = responseHeaders?.['access-control-allow-origin'];
  return allowed === '*' || (allowed !== undefined && allowed === headers.origin);
}

// { hash, why }: the dictionary hash (a Buffer) the request may be answered against, or null and
// why not (for /_negotiate): the file must be covered by a dictionary rule (`rule`), the
// connection secure (RFC 9842 10.1: dictionaries are for HTTPS only), the header well-formed and
// the response readable by the requester.
function dictionaryStatus(rule, secure, headers, responseHeaders) {
  if (rule === null) return { hash: null, why: 'no dictionary rule covers this path' };
  if (!secure) return { hash: null, why: 'dictionaries are used over HTTPS only' };
  const value = headers['available-dictionary'];
  if (value === undefined) return { hash: null, why: 'no Available-Dictionary' };
  const hash = parseAvailableDictionary(value);
  if (hash === null) return { hash: null, why: 'Available-Dictionary is not an sf-binary SHA-256' };
  if (!readableByRequester(headers, responseHeaders)) return { hash: null, why: 'a cross-origin request that could not read the response (RFC 9842 11)' };
  return { hash, why: null };
}

function requestedDictionary(rule, secure, headers, responseHeaders) {
  return dictionaryStatus(rule, secure, headers, responseHeaders).hash;
}

module.exports = { parseAvailableDictionary, readableByRequester, dictionaryStatus, requestedDictionary };
