'use strict';
// The HPACK codec of the native engine's HTTP/2 (server/engines/h2), from the C addon in native/:
// the one place server/ loads the codec (the addon's other use, dcb's Brotli binding, is loaded
// by dictionaries/dictionary-codings.js for a site with dictionary rules only; releaseFreeMemory
// serves every engine where it loads). Only that engine
// needs it: a package installed with neither a loadable prebuild nor a local compile still
// serves, on Node's engine (engineFor).

const { loadFailure } = require('../errors');

let problem;

/** The addon's HPACK classes; throws when it cannot be loaded. */
function hpack() {
  return require('../../native');
}

/** null when the addon loads, else why not (the error's first line). */
function addonProblem() {
  if (problem === undefined) {
    try {
      hpack();
      problem = null;
    } catch (err) {
      problem = loadFailure(err);
    }
  }
  return problem;
}

/**
 * The engine that can serve `engine` ('native' or 'node'): 'node' when the native one's addon
 * cannot be loaded, which is said on `log` (null: said elsewhere) in one line naming the fix.
 */
function engineFor(engine, log) {
  if (engine !== 'native' || addonProblem() === null) return engine;
  log?.warn(`the native engine's HPACK addon cannot be loaded (${problem}): serving with --engine node; to fix it run: npm rebuild negotiate-h2`);
  return 'node';
}

/** Gives the C library's free memory back (glibc's malloc_trim); false when the addon is not loaded. */
function releaseFreeMemory() {
  return addonProblem() === null && hpack().releaseFreeMemory();
}

module.exports = { hpack, engineFor, releaseFreeMemory };
