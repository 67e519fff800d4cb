'use strict';
// Conditional request evaluation (RFC 9110 section 13) for GET/HEAD on a representation.

// If-None-Match uses weak comparison: W/"x" matches "x".
function etagListMatches(header, etag) {
  if (header === '*') return true;
  const tag = etag.startsWith('W/') ? etag.slice(2) : etag;
  let from = 0;
  while (from < header.length) {
    let comma = header.indexOf(',', from);
    if (comma === -1) comma = header.length;
    let item = header.slice(from, comma).trim();
    if (item === '*') return true;
    if (item.startsWith('W/')) item = item.slice(2);
    if (item === tag) return true;
    from = comma + 1;
  }
  return false;
}

function parseHttpDate(value) {
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

// True when the client's cached copy is current: answer 304.
function isNotModified(headers, rep) {
  const inm = headers['if-none-match'];
  if (inm !== undefined) return etagListMatches(inm, rep.etag);
  const ims = headers['if-modified-since'];
  if (ims === undefined) return false;
  const since = parseHttpDate(ims);
  return since !== null && rep.lastModifiedMs <= since;
}

// If-Range: the Range applies only if the validator still names this exact representation.
// ETags compare strongly; a date must equal Last-Modified.
function ifRangeAllows(value, rep) {
  if (value === undefined) return true;
  const v = value.trim();
  if (v.startsWith('"')) return v === rep.etag;
  if (v.startsWith('W/')) return false;
  const date = parseHttpDate(v);
  return date !== null && date === rep.lastModifiedMs;
}

module.exports = { isNotModified, ifRangeAllows };
