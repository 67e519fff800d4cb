'use strict';
// The protocol-independent request core: from (method, target, headers) it decides the whole
// response (status, headers, body source) as a plain descriptor that the HTTP/1.1 and HTTP/2
// adapters send. The common case, a cached file in a coding the client accepts, returns
// prebuilt descriptors without allocating headers.

const { pipeline } = require('node:stream');
const { parseRequestPath } = require('../http/request-path');
const { negotiate } = require('./negotiate');
const { evaluatePreconditions, ifRangeAllows, NOT_MODIFIED, PRECONDITION_FAILED } = require('./conditional');
const { parseRange, UNSATISFIABLE } = require('./range');
const { createRepresentation, response } = require('./representation');
const { requestedDictionary, dictionaryStatus } = require('./available-dictionary');
const { BASE_CODING } = require('../dictionaries/dictionary-codings');
const { OVER_BUDGET } = require('../dictionaries/delta-maker');
const { NONE, BUSY, pending, settle } = require('./selection');
const { explanation } = require('./explain');
const { savesBytes } = require('../compression/compressibility');
const { openFileBody } = require('../files/file-body');
const { Spool } = require('../files/spool');
const { CODES, RequestError, ERR_DIRECTORY, ERR_NOT_FOUND, restated } = require('../errors');
const { isPreflight, preflight, allowAnyOrigin } = require('./cors');
const { headerAdder } = require('./added-header');

const RESTARTS = 2;
// Delta representations kept per file snapshot (each client's dictionary makes its own).
const DELTA_REPS = 8;
const TEXT = 'text/plain; charset=utf-8';

class Core {
  // encodings: the server's codings in preference order (--encodings).
  // negotiatePath: where negotiateEndpoint answers, or false when it is off. budget: the
  // process's ByteBudget, charged by every streamed body; spoolDisk: the one for the bytes
  // compression spools keep on disk. logAccess: see access-log.js; the engines call it.
  // site: see site/index.js; its notFound and listDirectory are the decision's hooks for where
  // there is no file.
  // compressionBudget: the slots the cache and streaming compression share (compression-budget.js).
  // dictionaries: the DictionaryIndex (dictionaries/dictionary-index.js); deltas: the
  // DeltaMaker (dictionaries/delta-maker.js), which makes the delta bytes or says it cannot,
  // and its codings, the dictionary codings offered in preference order, ahead of every other
  // coding since a delta is smaller than any of them; secure: whether requests come over TLS
  // (RFC 9842 offers dictionaries over HTTPS only).
  constructor({ store, encodings, cache, engines, log, compressionBudget, negotiateEndpoint, negotiatePath, budget, spoolDisk, logAccess, site, dictionaries, deltas, secure }) {
    Object.assign(this, { store, encodings, cache, engines, log, compressionBudget, negotiateEndpoint, negotiatePath, budget, spoolDisk, logAccess, site, dictionaries, deltas, secure });
    this.deltaCodings = deltas.codings;
    // The deltas made ahead of time once the dictionaries are known (site/create-core.js): a
    // promise of their number.
    this.deltasAhead = Promise.resolve(0);
    this.requests = 0;
    this.fileStates = new WeakMap();
    this.deltaKey = this.deltaCodings.join(',') + ',';
    this.altSvc = null;
  }

  // RFC 7838: once HTTP/3 runs, every response names it (value: `h3=":PORT"; ma=86400`).
  advertise(value) {
    this.altSvc = headerAdder('alt-svc', value);
  }

  // Never rejects: unexpected failures become a 500 descriptor. Every response of every engine
  // comes from here, so --cors and Alt-Svc are applied here once. connection: any object that lives as long
  // as the request's connection (the delta work budget is counted per connection), or null.
  decide(method, target, headers, connection = null) {
    const d = this.respond(method, target, headers, connection);
    const shared = this.site.cors ? d.then(allowAnyOrigin) : d;
    return this.altSvc === null ? shared : shared.then(this.altSvc);
  }

