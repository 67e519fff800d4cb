'use strict';
// The protocol-independent request core: from (method, target, headers) it decides the whole
// response (status, headers, body source) as a plain descriptor that the HTTP/1.1 and HTTP/2
// adapters send. The common case, a cached file in a coding the client accepts, returns
// prebuilt descriptors without allocating headers.

const { pipeline } = require('node:stream');
const { parseRequestPath } = require('../files/resolve-path');
const { negotiate } = require('./negotiate');
const { evaluatePreconditions, ifRangeAllows, NOT_MODIFIED, PRECONDITION_FAILED } = require('./conditional');
const { parseRange, UNSATISFIABLE } = require('./range');
const { createRepresentation, response, VARY } = require('./representation');
const { NONE, BUSY, pending, settle } = require('./selection');
const { explanation } = require('./explain');
const { savesBytes } = require('../compression/compressibility');
const { openFileBody } = require('../files/file-body');
const { Spool } = require('../files/spool');
const { RequestError } = require('../errors');
const { notFound } = require('../site/not-found');
const { listDirectory } = require('../site/listing');
const { isPreflight, preflight, allowAnyOrigin } = require('../site/cors');

const RESTARTS = 2;
const TEXT = 'text/plain; charset=utf-8';

class Core {
  // negotiatePath: where negotiateEndpoint answers, or false when it is off. budget: the
  // process's ByteBudget, charged by every streamed body; spoolDisk: the one for the bytes
  // compression spools keep on disk. logAccess: see access-log.js; the engines call it.
  // site: see site/index.js.
  // compressionBudget: the slots the cache and streaming compression share (compression-budget.js).
  constructor({ store, cache, engines, log, compressionBudget, negotiateEndpoint, negotiatePath, budget, spoolDisk, logAccess, site }) {
    Object.assign(this, { store, cache, engines, log, compressionBudget, negotiateEndpoint, negotiatePath, budget, spoolDisk, logAccess, site });
    this.requests = 0;
    this.fileStates = new WeakMap();
  }

  // Never rejects: unexpected failures become a 500 descriptor. Every response of every engine
  // comes from here, so --cors is applied here once.
  decide(method, target, headers) {
    const d = this.respond(method, target, headers);
    return this.site.cors ? d.then(allowAnyOrigin) : d;
  }

  async respond(method, target, headers) {
    this.requests++;
    const isHead = method === 'HEAD';
    if (method !== 'GET' && !isHead) return this.otherMethod(method, target, headers);
    try {
      const parsed = parseRequestPath(target);
      if (parsed.rel === this.negotiatePath) return await this.negotiateEndpoint(this, parsed.query, headers, isHead);
      // A file whose check holds, with its bytes in memory, is decided without awaiting
      // anything: findFile and serveFile return promises only when they must wait.
      for (let attempt = 0; ; attempt++) {
        let found = this.findFile(parsed);
        if (typeof found.then === 'function') found = await found;
        if (found.redirect) return redirect(found.redirect, isHead);
        if (found.listing) return await listDirectory(this.store.rootReal, found.listing, parsed.rel, isHead, this.site.hidden);
        try {
          const d = this.serveFile(isHead, found.info, headers);
          return typeof d.then === 'function' ? await d : d;
        } catch (err) {
          // The file changed between validation and open: look again with fresh metadata.
          if (err.code !== 'ERR_FILE_CHANGED' || attempt === RESTARTS) throw err;
          this.store.invalidate(found.info.rel);
        }
      }
    } catch (err) {
      if (err instanceof RequestError && err.status === 404) return notFound(this, err, isHead, headers, this.site.spa);
      return this.errorResponse(err, isHead);
    }
  }

  // RFC 9110 9.3.7: OPTIONS * asks what the server as a whole supports. With --cors, a CORS
  // preflight of any path is answered (cors.js). Anything else is a 405 naming the methods
  // the files have.
  otherMethod(method, target, headers) {
    if (method === 'OPTIONS' && target === '*') return response(204, { 'allow': 'OPTIONS, GET, HEAD' }, null);
    if (this.site.cors && isPreflight(method, headers)) return preflight(headers);
    return textResponse(405, 'method not allowed\n', false, { 'allow': 'GET, HEAD' });
  }

