'use strict';
// What a GET or HEAD of a missing path gets: with --spa, /index.html when the request accepts
// text/html (a browser navigating to a client-side route); else the root's 404.html, sent with
// status 404 in the coding negotiated like any file's; else the plain-text 404.

const { response, VARY } = require('../decision/representation');
const { settle } = require('../decision/selection');
const { openFileBody } = require('../files/file-body');
const { CODES } = require('../errors');

const SPA_VARY = `${VARY}, Accept`;

// Whether an Accept header lists text/html with a non-zero q. Only the explicit type counts:
// browsers send it for navigations, while */* is what scripts, fetch() and curl send.
function acceptsHtml(accept) {
  if (typeof accept !== 'string') return false;
  for (const range of accept.split(',')) {
    const [type, ...params] = range.split(';');
    if (type.trim().toLowerCase() !== 'text/html') continue;
    const q = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) return true;
  }
  return false;
}

// The 404 of / when the root has no index.html: what its owner can do, in the terms they set
// the server up with (listing: --listing, or the option listing: true).
function rootWithoutIndex(listing) {
  return `no index.html in the served folder: add one, or list its files with ${listing}`;
}

// err: the RequestError 404. Never rejects.
async function notFound(core, err, isHead, headers, spa) {
  try {
    // Only a path that does not exist falls back: dotfiles and escapes from the root stay 404.
    const fallback = spa && err.code === CODES.ERR_NOT_FOUND;
    if (fallback && acceptsHtml(headers.accept)) {
      const index = await lookupFile(core, '/index.html');
      if (index !== null) return withVary(await core.serveFile(isHead, index, headers), SPA_VARY);
    }
    const page = await notFoundPage(core, isHead, headers);
    const d = page ?? core.errorResponse(err, isHead);
    return fallback ? withVary(d, page !== null ? SPA_VARY : 'Accept') : d;
  } catch (failure) {
    return core.errorResponse(failure, isHead);
  }
}

// The 404 page in the negotiated coding, or null when the root has none. No validators go with
// it: a 404 is not a representation of 404.html that a client could revalidate or ask a range of.
async function notFoundPage(core, isHead, headers) {
  const info = await lookupFile(core, '/404.html');
  if (info === null) return null;
  const selection = await settle(core.select(info, headers['accept-encoding']));
  // Identity when nothing else is acceptable or free: an error page goes out rather than a 406/503.
  const rep = selection.kind === 'rep' && !selection.rep.streamsCompression ? selection.rep : info.identity;
  const out = { ...info.base.extraHeaders, 'content-type': rep.headers['content-type'], 'content-length': String(rep.size), 'vary': VARY };
  delete out['cache-control'];
  if (rep.coding !== 'identity') out['content-encoding'] = rep.coding;
  const body = isHead ? null : rep.bytes ?? await openFileBody(rep, 0, rep.size - 1);
  return response(404, out, body, rep.coding);
}

async function lookupFile(core, rel) {
  try {
    const info = await core.store.lookup(rel);
    return info.kind === 'file' ? info : null;
  } catch (err) {
    if (err.status === 404) return null;
    throw err;
  }
}

// The response also depends on the request's Accept.
function withVary(d, vary) {
  return { ...d, headers: { ...d.headers, vary }, h2: null };
}

module.exports = { notFound, acceptsHtml, rootWithoutIndex };
