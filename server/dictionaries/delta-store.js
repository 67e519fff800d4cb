'use strict';
// Dictionary deltas (RFC 9842 dcb, dcz) kept in the root's variant-cache folder
// (files/variant-cache.js), so that a restart, or the deltas made ahead of time (delta-maker.js), find
// them made: each named by a hash of its source's real path and stat fields, as the other
// cached variants are (a changed source looks under a new name), followed by the dictionary's
// SHA-256 and the coding with its settings, as its ETag names them
// (`<name>.<sha-256 hex>.dcb5w22`), and written through a temporary file and a rename, within
// --cache-bytes (files/cache-bound.js). A delta read back is only a candidate until it was checked
// once: delta-maker.js decodes it with the dictionary and compares it with the source,
// then trusts it (trust()) for as long as the file holds those bytes, so a kept delta is not
// decoded again at every use; a delta this process made is trusted as it is written.

const crypto = require('node:crypto');
const path = require('node:path');
const { cachedPath, readOurs, prepareCacheDir, writeCached, MAX_SOURCE_BYTES } = require('../files/variant-cache');
const { CacheBound } = require('../files/cache-bound');

// Deltas trusted at once: past it the least recently trusted is checked again when next read.
const MAX_TRUSTED = 4096;

/** Where the delta of the file `info` (a FileInfo) in a coding and settings (`tag`, "dcb5w22") against the dictionary `hex` is kept in `dir`. */
const deltaPath = (dir, info, tag, hex) => cachedPath(dir, info.real, info.stat, `.${hex}.${tag}`);

/** The bytes at `file` when it is a regular file of ours no larger than a source may be, else null. */
const readDelta = async (file) => (await readOurs(file, MAX_SOURCE_BYTES))?.bytes ?? null;

/** Keeps `bytes` at `file`, making its folder when needed. */
async function writeDelta(file, bytes) {
  await prepareCacheDir(path.dirname(file));
  await writeCached(file, bytes);
}

const digest = (bytes) => crypto.createHash('sha256').update(bytes).digest('base64');

class DeltaStore {
  /**
   * @param {string|null} dir the root's cache folder; null: nothing is kept
   * @param {number} maxBytes --cache-bytes, the folder's limit
   */
  constructor(dir, maxBytes) {
    this.dir = dir;
    this.bound = dir === null ? null : new CacheBound(dir, maxBytes);
    // file → SHA-256 of the bytes made or checked there, least recently trusted first.
    this.trusted = new Map();
  }

  /** Where the delta (see deltaPath) is kept, or null when nothing is. */
  path(info, tag, hex) {
    return this.dir === null ? null : deltaPath(this.dir, info, tag, hex);
  }

  /** { bytes, trusted } of the delta kept at `file`, or null; trusted when made or checked here. */
  async read(file) {
    const bytes = await readDelta(file);
    return bytes === null ? null : { bytes, trusted: this.trusted.get(file) === digest(bytes) };
  }

  /** Notes that `bytes`, at `file`, were made or checked against their source and dictionary. */
  trust(file, bytes) {
    this.trusted.delete(file);
    this.trusted.set(file, digest(bytes));
    if (this.trusted.size > MAX_TRUSTED) this.trusted.delete(this.trusted.keys().next().value);
  }

  /** Keeps `bytes`, made here, at `file` when the folder has room for them (false if not). */
  async write(file, bytes) {
    this.trust(file, bytes);
    if (!await this.bound.reserve(bytes.length)) return false;
    await writeDelta(file, bytes);
    return true;
  }
}

module.exports = { DeltaStore, deltaPath };
