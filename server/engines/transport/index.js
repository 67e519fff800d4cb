'use strict';
// Which transport carries the native engine's TLS connections (--transport): 'c', the C
// transport (native/transport/, Linux, an addon the package ships prebuilt), or 'node', node:tls.
// 'auto' (the default) is 'c' where the addon loads and 'node' elsewhere; which one runs is said in
// one info line. An explicit 'c' that falls back to 'node' is a warning naming the fix.

const { loadFailure } = require('../../errors');

let problem;

function addonProblem() {
  if (problem === undefined) {
    try {
      require('../../../native/transport');
      problem = null;
    } catch (err) {
      problem = loadFailure(err);
    }
  }
  return problem;
}

/** The transport that runs for `transport` ('auto', 'c' or 'node'): 'c' or 'node'; said on `log` (null: said elsewhere). */
function transportFor(transport, log) {
  if (transport === 'node') return 'node';
  if (process.platform === 'linux' && addonProblem() === null) {
    log?.info(`TLS connections on the C transport (--transport ${transport})`);
    return 'c';
  }
  const why = process.platform === 'linux' ? problem : `not on ${process.platform}: Linux only`;
  if (transport === 'auto') log?.info(`TLS connections on node:tls (the C transport cannot be loaded: ${why})`);
  else log?.warn(`the C transport cannot be loaded (${why}): TLS on node:tls; to fix it run: npm rebuild negotiate-h2`);
  return 'node';
}

module.exports = { transportFor };
