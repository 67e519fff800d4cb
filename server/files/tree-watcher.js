'use strict';
// Watches a directory tree with one fs.watch (inotify) per directory. Node 20's recursive mode
// on Linux instead adds a watch per file and stats the whole tree synchronously on the event
// loop, which a server cannot afford on a large site. Dot directories are not entered. Names
// are reported relative to the root; a new directory is reported once by its own name (its
// files, possibly written before its watch existed, are the caller's to list) and then watched.

const fs = require('node:fs');
const path = require('node:path');
const { hasDotSegment } = require('./resolve-path');
const { isDotName } = require('../http/request-path');

// Errors that mean the directory went away, not that watching failed.
const GONE = new Set(['ENOENT', 'ENOTDIR']);

class TreeWatcher {
  /**
   * @param {string} root
   * @param {(rel: string) => void} onName a name under root that changed, appeared or went away
   * @param {(err: Error) => void} onError watching failed (e.g. ENOSPC: out of inotify watches)
   */
  constructor(root, onName, onError) {
    Object.assign(this, { root, onName, onError });
    this.dirs = new Map();
    this.closed = false;
    this.watchDir('');
  }

  async watchDir(rel) {
    if (this.closed || this.dirs.has(rel)) return;
    const full = path.join(this.root, rel);
    let watcher;
    try {
      watcher = fs.watch(full, (event, name) => {
        if (name !== null) this.changed(path.join(rel, String(name)));
      });
    } catch (err) {
      if (!GONE.has(err.code)) this.onError(err);
      return;
    }
    watcher.on('error', (err) => {
      this.unwatch(rel);
      if (!GONE.has(err.code)) this.onError(err);
    });
    this.dirs.set(rel, watcher);
    let entries;
    try {
      entries = await fs.promises.readdir(full, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.isDirectory() && !isDotName(entry.name)) this.watchDir(path.join(rel, entry.name));
    }
  }

  changed(rel) {
    if (this.closed || hasDotSegment(rel)) return;
    this.onName(rel);
    fs.lstat(path.join(this.root, rel), (err, stat) => {
      if (err) this.unwatch(rel);
      else if (stat.isDirectory()) this.watchDir(rel);
    });
  }

  // Stops watching `rel` and every directory under it.
  unwatch(rel) {
    for (const [dir, watcher] of this.dirs) {
      if (dir === rel || dir.startsWith(rel + path.sep)) {
        watcher.close();
        this.dirs.delete(dir);
      }
    }
  }

  close() {
    this.closed = true;
    for (const watcher of this.dirs.values()) watcher.close();
    this.dirs.clear();
  }
}

module.exports = { TreeWatcher };
