'use strict';
// NSS's certutil (Debian libnss3-tools), which `negotiate-h2 trust` drives: tests that need it
// skip with this reason when it is missing.
const { execFileSync } = require('node:child_process');

function certutilSkipReason() {
  try {
    execFileSync('certutil', ['-H'], { stdio: 'ignore' });
  } catch (err) {
    if (err.code === 'ENOENT') return 'certutil not found: apt-get install libnss3-tools';
  }
  return null;
}

module.exports = { certutilSkipReason };
