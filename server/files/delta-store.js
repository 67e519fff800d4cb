'use strict';
// Dictionary deltas (RFC 9842 dcb, dcz) kept in the root's variant-cache folder
// (variant-cache.js), so that a restart, or the background pass of dictionary-index.js, finds
// them made: each named by a hash of its source's real path and stat fields, as the other
// cached variants are (a changed source looks under a new name), followed by the dictionary's
// SHA-256 and the coding with its settings, as its ETag names them
// (`<name>.<sha-256 hex>.dcb5w22`), and written through a temporary file and a rename. A delta read back is only a candidate: the decision decodes it with the
// dictionary and compares it with the source before serving it (core.js).

const path = require('node:path');
const { cachedPath, readOurs, prepareCacheDir, writeCached, MAX_SOURCE_BYTES } = require('./variant-cache');

/** Where the delta of the file `info` (a FileInfo) in a coding and settings (`tag`, "dcb5w22") against the dictionary `hex` is kept in `dir`. */
const deltaPath = (dir, info, tag, hex) => cachedPath(dir, info.real, info.stat, `.${hex}.${tag}`);

/** The bytes at `file` when it is a regular file of ours no larger than a source may be, else null. */
const readDelta = async (file) => (await readOurs(file, MAX_SOURCE_BYTES))?.bytes ?? null;

/** Keeps `bytes` at `file`, making its folder when needed. */
async function writeDelta(file, bytes) {
  await prepareCacheDir(path.dirname(file));
  await writeCached(file, bytes);
}

module.exports = { deltaPath, readDelta, writeDelta };
