'use strict';
// Finds the files `npm run precompress` considers: regular files under a
// directory, minus dotfiles (and dot-directories) and the variants themselves.

const fs = require('node:fs/promises');
const path = require('node:path');
const { typeOfName, isVariantName, whyNotCompressible } = require('./compressibility');

/** Whether the file (by its name) is worth compressing, by the rule the server applies. */
function isCompressibleName(name) {
  return whyNotCompressible(name, typeOfName(name)) === null;
}

/**
 * Every regular file under `dir`, sorted for a stable order. Symbolic links are
 * not followed: a variant written next to a link target outside the tree would
 * surprise its owner, and links could form cycles.
 * @param {string} dir
 * @returns {Promise<string[]>} absolute paths
 */
async function listSourceFiles(dir) {
  const found = [];
  async function visit(current) {
    const entries = await fs.readdir(current, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) await visit(full);
      else if (entry.isFile() && !isVariantName(entry.name)) found.push(full);
    }
  }
  await visit(path.resolve(dir));
  return found.sort();
}

module.exports = { listSourceFiles, isCompressibleName };
