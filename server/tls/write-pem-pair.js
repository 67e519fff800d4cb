'use strict';
// A certificate and its key as PEM files, through the server's one atomic writer
// (files/write-file-atomic.js), so a concurrent start never reads half of either.

const { writeFileAtomic } = require('../files/write-file-atomic');

/**
 * The key, readable by its owner only, goes first: a certificate without its key would block
 * the next start.
 */
async function writePemPair({ certFile, keyFile }, { cert, key }) {
  await writeFileAtomic(keyFile, key, { mode: 0o600 });
  await writeFileAtomic(certFile, cert);
}

module.exports = { writePemPair };
