'use strict';
// --cors: pages of any origin may read the responses (the Fetch standard's CORS protocol).
// The files are public and no credentials are involved, so the answer is the same for every
// origin: "Access-Control-Allow-Origin: *", which needs no Vary: Origin and keeps one cached
// response (and one encoded header block) per representation for all origins. A preflight
// (an OPTIONS request with Origin and Access-Control-Request-Method) is answered 204 with the
// methods this server has, GET and HEAD, and the headers the request asked for; a browser
// refuses the request itself when its method is not among them.

const { response } = require('./representation');

const ALLOW_ORIGIN = 'access-control-allow-origin';
const METHODS = 'GET, HEAD';
// The seconds a browser may reuse a preflight's answer; Chromium caps it there, Firefox at a day.
const MAX_AGE = '7200';

function isPreflight(method, headers) {
  return method === 'OPTIONS' && headers.origin !== undefined && headers['access-control-request-method'] !== undefined;
}

function preflight(headers) {
  const out = {
    [ALLOW_ORIGIN]: '*',
    'access-control-allow-methods': METHODS,
    'access-control-max-age': MAX_AGE,
  };
  const requested = headers['access-control-request-headers'];
  if (requested !== undefined && requested !== '') out['access-control-allow-headers'] = requested;
  return response(204, out, null);
}

// Decorated copies by the object they copy (a descriptor, its headers, its h2 fields): the
// core's prebuilt descriptors are shared by every response of a representation, and so are
// their copies, which the engines' caches of serialised heads are keyed by.
const copies = new WeakMap();

function copyOf(object, make) {
  let copy = copies.get(object);
  if (copy === undefined) {
    copy = make();
    copies.set(object, copy);
  }
  return copy;
}

/** d with Access-Control-Allow-Origin: *, unless a header rule of the site set one. */
function allowAnyOrigin(d) {
  if (d.headers[ALLOW_ORIGIN] !== undefined) return d;
  return copyOf(d, () => {
    const headers = copyOf(d.headers, () => ({ ...d.headers, [ALLOW_ORIGIN]: '*' }));
    const h2 = d.h2 === null ? null : copyOf(d.h2, () => ({ ...d.h2, [ALLOW_ORIGIN]: '*' }));
    return { ...d, headers, h2 };
  });
}

module.exports = { isPreflight, preflight, allowAnyOrigin };
