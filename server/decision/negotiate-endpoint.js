'use strict';
// GET /_negotiate?path=/app.js&ae=<Accept-Encoding>&ad=<Available-Dictionary> (path set by
// --negotiate-endpoint): explains, as JSON, what a request for `path` with that Accept-Encoding
// (and dictionary) would get; without `ae` (`ad`) it evaluates this request's own header (a page
// cannot read the headers its browser sends). The answer is Core#explain's: the server's real decision, not a re-implementation.

const { response } = require('./representation');
const { RequestError, ERR_MISSING_PATH } = require('../errors');

async function negotiateEndpoint(core, query, headers, isHead) {
  const params = new URLSearchParams(query.slice(1));
  const target = params.get('path');
  const ae = params.has('ae') ? params.get('ae') : headers['accept-encoding'];
  try {
    if (!target) throw ERR_MISSING_PATH();
    const others = params.has('ad') ? { ...headers, 'available-dictionary': params.get('ad') } : headers;
    return json(200, { path: target, ...await core.explain(target, ae, others) }, isHead);
  } catch (err) {
    if (!(err instanceof RequestError)) throw err;
    const status = err.status === 404 ? 404 : 400;
    return json(status, { error: err.message, code: err.code }, isHead);
  }
}

function json(status, value, isHead) {
  const body = Buffer.from(JSON.stringify(value));
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(body.length),
    'cache-control': 'no-store',
  };
  return response(status, headers, isHead ? null : body);
}

module.exports = { negotiateEndpoint };
