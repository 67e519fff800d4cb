'use strict';
// Tells the file store which cached entries a change on disk may have made stale, so an entry
// whose names are all watched can be served without a stat per request. One fs.watch (inotify)
// per directory that holds a watched name, shared by the entries under it and closed with the
// last of them; at most `maxDirs` at once. An entry depends on names (directory, name): the
// file and its variants in their directory, and each directory on the way from the root named
// in its parent, so replacing a directory (by another, by a symlink) reaches every entry
// below it.
//
// Order matters because inotify reports only what happens after a watch exists: a check that
// starts before one of its directories is watched could have read the disk before a change that
// no event will ever report. So every watch and every event takes a tick of one counter, and an
// entry is trusted only when its check started after each of its watches was made and after
// the last event that concerned it (see track).

const fs = require('node:fs');
const path = require('node:path');

// After a watch could not be made for a reason other than the directory being gone (ENOSPC:
// out of inotify watches, EMFILE, a file system without inotify), no new one is tried for this
// long: each attempt is a synchronous syscall on the request path.
const RETRY_MS = 5000;
// A directory whose names change faster than this many events a second (a build writing
// thousands of files, a hostile local process renaming in a loop) would cost the event loop
// more than the stats it saves: its watch is closed, its entries are checked per request, and
// it is not watched again for COOL_MS. Closing the watch stops the kernel queuing its events.
const HOT_EVENTS = 2000;
const HOT_WINDOW_MS = 1000;
const COOL_MS = 5000;
const GONE = new Set(['ENOENT', 'ENOTDIR']);

class NameWatch {
  /**
   * @param {object} options
   * @param {number} options.maxDirs most directories watched at once
   * @param {(entry: object) => void} options.onStale an entry may be stale (it is untracked)
   * @param {(err: Error) => void} options.onError watching failed; the entries concerned fall back
   * @param {Function} [options.watch] fs.watch, or a stand-in for tests
   * @param {() => number} [options.now] milliseconds, performance.now or a stand-in for tests
   */
  constructor({ maxDirs, onStale, onError, watch = fs.watch, now = () => performance.now() }) {
    Object.assign(this, { maxDirs, onStale, onError, watch, now });
    this.clock = 0;
    this.dirs = new Map(); // dir → { watcher, since, refs, names: Map<name, Set<entry>>, events, windowStart }
    this.cooling = new Map(); // dir → when it may be watched again (hot directories)
    this.pausedUntil = 0;
    this.closed = false;
  }

  // The current tick: take it when a check of the disk starts.
  tick() {
    return ++this.clock;
  }

  /**
   * Watches `names` ([[dir, name]], the same for an entry every time: see namesFor) for
   * `entry`. True when the entry's check that started at tick `since` can be trusted until an
   * event: its names were watched before then and no event concerned it since. False when a
   * directory could not be watched (the entry is then checked per request) or the watch is new.
   */
  track(entry, names, since) {
    if (entry.watched) return entry.trackedSince < since && entry.staleAt < since;
    const records = [];
    for (const dir of new Set(names.map(([d]) => d))) {
      const record = this.dirs.get(dir) ?? this.open(dir);
      if (record === null) {
        for (const r of records) this.release(r);
        return false;
      }
      record.refs++;
      records.push(record);
    }
    entry.watched = names.map(([dir, name]) => {
      const record = this.dirs.get(dir);
      let set = record.names.get(name);
      if (set === undefined) record.names.set(name, set = new Set());
      set.add(entry);
      return [record, name];
    });
    entry.watchedDirs = records;
    entry.trackedSince = this.tick();
    entry.staleAt = 0;
    return false;
  }

  untrack(entry) {
    if (!entry.watched) return;
    for (const [record, name] of entry.watched) {
      const set = record.names.get(name);
      set.delete(entry);
      if (set.size === 0) record.names.delete(name);
    }
    for (const record of entry.watchedDirs) this.release(record);
    entry.watched = null;
    entry.watchedDirs = null;
  }

