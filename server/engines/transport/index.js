'use strict';
// Which transport carries the native engine's TLS connections (--transport): 'c', the C
// transport (native/transport/, Linux, an addon built with the package), or 'node', node:tls.
// 'c' falls back to 'node' where the addon cannot be loaded, said in one line naming the fix.

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

/** The transport that can run `transport` ('c' or 'node'); said on `log` (null: said elsewhere). */
function transportFor(transport, log) {
  if (transport !== 'c') return transport;
  if (process.platform === 'linux' && addonProblem() === null) {
    log?.info('TLS connections on the C transport (--transport c)');
    return 'c';
  }
  const why = process.platform === 'linux' ? problem : `not on ${process.platform}: Linux only`;
  log?.warn(`the C transport cannot be loaded (${why}): TLS on node:tls; to fix it run: npm rebuild negotiate-h2`);
  return 'node';
}

module.exports = { transportFor };
