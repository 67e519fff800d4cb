'use strict';
// The record of the variants `npm run precompress` wrote, so it never overwrites or deletes a
// file someone else made under a variant's name. Kept as a dotfile in the served root: the
// server never serves dotfiles and the walk skips them. A variant is the tool's own while its
// lstat still shows the inode, size and mtime the tool left it with; any change since (an edit,
// a copy, a replacement) makes it the user's again.

const fs = require('node:fs/promises');
const path = require('node:path');
const { randomBytes } = require('node:crypto');

const MANIFEST_NAME = '.negotiate-precompress.json';
const FORMAT = 'negotiate-precompress/1';

const identity = (stat) => ({ ino: String(stat.ino), size: String(stat.size), mtimeNs: String(stat.mtimeNs) });

class Manifest {
  /**
   * @param {string} dir the root the paths are relative to
   * @param {Record<string, {ino: string, size: string, mtimeNs: string}>} variants
   */
  constructor(dir, variants) {
    this.file = path.join(dir, MANIFEST_NAME);
    this.dir = dir;
    this.variants = new Map(Object.entries(variants));
    this.changed = false;
  }

  /**
   * Reads the manifest of `dir`; none yet means the tool owns nothing there. A manifest that
   * cannot be trusted (not a regular file, not ours, corrupt) is an error rather than a guess.
   */
  static async load(dir) {
    const file = path.join(dir, MANIFEST_NAME);
    let text;
    try {
      const stat = await fs.lstat(file);
      if (!stat.isFile()) throw new Error('not a regular file');
      text = await fs.readFile(file, 'utf8');
    } catch (err) {
      if (err.code === 'ENOENT') return new Manifest(dir, {});
      throw new Error(`cannot read ${file}: ${err.message}`);
    }
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new Error(`${file} is corrupt (${err.message}); remove it, then run with --force to take over existing variants`);
    }
    if (parsed?.format !== FORMAT || typeof parsed.variants !== 'object' || parsed.variants === null) {
      throw new Error(`${file} is not a ${FORMAT} manifest; remove it, then run with --force to take over existing variants`);
    }
    return new Manifest(dir, parsed.variants);
  }

  key(file) {
    return path.relative(this.dir, file).split(path.sep).join('/');
  }

  /** Whether the file with these (bigint) lstats is one the tool wrote and nobody changed since. */
  owns(file, stat) {
    const entry = this.variants.get(this.key(file));
    if (entry === undefined || stat === null || !stat.isFile()) return false;
    const now = identity(stat);
    return entry.ino === now.ino && entry.size === now.size && entry.mtimeNs === now.mtimeNs;
  }

  record(file, stat) {
    this.variants.set(this.key(file), identity(stat));
    this.changed = true;
  }

  forget(file) {
    this.changed = this.variants.delete(this.key(file)) || this.changed;
  }

  /** Writes the manifest if anything changed: to a temporary name, then renamed into place. */
  async save() {
    if (!this.changed) return;
    const variants = Object.fromEntries([...this.variants].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const temp = path.join(this.dir, `${MANIFEST_NAME}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      await fs.writeFile(temp, `${JSON.stringify({ format: FORMAT, variants }, null, 1)}\n`, { flag: 'wx', mode: 0o644 });
      await fs.rename(temp, this.file);
    } catch (err) {
      await fs.rm(temp, { force: true });
      throw err;
    }
    this.changed = false;
  }
}

module.exports = { Manifest, MANIFEST_NAME };