  open(dir) {
    const now = this.now();
    if (this.closed || this.dirs.size >= this.maxDirs || now < this.pausedUntil) return null;
    const until = this.cooling.get(dir);
    if (until !== undefined) {
      if (now < until) return null;
      this.cooling.delete(dir);
    }
    let watcher;
    try {
      watcher = this.watch(dir, { persistent: false }, (event, name) => this.changed(dir, name));
    } catch (err) {
      if (!GONE.has(err.code)) this.failed(err);
      return null;
    }
    const record = { dir, watcher, since: this.tick(), refs: 0, names: new Map(), events: 0, windowStart: now };
    watcher.on('error', (err) => {
      this.drop(record);
      if (!GONE.has(err.code)) this.failed(err);
    });
    this.dirs.set(dir, record);
    return record;
  }

  failed(err) {
    this.pausedUntil = this.now() + RETRY_MS;
    this.onError(err);
  }

  // An event for `name` in `dir`; null (the name is unknown) concerns every entry there.
  changed(dir, name) {
    const record = this.dirs.get(dir);
    if (record === undefined) return;
    if (++record.events > HOT_EVENTS && this.tooHot(record)) return;
    name = name === null || name === undefined ? null : String(name);
    // The watched directory itself moved or went (libuv names it by its own basename; a child
    // of the same name is taken for it too, which only costs a check).
    if (name === null || name === path.basename(dir)) {
      this.drop(record);
      return;
    }
    // A watched directory replaced or renamed: its watch follows the old inode, so it goes too.
    const sub = this.dirs.get(path.join(dir, name));
    if (sub !== undefined) this.drop(sub);
    const set = record.names.get(name);
    if (set === undefined) return;
    // The entries stay watched, so an event during their next check is not missed.
    const now = this.tick();
    for (const entry of set) {
      entry.staleAt = now;
      this.onStale(entry);
    }
  }

  // Whether `record` passed HOT_EVENTS within HOT_WINDOW_MS, in which case its watch is closed
  // for COOL_MS; otherwise a new window starts.
  tooHot(record) {
    const now = this.now();
    if (now - record.windowStart >= HOT_WINDOW_MS) {
      record.windowStart = now;
      record.events = 1;
      return false;
    }
    // Bounded like the watches: a directory cools only after it was watched.
    if (this.cooling.size >= this.maxDirs) this.cooling.clear();
    this.cooling.set(record.dir, now + COOL_MS);
    this.drop(record);
    return true;
  }

  // Closes a watch; every entry that relied on it is stale and unwatched until its next check.
  drop(record) {
    if (this.dirs.get(record.dir) !== record) return;
    this.dirs.delete(record.dir);
    record.watcher.close();
    const now = this.tick();
    for (const set of [...record.names.values()]) {
      for (const entry of [...set]) {
        entry.staleAt = now;
        this.untrack(entry);
        this.onStale(entry);
      }
    }
  }

  release(record) {
    record.refs--;
    if (record.refs === 0 && this.dirs.get(record.dir) === record) {
      this.dirs.delete(record.dir);
      record.watcher.close();
    }
  }

  get size() {
    return this.dirs.size;
  }

  close() {
    this.closed = true;
    for (const record of this.dirs.values()) record.watcher.close();
    this.dirs.clear();
  }
}

// The names the entry for `rel` depends on, or null when its `real` path is not `rootReal` +
// `rel` (a symlink on the way: its target's names are not ours to follow, so such an entry is
// checked per request). `extensions` are the variants' suffixes, watched beside the last name
// whether it is a file or a directory, so the names of a `rel` never change.
function namesFor(rootReal, rel, real, extensions) {
  if (real !== (rel === '/' ? rootReal : rootReal + rel)) return null;
  const names = [];
  let dir = rootReal;
  const parts = rel.split('/').filter(Boolean);
  parts.forEach((part, i) => {
    names.push([dir, part]);
    if (i === parts.length - 1) for (const ext of extensions) names.push([dir, part + ext]);
    dir = `${dir}/${part}`;
  });
  return names;
}

module.exports = { NameWatch, namesFor, HOT_EVENTS, COOL_MS };
