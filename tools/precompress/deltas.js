'use strict';
// precompress's dictionary step (RFC 9842): for a directory whose negotiate.config.json has
// dictionary rules, the deltas the server makes ahead of time (each rule's newest files against
// the dictionaries before them, dcb and dcz) are made now, into the server's cache folder for
// that directory, never into it: the first visitor after a deploy gets a delta made already.
// The server's own core makes them, so they are exactly the ones it looks for.

const { normalizeOptions } = require('../../server/config/options');
const { createCore } = require('../../server/site/create-core');
const { Logger } = require('../../server/log/logger');

/**
 * Resolves with the number of deltas in the cache folder for `dir`'s dictionary rules, or null
 * when it has none; what goes wrong is said on stderr.
 */
async function precompressDeltas(dir, { cacheDir }) {
  const options = normalizeOptions({ root: dir, cacheDir });
  if (options.dictionaries.length === 0) return null;
  const log = new Logger({ level: 'warn', fd: 2 });
  const core = createCore(options, log);
  try {
    return await core.deltasAhead;
  } finally {
    await core.close();
    await log.drain();
  }
}

module.exports = { precompressDeltas };
