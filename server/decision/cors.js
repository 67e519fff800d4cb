'use strict';
// --cors: pages of any origin may read the responses (the Fetch standard's CORS protocol).
// The files are public and no credentials are involved, so the answer is the same for every
// origin: "Access-Control-Allow-Origin: *", which needs no Vary: Origin and keeps one cached
// response (and one encoded header block) per representation for all origins. A preflight
// (an OPTIONS request with Origin and Access-Control-Request-Method) is answered 204 with the
// methods this server has, GET and HEAD, and the headers the request asked for; a browser
// refuses the request itself when its method is not among them.

const { response } = require('./representation');
const { headerAdder } = require('./added-header');

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

/** d with Access-Control-Allow-Origin: *, unless a header rule of the site set one. */
const allowAnyOrigin = headerAdder(ALLOW_ORIGIN, '*');

module.exports = { isPreflight, preflight, allowAnyOrigin };
