'use strict';
// GET /_negotiate?path=/app.js&ae=<Accept-Encoding> (path set by --negotiate-endpoint): explains,
// as JSON, what a request for `path` with that Accept-Encoding would get; without `ae` it
// evaluates this request's own Accept-Encoding (a page cannot read the header its browser
// sends). It goes through the core's own file lookup and selection, so the answer is the
// server's real decision, not a re-implementation.

const { parseRequestPath } = require('../files/resolve-path');
const { negotiate, isAcceptable } = require('./negotiate');
const { parseAcceptEncoding, qualityOf } = require('./accept-encoding');
const { response } = require('./representation');
const { RequestError } = require('../errors');

async function negotiateEndpoint(core, query, headers, isHead) {
  const params = new URLSearchParams(query.slice(1));
  const target = params.get('path');
  const ae = params.has('ae') ? params.get('ae') : headers['accept-encoding'];
  try {
    if (!target) throw new RequestError(400, 'ERR_MISSING_PATH', 'query parameter "path" is required');
    const parsed = parseRequestPath(target);
    const found = await core.findFile(parsed);
    if (found.redirect) throw new RequestError(400, 'ERR_DIRECTORY', 'path names a directory; add a trailing slash');
    return json(200, await report(core, found.info, target, ae), isHead);
  } catch (err) {
    if (!(err instanceof RequestError)) throw err;
    const status = err.status === 404 ? 404 : 400;
    return json(status, { error: err.message, code: err.code }, isHead);
  }
}

async function report(core, info, target, ae) {
  const preference = core.store.encodings;
  // Sizes first, one at a time (all at once could hit the compression cap and hide sizes): an
  // on-the-fly output found not smaller than the file withdraws its coding, as for a request,
  // before the decision below is made.
  const sizes = {};
  for (const coding of [...info.offered]) sizes[coding] = await representationBytes(core, info, coding);
  let rep = core.select(info, ae);
  if (rep !== null && typeof rep.then === 'function') rep = await rep;
  const chosen = rep !== null && typeof rep === 'object' ? rep : null;
  const parsed = parseAcceptEncoding(ae);
  const variants = [...preference, 'identity'].map((coding) => {
    const available = info.offered.includes(coding);
    const q = qualityOf(parsed, coding);
    return {
      coding,
      // negotiator's weight for it; JSON has no NaN (q=abc) or Infinity (q=1e999): as strings.
      q: Number.isFinite(q) ? q : String(q),
      acceptable: isAcceptable(ae, coding),
      available,
      source: sourceOf(info, coding),
      bytes: available ? sizes[coding] : null,
    };
  });
  return {
    path: target,
    acceptEncoding: ae === undefined ? null : ae,
    status: chosen ? 200 : (rep === null ? 406 : 503),
    chosen: chosen ? chosen.coding : null,
    source: chosen ? chosen.source : null,
    reason: explain(info, ae, chosen, variants, preference),
    preference,
    variants,
  };
}

function sourceOf(info, coding) {
  if (coding === 'identity') return 'identity';
  return info.variants[coding] ? 'precompressed' : 'dynamic';
}

// null when unknown: streamed compression, or every compression slot busy.
async function representationBytes(core, info, coding) {
  const source = sourceOf(info, coding);
  if (source === 'identity') return info.stat.size;
  if (source === 'precompressed') return info.variants[coding].size;
  if (info.bytes === null) return null;
  const buf = await core.cache.getOrCompress(info.cacheKeyPrefix + coding, coding, () => Promise.resolve(info.bytes));
  if (buf === null || !core.store.acceptCompressed(info, coding, buf.length)) return null;
  return buf.length;
}

function explain(info, ae, chosen, variants, preference) {
  const parts = [];
  if (ae === undefined) {
    parts.push('no Accept-Encoding header: any coding is acceptable (RFC 9110 12.5.3), but identity is sent because a client that announces no decoder may have none');
  } else if (ae.trim() === '') {
    parts.push('empty Accept-Encoding: only identity is acceptable');
  }
  const usable = variants.filter((v) => v.acceptable && v.available).map((v) => v.coding);
  if (!chosen) {
    parts.push(usable.length === 0
      ? `no acceptable coding is available; this file can be sent as ${info.offered.join(', ')}`
      : 'every acceptable coding needs on-the-fly compression and all compression slots are busy');
  } else if (ae !== undefined) {
    const first = negotiate(ae, info.offered, info.offeredKey);
    if (first !== chosen.coding) {
      parts.push(`${first} needs on-the-fly compression but all compression slots are busy, so the next best was taken`);
    }
    const others = usable.filter((c) => c !== chosen.coding);
    parts.push(`${chosen.coding} (${chosen.source}) has the highest client q-value among the codings available for this file` +
      (others.length ? `; equal q-values go to the server preference ${preference.join(' > ')} > identity (also acceptable: ${others.join(', ')})` : ''));
  }
  for (const coding of preference) {
    if (info.unavailable[coding]) parts.push(`${coding} unavailable: ${info.unavailable[coding]}`);
  }
  return parts.join('; ');
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
