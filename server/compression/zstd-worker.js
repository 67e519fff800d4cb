'use strict';
// Worker-thread side of the zstd-napi backend (zstd-napi.js). zstd-napi only exposes synchronous
// (de)compression, which must never run on the server's event loop, so every
// zstd call happens here. Protocol (one reply per request, matched by id):
//   { id, op: 'compress', level, input }        -> { id, output }
//   { id, op: 'decompress', input, maxOutputLength } -> { id, output }
//   { id, op: 'compress-dict', level, input, dictionary }         -> { id, output }
//   { id, op: 'decompress-dict', input, dictionary, maxOutputLength } -> { id, output }
//   { id, op: 'write', session, level, input }  -> { id, output }  (opens the session on first use)
//   { id, op: 'end', session, level }           -> { id, output }  (closes the session)
//   { op: 'free', session }                     -> no reply         (abandons the session)
// Errors come back as { id, error: { name, message, code } }.

const { parentPort } = require('node:worker_threads');
const { Compressor } = require('zstd-napi');
const binding = require('zstd-napi/binding');
const { CODES, ERR_BUFFER_TOO_LARGE, ERR_ZSTD_TRUNCATED, ERR_ZSTD_WORKER_OP } = require('../errors');
const { WINDOW_LOG_MAX, dictionaryTableLog } = require('./zstd-params');

const OUT_CHUNK = binding.cStreamOutSize();
const D_OUT_CHUNK = binding.dStreamOutSize();
// Contexts hold several MiB of tables at high levels; reusing a few avoids
// reallocating them for every streamed response.
const MAX_IDLE_CONTEXTS = 4;

const compressor = new Compressor();
const dctx = new binding.DCtx();
dctx.setParameter(binding.DParameter.windowLogMax, WINDOW_LOG_MAX);
// Contexts of the dictionary codings (RFC 9842 dcz), apart: a loaded dictionary stays with a
// context until its parameters are reset.
const dictCctx = new binding.CCtx();
const dictDctx = new binding.DCtx();
const sessions = new Map();
const idleContexts = [];

function openSession(session, level) {
  let cctx = sessions.get(session);
  if (cctx) return cctx;
  cctx = idleContexts.pop() || new binding.CCtx();
  cctx.setParameter(binding.CParameter.compressionLevel, level);
  sessions.set(session, cctx);
  return cctx;
}

function closeSession(session) {
  const cctx = sessions.get(session);
  if (!cctx) return;
  sessions.delete(session);
  cctx.reset(binding.ResetDirective.sessionAndParameters);
  if (idleContexts.length < MAX_IDLE_CONTEXTS) idleContexts.push(cctx);
}

/** Feeds `input` through a streaming context and returns everything it produced. */
function streamStep(cctx, input, endOp) {
  const parts = [];
  let src = input;
  for (;;) {
    const dst = Buffer.allocUnsafe(OUT_CHUNK);
    const [remaining, produced, consumed] = cctx.compressStream2(dst, src, endOp);
    if (produced > 0) parts.push(dst.subarray(0, produced));
    src = src.subarray(consumed);
    const drained = endOp === binding.EndDirective.continue ? produced < dst.length : remaining === 0;
    if (src.length === 0 && drained) break;
  }
  return Buffer.concat(parts);
}

/**
 * Decodes every frame of `input` one output chunk at a time (never by the size a frame header
 * claims), stopping as soon as the output passes maxOutputLength (see CodingEngine in codings.js).
 */
function decompress(input, maxOutputLength = Infinity, ctx = dctx) {
  ctx.reset(binding.ResetDirective.sessionOnly);
  const parts = [];
  let total = 0;
  let src = input;
  // decompressStream returns 0 on the call that ends a frame (a call without progress after it
  // would begin the next one).
  let frameEnded = true;
  for (;;) {
    const dst = Buffer.allocUnsafe(D_OUT_CHUNK);
    const [remaining, produced, consumed] = ctx.decompressStream(dst, src);
    total += produced;
    if (total > maxOutputLength) throw ERR_BUFFER_TOO_LARGE({ maxOutputLength });
    if (produced > 0) parts.push(dst.subarray(0, produced));
    if (produced > 0 || consumed > 0) frameEnded = remaining === 0;
    src = src.subarray(consumed);
    // A full chunk may leave decoded bytes behind; a short one with no input left means done.
    if (src.length === 0 && produced < dst.length) {
      if (!frameEnded) throw ERR_ZSTD_TRUNCATED();
      return Buffer.concat(parts);
    }
  }
}

// A zstd frame of `input` with `dictionary` loaded as its content (the dictionaries of RFC
// 9842 are raw; dictionaries/dictionary-codings.js keeps zstd's formatted ones away). The window is capped at
// 8 MiB like the zstd coding's (RFC 9842 4.2 allows max(8 MB, 1.25 x dictionary size)); zstd
// shrinks it further to the input and dictionary sizes.
function compressWithDictionary(input, dictionary, level) {
  dictCctx.reset(binding.ResetDirective.sessionAndParameters);
  dictCctx.setParameter(binding.CParameter.compressionLevel, level);
  dictCctx.setParameter(binding.CParameter.windowLog, WINDOW_LOG_MAX);
  const log = dictionaryTableLog(level, dictionary.length, input.length);
  if (log !== null) {
    dictCctx.setParameter(binding.CParameter.hashLog, log);
    dictCctx.setParameter(binding.CParameter.chainLog, log);
  }
  dictCctx.loadDictionary(dictionary);
  const dst = Buffer.allocUnsafe(binding.compressBound(input.length));
  return dst.subarray(0, dictCctx.compress2(dst, input));
}

function decompressWithDictionary(input, dictionary, maxOutputLength) {
  dictDctx.reset(binding.ResetDirective.sessionAndParameters);
  dictDctx.setParameter(binding.DParameter.windowLogMax, WINDOW_LOG_MAX);
  dictDctx.loadDictionary(dictionary);
  return decompress(input, maxOutputLength, dictDctx);
}

function handle(msg) {
  switch (msg.op) {
    case 'compress':
      compressor.setParameters({ compressionLevel: msg.level });
      return compressor.compress(msg.input);
    case 'decompress':
      return decompress(msg.input, msg.maxOutputLength);
    case 'compress-dict':
      return compressWithDictionary(msg.input, msg.dictionary, msg.level);
    case 'decompress-dict':
      return decompressWithDictionary(msg.input, msg.dictionary, msg.maxOutputLength);
    case 'write':
      return streamStep(openSession(msg.session, msg.level), msg.input, binding.EndDirective.continue);
    case 'end': {
      const output = streamStep(openSession(msg.session, msg.level), Buffer.alloc(0), binding.EndDirective.end);
      closeSession(msg.session);
      return output;
    }
    default:
      throw ERR_ZSTD_WORKER_OP({ op: msg.op });
  }
}

/** An exactly sized view whose ArrayBuffer can be transferred: never a slice of a shared Buffer pool. */
function transferable(buf) {
  if (buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength) return buf;
  const out = new Uint8Array(buf.length);
  out.set(buf);
  return out;
}

parentPort.on('message', (msg) => {
  if (msg.op === 'free') {
    closeSession(msg.session);
    return;
  }
  try {
    const output = transferable(handle(msg));
    parentPort.postMessage({ id: msg.id, output }, [output.buffer]);
  } catch (err) {
    if (msg.session !== undefined) closeSession(msg.session);
    parentPort.postMessage({ id: msg.id, error: { name: err.name, message: err.message, code: err.code || CODES.ERR_ZSTD } });
  }
});
