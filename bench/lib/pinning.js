'use strict';
// CPU pinning with taskset, so a server and its load generator do not steal
// each other's core. Pinning is skipped (and says so) with fewer than two CPUs
// or without taskset; affinity is inherited, so forked workers stay pinned too.
const os = require('node:os');
const { findOnPath } = require('./find-on-path');

// { enabled, reason, wrap(core, cmd, args) -> [cmd, args] }
function createPinning({ cpus = os.availableParallelism(), hasTaskset = findOnPath('taskset') !== null } = {}) {
  let reason = null;
  if (!hasTaskset) reason = 'taskset not found (Debian package util-linux)';
  else if (cpus < 2) reason = `only ${cpus} CPU available`;
  const enabled = reason === null;
  return {
    enabled,
    reason,
    wrap(core, cmd, args) {
      return enabled ? ['taskset', ['-c', String(core), cmd, ...args]] : [cmd, args];
    },
  };
}

module.exports = { createPinning };