  async respond(method, target, headers, connection) {
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
        if (found.listing) return await this.site.listDirectory(this.store.rootReal, found.listing, parsed.rel, isHead);
        try {
          const d = this.serveFile(isHead, found.info, headers, connection);
          return typeof d.then === 'function' ? await d : d;
        } catch (err) {
          // The file changed between validation and open: look again with fresh metadata.
          if (err.code !== CODES.ERR_FILE_CHANGED || attempt === RESTARTS) throw err;
          this.store.invalidate(found.info.rel);
        }
      }
    } catch (err) {
      if (err instanceof RequestError && err.status === 404) return this.site.notFound(this, err, isHead, headers);
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
      if (parsed.trailingSlash) throw ERR_NOT_FOUND('not a directory');
      if (this.site.hidden(info.real)) throw ERR_NOT_FOUND();
      return { info };
    }
    if (!parsed.trailingSlash) return { redirect: directoryLocation(parsed.rel) + parsed.query };
    return this.findIndex(parsed, info);
  }

  async findIndex(parsed, info) {
    const indexRel = parsed.rel === '/' ? '/index.html' : parsed.rel + '/index.html';
    // The root's 404 says what to do about it (a first run in a folder without index.html).
    const noIndex = (err) => (parsed.rel === '/' ? restated(err, this.site.rootWithoutIndex) : err);
    const index = this.store.current(indexRel) ?? await this.store.lookup(indexRel).catch((err) => {
      if (err.status !== 404) throw err;
      if (this.site.listing) return info;
      throw noIndex(err);
    });
    if (index.kind !== 'file') {
      if (this.site.listing) return { listing: info };
      throw noIndex(ERR_NOT_FOUND('no index.html'));
    }
    return { info: index };
  }

  // A descriptor, or a promise of one.
  serveFile(isHead, info, headers, connection) {
    const ae = headers['accept-encoding'];
    let selection;
    if (info.dictionaryRule === null) {
      selection = this.select(info, ae);
    } else {
      this.dictionaries.note(info);
      const hash = requestedDictionary(info.dictionaryRule, this.secure, headers, info.base.extraHeaders);
      selection = hash === null ? this.select(info, ae) : this.selectDelta(info, ae, hash, connection);
    }
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

  // A request that names a dictionary (hash): the usual negotiation with the delta codings
  // offered first. A delta chosen is made against the dictionary once the index has found it
  // and checked its hash; without it (unknown, vanished, changed) the request is negotiated as
  // if it had named none. The work a delta needs is charged to `connection` (see decide()).
  selectDelta(info, ae, hash, connection) {
    if (this.deltaCodings.length === 0 || info.bytes === null || !info.compressible) return this.select(info, ae);
    const offer = this.offer(info);
    const coding = negotiate(ae, [...this.deltaCodings, ...offer.offered], this.deltaKey + offer.offeredKey);
    if (!Object.hasOwn(BASE_CODING, coding ?? '')) return this.select(info, ae);
    return pending(this.dictionaries.find(info.dictionaryRule, hash).then((dictionary) => {
      if (dictionary === null || !this.deltas.accepts(coding, dictionary.bytes)) return settle(this.select(info, ae));
      return this.delta(info, ae, coding, dictionary.bytes, hash, this.deltas.chargeTo(connection));
    }));
  }

  // The file in the delta `coding` against `dictionary` (whose SHA-256 is `hash`): a settled
  // Selection. Past the compression cap, past the delta work budget (charge(bytes) said no),
  // or when the delta is not smaller than the file, what the request would have had without a
  // dictionary.
  async delta(info, ae, coding, dictionary, hash, charge) {
    const bytes = await this.deltas.bytes(info, coding, dictionary, hash, charge);
    if (bytes === OVER_BUDGET) return settle(this.select(info, ae));
    if (bytes === null) return settle(this.fallback(info, ae));
    if (!savesBytes(bytes.length, info.stat.size)) return settle(this.select(info, ae));
    return this.deltaRep(info, coding, hash.toString('hex'), bytes).selection;
  }

  // A delta's bytes depend on the file, the dictionary, the coding and its settings, all in its
  // ETag, which is strong so that Range requests can be resumed with If-Range (RFC 9110 8.8.1):
  // the same inputs give the same bytes.
  deltaRep(info, coding, hex, bytes) {
    const state = this.fileState(info);
    state.deltas ??= new Map();
    const name = `${coding}-${hex}`;
    const memo = state.deltas.get(name);
    // The same bytes read again from the cache folder make the same representation.
    if (memo !== undefined && (memo.bytes === bytes || memo.bytes.equals(bytes))) return memo;
    const rep = createRepresentation({
      ...info.base, coding, source: 'dictionary', size: bytes.length,
      etag: `"${info.identityTag}-${coding}${this.deltas.settingsTag(coding)}-${hex.slice(0, 16)}"`,
      bytes, path: null, stat: null, rangeable: true,
    });
    state.deltas.delete(name);
    state.deltas.set(name, rep);
    if (state.deltas.size > DELTA_REPS) state.deltas.delete(state.deltas.keys().next().value);
    return rep;
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
  // headers: the request's other headers (Available-Dictionary, Sec-Fetch-*), for the
  // dictionary part of the report.
  async explain(target, ae, headers = {}) {
    const found = await this.findFile(parseRequestPath(target));
    if (found.info === undefined) throw ERR_DIRECTORY();
    const info = found.info;
    // Sizes first, one at a time (all at once could hit the compression cap and hide sizes): an
    // on-the-fly output found not smaller than the file withdraws its coding, as for a request,
    // before the decision below is made. null when unknown: streamed compression, or no slot.
    const sizes = {};
    for (const coding of this.offer(info).offered) {
      const selection = await settle(this.represent(info, coding));
      sizes[coding] = selection.kind === 'rep' ? selection.rep.size : null;
    }
    const dictionary = await this.explainDictionary(info, headers);
    const selection = await settle(dictionary.hash === null ? this.select(info, ae) : this.selectDelta(info, ae, dictionary.hash, null));
    const report = explanation({ info, offer: this.offer(info), preference: this.encodings, ae, selection, sizes });
    if (info.dictionaryRule === null) return report;
    const delta = selection.kind === 'rep' && selection.rep.source === 'dictionary';
    return {
      ...report,
      dictionary: {
        match: info.dictionaryRule.match,
        useAsDictionary: info.dictionaryRule.header,
        offered: this.deltaCodings,
        available: dictionary.file,
        used: delta,
        // The delta's size, for a page to set against the other codings' (the demo's).
        bytes: delta ? selection.rep.size : null,
        reason: delta ? `${selection.rep.coding}: a delta against ${dictionary.file}` : dictionary.why ?? 'a coding without dictionary ranks higher',
      },
    };
  }

  // { hash, file, why } of the request's Available-Dictionary for `info`: hash null when no
  // delta can be made (why says why), file the path of the dictionary the server holds.
  async explainDictionary(info, headers) {
    const status = dictionaryStatus(info.dictionaryRule, this.secure, headers, info.base.extraHeaders);
    if (status.hash === null) return { hash: null, file: null, why: status.why };
    const held = await this.dictionaries.find(info.dictionaryRule, status.hash);
    if (held === null) return { hash: null, file: null, why: 'the server holds no dictionary with that hash for this path' };
    return { hash: status.hash, file: held.kind === 'previous' ? `${held.rel} as it was before it changed` : held.rel, why: null };
  }

  // selection: settled. A descriptor, or a promise of one when a body has to be opened.
  present(isHead, selection, info, headers) {
    // Every answer about the file varies as its representations do (info.base.vary: with
    // Available-Dictionary where a dictionary rule covers it), so a cache never hands one
    // client's 406 or 503 to a client with another dictionary.
    if (selection.kind === 'none') return notAcceptable(this.offer(info).offered, isHead, info.base.vary);
    if (selection.kind === 'busy') return textResponse(503, 'all compression slots are busy, retry\n', isHead, { 'retry-after': '1', 'vary': info.base.vary });
    const rep = selection.rep;
    const precondition = evaluatePreconditions(headers, rep);
    if (precondition === NOT_MODIFIED) return rep.notModified;
    if (precondition === PRECONDITION_FAILED) return preconditionFailed(rep, isHead);
    const rangeHeader = headers.range;
    if (rangeHeader !== undefined && rep.rangeable && ifRangeAllows(headers['if-range'], rep)) {
      const range = parseRange(rangeHeader, rep.size);
      if (range === UNSATISFIABLE) {
        return textResponse(416, 'range not satisfiable\n', isHead, {
          'content-range': `bytes */${rep.size}`, 'etag': rep.etag, 'vary': rep.vary,
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

  // Resolves once what the cache folder is being given is written (never rejects).
  close() {
    this.dictionaries.close();
    this.store.close();
    return Promise.all([this.dictionaries.flushed(), this.deltas.close()]);
  }

  errorResponse(err, isHead) {
    if (err instanceof RequestError) {
      this.log.debug(`${err.status} ${err.code}: ${err.message}`);
      return textResponse(err.status, `${err.message}\n`, isHead, undefined, err.code);
    }
    // Still changing after RESTARTS fresh looks: a transient state of the disk, not a fault.
    if (err.code === CODES.ERR_FILE_CHANGED) return textResponse(503, 'file is changing, retry\n', isHead, { 'retry-after': '1' });
    this.log.error(`internal error: ${err.stack || err}`);
    return textResponse(500, 'internal server error\n', isHead);
  }

  get stats() {
    return {
      requests: this.requests,
      streamingCompressions: this.compressionBudget.inUse('stream'),
      compressionSlots: this.compressionBudget.stats,
      compressCache: { ...this.cache.stats },
      dictionaries: this.dictionaries.size,
      deltaBudget: this.deltas.budget.stats,
      retiredDictionaries: this.dictionaries.retired.size,
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
    'etag': rep.etag, 'last-modified': rep.lastModified, 'vary': rep.vary,
  });
}

function notAcceptable(offered, isHead, vary) {
  return textResponse(406, `not acceptable; available content-codings: ${offered.join(', ')}\n`, isHead, { 'vary': vary });
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

// reason: a RequestError's code, for the metrics' count of refusals.
function textResponse(status, text, isHead, extra, reason = null) {
  const body = Buffer.from(text);
  const headers = { 'content-type': TEXT, 'content-length': String(body.length), ...extra };
  return response(status, headers, isHead ? null : body, null, reason);
}

module.exports = { Core };