  // { info } for a file, { redirect } for a directory named without its slash, or { listing }
  // (the directory) for one without index.html when --listing is on; or a promise of one.
  findFile(parsed) {
    const info = this.store.current(parsed.rel);
    if (info === undefined) return this.store.lookup(parsed.rel).then((looked) => this.found(parsed, looked));
    return this.found(parsed, info);
  }

  found(parsed, info) {
    if (info.kind === 'file') {
      if (parsed.trailingSlash) throw new RequestError(404, 'ERR_NOT_FOUND', 'not a directory');
      if (this.site.hidden(info.real)) throw new RequestError(404, 'ERR_NOT_FOUND', 'not found');
      return { info };
    }
    if (!parsed.trailingSlash) return { redirect: directoryLocation(parsed.rel) + parsed.query };
    return this.findIndex(parsed, info);
  }

  async findIndex(parsed, info) {
    const indexRel = parsed.rel === '/' ? '/index.html' : parsed.rel + '/index.html';
    // The root's 404 says what to do about it (a first run in a folder without index.html).
    const noIndex = (err) => (parsed.rel === '/' ? new RequestError(404, err.code, this.site.rootWithoutIndex) : err);
    const index = this.store.current(indexRel) ?? await this.store.lookup(indexRel).catch((err) => {
      if (err.status !== 404) throw err;
      if (this.site.listing) return info;
      throw noIndex(err);
    });
    if (index.kind !== 'file') {
      if (this.site.listing) return { listing: info };
      throw noIndex(new RequestError(404, 'ERR_NOT_FOUND', 'no index.html'));
    }
    return { info: index };
  }

  // A descriptor, or a promise of one.
  serveFile(isHead, info, headers) {
    const selection = this.select(info, headers['accept-encoding']);
    if (selection.kind === 'pending') return selection.pending.then((settled) => this.present(isHead, settled, info, headers));
    return this.present(isHead, selection, info, headers);
  }

  // What to send for this file under this Accept-Encoding: a Selection (selection.js).
  select(info, ae) {
    const offer = this.offer(info);
    const coding = negotiate(ae, offer.offered, offer.offeredKey);
    if (coding === null) return NONE;
    const selection = this.represent(info, coding);
    return selection.kind === 'rep' ? selection : this.giveWay(info, ae, selection);
  }

  // The file's offer (offered, offeredKey, unavailable): its FileInfo's, less the codings
  // withdrawn since (see compressed()). FileInfo objects are immutable snapshots, so what
  // requests learn about one lives here, keyed by it, and goes with it when the file changes.
  offer(info) {
    const state = this.fileStates.get(info);
    return state === undefined ? info : state;
  }

  fileState(info) {
    let state = this.fileStates.get(info);
    if (state === undefined) {
      state = { offered: info.offered, offeredKey: info.offeredKey, unavailable: info.unavailable, reps: {} };
      this.fileStates.set(info, state);
    }
    return state;
  }

  // The file in `coding`, one of its offer: a representation, pending while it is compressed,
  // 'busy' when that needs a slot and none is free (or the compression failed), 'none' when the
  // output turned out not smaller than the file (the coding is then withdrawn).
  represent(info, coding) {
    if (coding === 'identity') return info.identity.selection;
    const variant = info.variants[coding];
    if (variant !== undefined) return variant.selection;
    if (info.bytes === null) return this.streamingRep(info, coding).selection;
    const key = info.cacheKeyPrefix + coding;
    const hit = this.cache.get(key);
    if (hit !== undefined) return this.compressed(info, coding, hit);
    return pending(this.cache.getOrCompress(key, coding, () => Promise.resolve(info.bytes)).then(
      (buf) => (buf === null ? BUSY : this.compressed(info, coding, buf)),
      (err) => {
        this.log.error(`${coding} compression of ${info.real} failed: ${err.message}`);
        return BUSY;
      }));
  }

  // A coding that cannot be had now gives way: to what needs no compression when no slot is
  // free, to the next best of a smaller offer when it was withdrawn.
  giveWay(info, ae, selection) {
    if (selection.kind === 'busy') return this.fallback(info, ae);
    if (selection.kind === 'none') return this.select(info, ae);
    return pending(selection.pending.then((s) => (s.kind === 'rep' ? s : settle(this.giveWay(info, ae, s)))));
  }

