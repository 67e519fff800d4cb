'use strict';
// The core of `npm run bench:dictionary`: one release pair (the older release as the dictionary,
// the newer one as the file) in every coding a browser could get it in, with the server's own
// engines at their on-the-fly settings (createEngines' dynamic levels: br quality 5, zstd 3,
// gzip 6; dcb and dcz at br's and zstd's levels, as the server makes them, see
// server/dictionaries/dictionary-codings.js).
//
// Times are CPU time of this process (process.cpuUsage: user + system, which counts the libuv
// pool and zstd's worker threads doing the work), one operation at a time, `repetitions` times,
// after one round that is not counted, summarized as median, min and max: CPU time moves less
// than wall time on a shared machine.
// Every body is decoded and compared with the input each time, so a figure is never that of a
// wrong body.
const { summarize } = require('../lib/stats');
const { createEngines } = require('../../server/compression/codings');
const { createDictionaryEngines, sha256 } = require('../../server/dictionaries/dictionary-codings');

/** Every coding measured, in the order of the table. */
const CODINGS = Object.freeze(['identity', 'gzip', 'br', 'zstd', 'dcb', 'dcz']);
const PLAIN = ['gzip', 'br', 'zstd'];

const cpuMs = (since) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};

async function timed(fn) {
  const start = process.cpuUsage();
  const result = await fn();
  return { result, ms: cpuMs(start) };
}

/** The server's engines, as `measurePair` takes them. */
function benchEngines() {
  const engines = createEngines();
  const deltas = createDictionaryEngines(engines);
  return {
    engines,
    deltas,
    // The settings each coding is measured at, for the report.
    settings: {
      gzip: engines.settingsFor('gzip', 'dynamic'),
      br: engines.settingsFor('br', 'dynamic'),
      zstd: engines.settingsFor('zstd', 'dynamic'),
      dcb: deltas.available.includes('dcb') ? deltas.settingsTag('dcb') : null,
      dcz: deltas.available.includes('dcz') ? deltas.settingsTag('dcz') : null,
    },
  };
}

// compress(input) and decompress(body) of `coding`, or null when this runtime cannot make it.
function codec({ engines, deltas }, coding, dictionary) {
  if (PLAIN.includes(coding)) {
    if (!engines.available.includes(coding)) return null;
    return { compress: (input) => engines.compress(coding, input), decompress: (body) => engines.decompress(coding, body) };
  }
  if (!deltas.available.includes(coding) || !deltas.accepts(coding, dictionary)) return null;
  const hash = sha256(dictionary);
  return {
    compress: (input) => deltas.compress(coding, input, dictionary, hash),
    decompress: (body) => deltas.decompress(coding, body, dictionary),
  };
}

/**
 * { bytes, compressMs, decompressMs } per coding of `input` against `dictionary` (null for a
 * coding this runtime cannot make; identity has bytes only), times as { median, min, max, n }.
 * Throws ERR_BENCH_ROUNDTRIP when a body does not decode back to `input`.
 */
async function measurePair(bench, { dictionary, input, repetitions = 5 }) {
  const codings = { identity: { bytes: input.length, compressMs: null, decompressMs: null } };
  for (const coding of CODINGS.slice(1)) {
    const c = codec(bench, coding, dictionary);
    if (c === null) {
      codings[coding] = null;
      continue;
    }
    const compressMs = [];
    const decompressMs = [];
    let bytes = null;
    // One round more than measured: the first (not counted) starts zstd's worker and warms up.
    for (let i = -1; i < repetitions; i++) {
      const made = await timed(() => c.compress(input));
      const back = await timed(() => c.decompress(made.result));
      if (!back.result.equals(input)) throw Object.assign(new Error(`${coding} did not decode back to its input`), { code: 'ERR_BENCH_ROUNDTRIP' });
      bytes = made.result.length;
      if (i < 0) continue;
      compressMs.push(made.ms);
      decompressMs.push(back.ms);
    }
    codings[coding] = { bytes, compressMs: summarize(compressMs), decompressMs: summarize(decompressMs) };
  }
  return codings;
}

module.exports = { CODINGS, benchEngines, measurePair };
