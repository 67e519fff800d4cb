'use strict';
// A representation is one concrete body a URL can be answered with (identity, a precompressed
// variant or an on-the-fly compression), with every header it needs computed once: the hot
// path hands these prebuilt objects straight to res.writeHead()/stream.respond(), which copy
// them (Node adds Date itself).

const { chosen } = require('./selection');

const VARY = 'Accept-Encoding';
// Files a dictionary rule covers (RFC 9842 6: the response depends on the dictionary too).
const VARY_DICTIONARY = 'Accept-Encoding, Available-Dictionary';

// fields: { coding, source, size (null: compressed while it streams, no length up front),
//           identitySize (the file's size), etag,
//           lastModified, lastModifiedMs, contentType, cacheControl, extraHeaders (the site's
//           header rules and Use-As-Dictionary: object | null), vary, bytes (Buffer | null), path, stat (for fd checks),
//           rangeable }
// Complete when returned and never written to afterwards, like the FileInfo that holds it.
function createRepresentation(fields) {
  const rep = { ...fields };
  rep.streamsCompression = rep.size === null;
  const common = {
    'content-type': rep.contentType,
    'etag': rep.etag,
    'last-modified': rep.lastModified,
    'cache-control': rep.cacheControl,
    'vary': rep.vary,
    ...rep.extraHeaders,
  };
  if (rep.coding !== 'identity') common['content-encoding'] = rep.coding;
  // A body compressed while it streams has no length up front and cannot seek.
  if (rep.size !== null) common['content-length'] = String(rep.size);
  common['accept-ranges'] = rep.rangeable ? 'bytes' : 'none';
  rep.headers = common;
  rep.ok = prebuilt(200, common, rep.bytes, rep);
  rep.head = prebuilt(200, common, null, rep);
  const notModified = {
    'etag': rep.etag,
    'last-modified': rep.lastModified,
    'cache-control': rep.cacheControl,
    'vary': rep.vary,
    ...rep.extraHeaders,
  };
  rep.notModified = prebuilt(304, notModified, null, rep);
  rep.selection = chosen(rep);
  return rep;
}

// A response descriptor: plain data both protocol adapters know how to send.
// body: Buffer | stream.Readable | null. h2 carries the same headers plus :status.
// For the metrics (server/metrics/recorder.js), set once here so that counting costs nothing per
// request: source (the representation's), identitySize (the file's size, to count the bytes a
// coding saved) and reason (a refusal's error code); null where they do not apply.
function prebuilt(status, headers, body, rep) {
  return {
    status,
    headers,
    h2: { ':status': status, ...headers },
    body,
    coding: rep.coding,
    source: rep.source,
    identitySize: rep.identitySize ?? null,
    reason: null,
  };
}

function response(status, headers, body, coding = null, reason = null) {
  return { status, headers, h2: null, body, coding, source: null, identitySize: null, reason };
}

module.exports = { createRepresentation, response, VARY, VARY_DICTIONARY };