  // Past the compression cap: re-negotiate among what needs no compression.
  fallback(info, ae) {
    const coding = negotiate(ae, info.staticOffered, info.staticOfferedKey);
    if (coding === null) return BUSY;
    return coding === 'identity' ? info.identity.selection : info.variants[coding].selection;
  }

  // Output not smaller than identity is never sent: the coding leaves this file's offer for as
  // long as its FileInfo lives (until the file changes), so it is neither sent nor compressed
  // again per request.
  compressed(info, coding, bytes) {
    if (savesBytes(bytes.length, info.stat.size)) return this.dynamicRep(info, coding, bytes).selection;
    const state = this.fileState(info);
    if (state.offered.includes(coding)) {
      state.offered = state.offered.filter((c) => c !== coding);
      state.offeredKey = state.offered.join(',');
      state.unavailable = { ...state.unavailable, [coding]: `on-the-fly output (${bytes.length} bytes) not smaller than the file (${info.stat.size} bytes)` };
    }
    return NONE;
  }

  // On-the-fly bytes depend on the engine, its level and library version, not only on the file
  // (--brotli-engine iltorb gives other bytes than zlib), so their ETag is weak, as nginx's gzip
  // filter makes it: If-None-Match still revalidates them (weak comparison), while If-Match
  // and If-Range, which compare strongly, never match it. A Range without If-Range is served.
  dynamicRep(info, coding, bytes) {
    const reps = this.fileState(info).reps;
    const memo = reps[coding];
    if (memo !== undefined && memo.bytes === bytes) return memo;
    reps[coding] = createRepresentation({
      ...info.base, coding, source: 'dynamic', size: bytes.length,
      etag: dynamicTag(info, coding), bytes, path: null, stat: null, rangeable: true,
    });
    return reps[coding];
  }

  streamingRep(info, coding) {
    const reps = this.fileState(info).reps;
    reps[coding] ??= createRepresentation({
      ...info.base, coding, source: 'dynamic', size: null,
      etag: dynamicTag(info, coding), bytes: null, path: null, stat: null, rangeable: false,
    });
    return reps[coding];
  }

  // What a GET of `target` with Accept-Encoding `ae` (undefined: none) gets and why, for
  // /_negotiate: the same lookup and select() as a request. Rejects with a RequestError (404;
  // 400 for a directory).
  async explain(target, ae) {
    const found = await this.findFile(parseRequestPath(target));
    if (found.info === undefined) throw new RequestError(400, 'ERR_DIRECTORY', 'path names a directory; add a trailing slash');
    const info = found.info;
    // Sizes first, one at a time (all at once could hit the compression cap and hide sizes): an
    // on-the-fly output found not smaller than the file withdraws its coding, as for a request,
    // before the decision below is made. null when unknown: streamed compression, or no slot.
    const sizes = {};
    for (const coding of this.offer(info).offered) {
      const selection = await settle(this.represent(info, coding));
      sizes[coding] = selection.kind === 'rep' ? selection.rep.size : null;
    }
    const selection = await settle(this.select(info, ae));
    return explanation({ info, offer: this.offer(info), preference: this.store.encodings, ae, selection, sizes });
  }

  // selection: settled. A descriptor, or a promise of one when a body has to be opened.
  present(isHead, selection, info, headers) {
    if (selection.kind === 'none') return notAcceptable(this.offer(info).offered, isHead);
    if (selection.kind === 'busy') return textResponse(503, 'all compression slots are busy, retry\n', isHead, { 'retry-after': '1', 'vary': VARY });
    const rep = selection.rep;
    const precondition = evaluatePreconditions(headers, rep);
    if (precondition === NOT_MODIFIED) return rep.notModified;
    if (precondition === PRECONDITION_FAILED) return preconditionFailed(rep, isHead);
    const rangeHeader = headers.range;
    if (rangeHeader !== undefined && rep.rangeable && ifRangeAllows(headers['if-range'], rep)) {
      const range = parseRange(rangeHeader, rep.size);
      if (range === UNSATISFIABLE) {
        return textResponse(416, 'range not satisfiable\n', isHead, {
          'content-range': `bytes */${rep.size}`, 'etag': rep.etag, 'vary': VARY,
        });
      }
      if (range !== null) return partial(rep, range, isHead, this.budget);
    }
    if (isHead) return rep.head;
    if (rep.bytes !== null) return rep.ok;
    if (rep.streamsCompression) {
      const release = this.compressionBudget.tryAcquire(rep.coding, 'stream');
      if (release === null) return this.present(isHead, this.fallback(info, headers['accept-encoding']), info, headers);
      return this.openCompressedBody(info, rep.coding, release).then((body) => ({ ...rep.ok, body }));
    }
    return openFileBody(rep, 0, rep.size - 1, this.budget).then((body) => ({ ...rep.ok, body }));
  }

