'use strict';
// The zstd-napi backend of the zstd engine (zstd.js picks it where node:zlib has no zstd).
// zstd-napi's API (buffer and stream alike) compresses synchronously on the calling thread, so
// all zstd work is shipped to a small, lazily started pool of worker threads (zstd-worker.js);
// the event loop only copies bytes.

const os = require('node:os');
const path = require('node:path');
const { Transform } = require('node:stream');
const { Worker } = require('node:worker_threads');
const { ERR_ZSTD_WORKER, revive } = require('../errors');

const WORKER_FILE = path.join(__dirname, 'zstd-worker.js');
const ZSTD_POOL_SIZE = Math.max(1, Math.min(os.availableParallelism(), 4));

let nextRequestId = 1;
let nextSessionId = 1;

/** One worker thread plus the promises waiting for its replies. */
class ZstdWorker {
  constructor(onGone) {
    this.pending = new Map();
    this.alive = true;
    this.worker = new Worker(WORKER_FILE);
    // Idle workers must not keep the process alive; busy ones must (see request()).
    this.worker.unref();
    this.worker.on('message', (msg) => this.settle(msg));
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => {
      this.fail(new Error(`zstd worker exited with code ${code}`));
      onGone(this);
    });
  }

  get load() {
    return this.pending.size;
  }

  /** Sends one request and resolves with the worker's output Buffer. */
  request(msg, input) {
    if (!this.alive) return Promise.reject(workerError(new Error('zstd worker is gone')));
    const id = nextRequestId++;
    const transfer = [];
    if (input) {
      // A private copy: the caller keeps its Buffer, and only this copy's memory is transferred.
      msg.input = new Uint8Array(input);
      transfer.push(msg.input.buffer);
    }
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...msg, id }, transfer);
    });
  }

  /** Fire-and-forget message (no reply expected). */
  post(msg) {
    if (this.alive) this.worker.postMessage(msg);
  }

  settle({ id, output, error }) {
    const waiter = this.pending.get(id);
    if (!waiter) return;
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
    if (error) waiter.reject(revive(error));
    else waiter.resolve(Buffer.from(output.buffer, output.byteOffset, output.byteLength));
  }

  fail(err) {
    this.alive = false;
    const waiters = [...this.pending.values()];
    this.pending.clear();
    for (const { reject } of waiters) reject(workerError(err));
  }
}

function workerError(cause) {
  return ERR_ZSTD_WORKER({ cause });
}

const workers = new Set();

/** Least loaded live worker, starting another one while all are busy and the pool has room. */
function pickWorker() {
  let best = null;
  for (const w of workers) if (w.alive && (!best || w.load < best.load)) best = w;
  if ((!best || best.load > 0) && workers.size < ZSTD_POOL_SIZE) {
    best = new ZstdWorker((gone) => workers.delete(gone));
    workers.add(best);
  }
  return best;
}

/**
 * Streaming zstd compressor: a Transform whose frames are produced by one pinned
 * worker. destroy() tells the worker to drop the session so its context is reused.
 */
class ZstdCompressStream extends Transform {
  constructor(level) {
    super();
    this.level = level;
    this.session = nextSessionId++;
    this.worker = pickWorker();
    this.finished = false;
  }

  _transform(chunk, _encoding, callback) {
    this.forward('write', chunk, callback);
  }

  _flush(callback) {
    this.forward('end', null, (err) => {
      this.finished = !err;
      callback(err);
    });
  }

  forward(op, chunk, callback) {
    this.worker.request({ op, session: this.session, level: this.level }, chunk).then(
      (output) => {
        if (this.destroyed) return;
        if (output.length > 0) this.push(output);
        callback();
      },
      (err) => {
        if (!this.destroyed) callback(err);
      },
    );
  }

  _destroy(err, callback) {
    if (!this.finished) this.worker.post({ op: 'free', session: this.session });
    callback(err);
  }
}

/**
 * @returns {import('./codings').CodingEngine} the zstd engine on zstd-napi; settings are `{ level }`.
 * @throws when zstd-napi cannot be loaded (an optional peer: the user adds it where node:zlib has no zstd).
 */
function createNapiZstdEngine() {
  // Fail at engine creation, not on the first request, when the addon cannot load.
  require('zstd-napi');
  return {
    compress: (input, { level }) => pickWorker().request({ op: 'compress', level }, input),
    createCompressStream: ({ level }) => new ZstdCompressStream(level),
    decompress: (input, maxOutputLength) => pickWorker().request({ op: 'decompress', maxOutputLength }, input),
    // The dictionary is copied to the worker with the message (structured clone).
    compressWithDictionary: (input, dictionary, { level }) => pickWorker().request({ op: 'compress-dict', level, dictionary }, input),
    decompressWithDictionary: (input, dictionary, maxOutputLength) => pickWorker().request({ op: 'decompress-dict', dictionary, maxOutputLength }, input),
  };
}

module.exports = { createNapiZstdEngine, ZSTD_POOL_SIZE };