  // Runs with a compression slot reserved; release() frees it when the compressor closes. The
  // compressor writes into a spool at its own speed, so the slot is held for as long as the
  // compression takes, not for as long as the client takes to read.
  async openCompressedBody(info, coding, release) {
    let source = null;
    try {
      source = await openFileBody(info.identity, 0, info.stat.size - 1, this.budget);
      const compressor = this.engines.createCompressStream(coding, { level: 'dynamic', sizeHint: info.stat.size });
      compressor.once('close', release);
      const spool = new Spool(this.budget, this.spoolDisk);
      pipeline(source, compressor, spool, () => {});
      return spool;
    } catch (err) {
      release();
      if (source !== null) source.destroy();
      throw err;
    }
  }

  close() {
    this.store.close();
  }

  headerListTooLarge(isHead) {
    return textResponse(431, 'request header fields too large\n', isHead);
  }

  errorResponse(err, isHead) {
    if (err instanceof RequestError) {
      this.log.debug(`${err.status} ${err.code}: ${err.message}`);
      return textResponse(err.status, `${err.message}\n`, isHead);
    }
    // Still changing after RESTARTS fresh looks: a transient state of the disk, not a fault.
    if (err.code === 'ERR_FILE_CHANGED') return textResponse(503, 'file is changing, retry\n', isHead, { 'retry-after': '1' });
    this.log.error(`internal error: ${err.stack || err}`);
    return textResponse(500, 'internal server error\n', isHead);
  }

  get stats() {
    return {
      requests: this.requests,
      streamingCompressions: this.compressionBudget.inUse('stream'),
      compressionSlots: this.compressionBudget.stats,
      compressCache: { ...this.cache.stats },
      fileCache: this.store.stats,
      bufferedBytes: this.budget.stats,
      spoolDiskBytes: this.spoolDisk.stats,
    };
  }
}

function partial(rep, { start, end }, isHead, budget) {
  const headers = {
    ...rep.headers,
    'content-range': `bytes ${start}-${end}/${rep.size}`,
    'content-length': String(end - start + 1),
  };
  if (isHead) return response(206, headers, null, rep.coding);
  if (rep.bytes !== null) return response(206, headers, rep.bytes.subarray(start, end + 1), rep.coding);
  return openFileBody(rep, start, end, budget).then((body) => response(206, headers, body, rep.coding));
}

function dynamicTag(info, coding) {
  return `W/"${info.identityTag}-${coding}"`;
}

// The selected representation's validators go with the 412, so a client can see what is
// current without another request.
function preconditionFailed(rep, isHead) {
  return textResponse(412, 'precondition failed\n', isHead, {
    'etag': rep.etag, 'last-modified': rep.lastModified, 'vary': VARY,
  });
}

function notAcceptable(offered, isHead) {
  return textResponse(406, `not acceptable; available content-codings: ${offered.join(', ')}\n`, isHead, { 'vary': VARY });
}

// The slashed path of a directory, built from the normalised segments, each percent-encoded so
// that '?', '#' or '%' in a folder name stay part of the path. The root ('/js/..') is '/', never
// '//', which a client would read as a network-path reference to another host.
function directoryLocation(rel) {
  return rel === '/' ? '/' : `${rel.split('/').map(encodeURIComponent).join('/')}/`;
}

function redirect(location, isHead) {
  return textResponse(301, `moved to ${location}\n`, isHead, { 'location': location });
}

function textResponse(status, text, isHead, extra) {
  const body = Buffer.from(text);
  const headers = { 'content-type': TEXT, 'content-length': String(body.length), ...extra };
  return response(status, headers, isHead ? null : body);
}

module.exports = { Core };
