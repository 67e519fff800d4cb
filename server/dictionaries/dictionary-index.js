'use strict';
// The dictionaries the server holds (RFC 9842): for each dictionary rule (config/dictionary-rules.js),
// the SHA-256 of the files under the root its pattern matches, each naming the file it came
// from. A file is hashed once per FileInfo (its bytes in memory: files up to bufferLimit) when
// it is served, and, at start-up, when the scan of each rule's folder finds it among the rule's
// most recent files, so a returning visitor's Available-Dictionary is known before the file is
// asked for again.
//
// An entry is only a lead: find() looks the file up through the file store, which checks it
// against the disk as for a request, and hashes what it holds now, so a file that vanished or
// changed is forgotten there and then, and a stale entry can never yield a delta against other
// bytes than the client's. Each rule keeps the files its start-up scan found (at most
// MAX_PER_RULE, under their current hash: requests for other files never push them out, as the
// rule announces them to every visitor), and besides them the MAX_PER_RULE most recently noted
// hashes of other files.
//
// Only what a request could be served is a dictionary (requestable(), hidden()): a file a
// request could not name (a dot name) or the configuration file never answers for its hash,
// which would tell a client that guessed its content that it guessed right.
//
// A file rewritten in place (same path, new bytes: lib.js rebuilt) leaves its previous content
// behind as a dictionary of its rule, since the visitors who fetched it hold it: the file store
// tells retire() when it replaces a file's snapshot. These are kept in memory, the
// RETIRED_MAX_ENTRIES most recent, RETIRED_MAX_BYTES in all, for RETIRED_MAX_AGE_MS at most, and
// when the server has a cache folder, on disk within the same limits (retired-dictionaries.js),
// where load() finds them at the next start.

const fs = require('node:fs/promises');
const path = require('node:path');
const { sha256 } = require('./dictionary-codings');
const { ruleFor } = require('../config/dictionary-rules');
const { saveRetired, removeRetired, loadRetired } = require('./retired-dictionaries');
const { parseRequestPath } = require('../http/request-path');
const { RepeatedWarnings } = require('../log/repeated-warnings');

const MAX_PER_RULE = 64;
const RETIRED_MAX_ENTRIES = 64;
const RETIRED_MAX_BYTES = 32 * 1024 * 1024;
// Past a week most returning visitors' caches have moved on (and Chromium's dictionaries expire
// with their freshness).
const RETIRED_MAX_AGE_MS = 7 * 24 * 3600 * 1000;
// One content may take a quarter of the bytes at most, so that one rebuild never evicts all.
const RETIRED_MAX_ENTRY_BYTES = RETIRED_MAX_BYTES / 4;
// The deltas made ahead of time (delta-maker.js ahead()): for each rule, its AHEAD_FILES most
// recently noted files, each against the AHEAD_DICTIONARIES releases before it, the ones
// returning visitors most likely hold.
const AHEAD_FILES = 2;
const AHEAD_DICTIONARIES = 2;
// The start-up scan reads at most this many directory entries in all, so a huge tree under a
// broad pattern costs a bounded walk.
const MAX_SCAN_ENTRIES = 20_000;

class DictionaryIndex {
  // store: the FileStore; rules: compiled dictionary rules; hidden(real): files never served;
  // retiredDir: the folder that keeps previous contents across restarts, or null;
  // now(): a clock in ms, wallNow(): the time of day in ms, as file times are (tests pass their own).
  constructor({ store, rules, hidden, log, retiredDir = null, now = () => performance.now(), wallNow = Date.now }) {
    Object.assign(this, { store, rules, hidden, log, retiredDir, now, wallNow });
    // Per rule: entries, SHA-256 in base64 → path, in the order noted; scanned, the paths the
    // start-up scan found.
    this.byRule = rules.map(() => ({ entries: new Map(), scanned: new Set() }));
    // Previous contents of files rewritten in place: key → { kind: 'previous', rule, rel, bytes,
    // at }, oldest first.
    this.retired = new Map();
    this.retiredBytes = 0;
    // FileInfo → { hash, key (its base64) }, computed once per snapshot of a file.
    this.hashes = new WeakMap();
    this.closed = false;
    this.diskWarnings = new RepeatedWarnings(log);
    // The disk's writes and deletions, one at a time, in the order the memory saw them.
    this.disk = Promise.resolve();
  }

  // Stops the start-up scan.
  close() {
    this.closed = true;
  }

  get size() {
    return this.byRule.reduce((n, { entries }) => n + entries.size, 0);
  }

  // { hash, key } of a file (FileInfo) with its bytes in memory: its SHA-256 and that in base64;
  // null for a streamed one.
  digestOf(info) {
    if (info.bytes === null) return null;
    let digest = this.hashes.get(info);
    if (digest === undefined) {
      const hash = sha256(info.bytes);
      digest = { hash, key: hash.toString('base64') };
      this.hashes.set(info, digest);
    }
    return digest;
  }

  // Records `info` (a file its rule covers) as a dictionary of that rule. Per request: no
  // allocation once the file is known.
  note(info) {
    const rule = info.dictionaryRule;
    const digest = rule === null ? null : this.digestOf(info);
    if (digest === null) return;
    const { entries, scanned } = this.byRule[rule.index];
    const key = digest.key;
    if (entries.get(key) === info.rel) return;
    entries.delete(key);
    // A scanned file has one entry, its current content's.
    if (scanned.has(info.rel)) for (const [other, rel] of entries) if (rel === info.rel) entries.delete(other);
    entries.set(key, info.rel);
    if (entries.size > MAX_PER_RULE) this.dropOldestUnscanned(entries, scanned);
  }

  // Past MAX_PER_RULE entries of files the scan did not find, the oldest of them goes.
  dropOldestUnscanned(entries, scanned) {
    let others = 0;
    let oldest = null;
    for (const [key, rel] of entries) {
      if (scanned.has(rel)) continue;
      others++;
      oldest ??= key;
    }
    if (others > MAX_PER_RULE) entries.delete(oldest);
  }

  // The file store replaced the snapshot `previous` of a file by `current`: when a rule covers
  // it and its content changed, the previous content stays a dictionary of that rule.
  retire(previous, current) {
    const rule = previous.dictionaryRule;
    const old = rule === null || !this.servable(previous.rel, previous.real) ? null : this.digestOf(previous);
    if (old === null || old.hash.equals(this.digestOf(current)?.hash ?? Buffer.alloc(0))) return;
    if (previous.bytes.length > RETIRED_MAX_ENTRY_BYTES) return;
    // Rewritten on disk below, not deleted.
    this.dropRetired(old.key, false);
    this.retired.set(old.key, { kind: 'previous', rule, rel: previous.rel, bytes: previous.bytes, at: this.now() });
    this.retiredBytes += previous.bytes.length;
    this.onDisk(old.hash, (dir, hex) => saveRetired(dir, hex, previous.rel, previous.bytes));
    this.trimRetired();
  }

  // Drops the oldest previous contents past the limits.
  trimRetired() {
    for (const oldest of this.retired.keys()) {
      if (this.retired.size <= RETIRED_MAX_ENTRIES && this.retiredBytes <= RETIRED_MAX_BYTES) break;
      this.dropRetired(oldest);
    }
  }

  dropRetired(key, fromDisk = true) {
    const entry = this.retired.get(key);
    if (entry === undefined) return;
    this.retired.delete(key);
    this.retiredBytes -= entry.bytes.length;
    if (fromDisk) this.onDisk(Buffer.from(key, 'base64'), removeRetired);
  }

  // Queues op(dir, hex) on the folder of previous contents, if there is one. A failure costs
  // the persistence of that content, never a request: it is logged.
  onDisk(hash, op) {
    if (this.retiredDir === null) return;
    const hex = hash.toString('hex');
    this.disk = this.disk.then(() => op(this.retiredDir, hex)).catch((err) => {
      this.diskWarnings.warn(err.code ?? 'disk', `dictionaries: ${this.retiredDir}: ${err.message}`);
    });
  }

  // Resolves once the disk holds what the memory does (tests, close), its warnings said.
  flushed() {
    return this.disk.then(() => this.diskWarnings.flush());
  }

  // Takes back the previous contents the cache folder kept (a file whose bytes do not hash to
  // its name is deleted, never used), each for the rule that covers its path now. Resolves when
  // done; never rejects.
  async load() {
    if (this.retiredDir === null) return;
    const kept = await loadRetired(this.retiredDir, {
      maxEntries: RETIRED_MAX_ENTRIES, maxBytes: RETIRED_MAX_BYTES, maxEntryBytes: RETIRED_MAX_ENTRY_BYTES,
      maxAgeMs: RETIRED_MAX_AGE_MS, nowMs: this.wallNow(),
    }).catch((err) => {
      this.log.warn(`dictionaries: ${this.retiredDir}: ${err.message}`);
      return [];
    });
    // Oldest first, so that the newest end up newest; a content retired meanwhile stays newer.
    for (const { hash, rel, bytes, ageMs } of kept.reverse()) {
      const rule = ruleFor(this.rules, rel);
      const key = hash.toString('base64');
      if (rule === null || !this.servable(rel, path.join(this.store.rootReal, rel))) this.onDisk(hash, removeRetired);
      else if (!this.retired.has(key)) {
        this.retired.set(key, { kind: 'previous', rule, rel, bytes, at: this.now() - ageMs });
        this.retiredBytes += bytes.length;
      }
    }
    // Contents retired meanwhile came after these: the oldest go first.
    const order = [...this.retired.entries()].sort((a, b) => a[1].at - b[1].at);
    this.retired = new Map(order);
    this.trimRetired();
  }

  // [{ rel, hash }]: the files of `rule` to compress ahead of time and the dictionaries
  // (SHA-256) to compress each against: the file's own previous contents, newest first, then the
  // files of the rule noted before it (the start-up scan notes them oldest first). Leads only:
  // the caller looks both up.
  aheadPairs(rule) {
    const noted = [...this.byRule[rule.index].entries].reverse();
    const retired = [...this.retired].reverse().filter(([, entry]) => entry.rule === rule);
    const pairs = [];
    const seen = new Set();
    noted.forEach(([, rel], i) => {
      if (seen.has(rel) || seen.size === AHEAD_FILES) return;
      seen.add(rel);
      const before = [...retired.filter(([, entry]) => entry.rel === rel), ...noted.slice(i + 1).filter(([, other]) => other !== rel)];
      for (const [key] of before.slice(0, AHEAD_DICTIONARIES)) pairs.push({ rel, hash: Buffer.from(key, 'base64') });
    });
    return pairs;
  }

  // The dictionary of `rule` whose SHA-256 is `hash` (a Buffer): the FileInfo of the file as the
  // disk holds it now, or { kind: 'previous', rel, bytes } for the previous content of a file
  // rewritten in place; or null.
  // Resolves; never rejects.
  async find(rule, hash) {
    const key = hash.toString('base64');
    const live = await this.findFile(rule, hash, key);
    if (live !== null) return live;
    const retired = this.retired.get(key);
    if (retired === undefined || retired.rule !== rule) return null;
    if (this.now() - retired.at > RETIRED_MAX_AGE_MS) {
      this.dropRetired(key);
      return null;
    }
    return retired;
  }

  async findFile(rule, hash, key) {
    const { entries } = this.byRule[rule.index];
    const rel = entries.get(key);
    if (rel === undefined) return null;
    let info;
    try {
      info = this.store.current(rel) ?? await this.store.lookup(rel);
    } catch {
      info = null;
    }
    const current = info !== null && info.kind === 'file' && info.dictionaryRule === rule && this.servable(info.rel, info.real) ? this.digestOf(info) : null;
    if (current !== null && current.hash.equals(hash)) return info;
    if (entries.get(key) === rel) entries.delete(key);
    if (current !== null) this.note(info);
    return null;
  }

  // Notes the files under the root that the rules match: for each rule, the folder before its
  // first wildcard, walked (sub-folders too when a wildcard can cross "/", as "*" does), and of
  // its files the MAX_PER_RULE most recently modified, the releases returning visitors most
  // likely hold; only those are read. Resolves when done; failures are logged, never thrown.
  async scan() {
    const budget = { entries: MAX_SCAN_ENTRIES };
    for (const rule of this.rules) {
      const found = await this.filesOf(rule, budget);
      // A standalone dictionary (RFC 9842 3.2) may lie outside the rule's folder.
      if (rule.link !== null && !found.includes(rule.link)) found.push(rule.link);
      const dated = await Promise.all(found.map((rel) => fs.stat(path.join(this.store.rootReal, rel)).then(
        (st) => ({ rel, mtimeMs: st.mtimeMs }), () => null)));
      const newest = dated.filter((d) => d !== null).sort((a, b) => a.mtimeMs - b.mtimeMs).slice(-MAX_PER_RULE);
      for (const { rel } of newest) {
        if (this.closed) return;
        await this.noteFile(rel, rule);
      }
    }
    if (budget.entries <= 0) this.log.warn(`dictionaries: the start-up scan stopped after ${MAX_SCAN_ENTRIES} directory entries; files past them become dictionaries when first served`);
  }

  // The paths of the regular files `rule` matches, walking at most budget.entries entries.
  async filesOf(rule, budget) {
    const star = rule.match.indexOf('*');
    const literal = star === -1 ? rule.match : rule.match.slice(0, star);
    const queue = [literal.slice(0, literal.lastIndexOf('/') + 1)];
    const found = [];
    while (queue.length > 0 && budget.entries > 0 && !this.closed) {
      const dir = queue.shift();
      let names;
      try {
        names = await fs.readdir(path.join(this.store.rootReal, dir), { withFileTypes: true });
      } catch {
        continue;
      }
      for (const entry of names.slice(0, budget.entries)) {
        budget.entries--;
        const rel = dir + entry.name;
        if (!requestable(rel)) continue;
        if (entry.isDirectory()) {
          if (star !== -1) queue.push(rel + '/');
        } else if (entry.isFile() && rule.regex.test(rel)) {
          found.push(rel);
        }
      }
    }
    return found;
  }

  // Notes the file the scan found at `rel` for `rule`, which keeps it.
  async noteFile(rel, rule) {
    if (!requestable(rel)) return;
    try {
      const info = await this.store.lookup(rel);
      if (info.kind !== 'file' || !this.servable(info.rel, info.real)) return;
      this.byRule[rule.index].scanned.add(rel);
      this.note(info);
    } catch (err) {
      this.log.debug(`dictionaries: ${rel} skipped (${err.message})`);
    }
  }

  // Whether the file at `rel` (whose real path is `real`) is one a request is served.
  servable(rel, real) {
    return requestable(rel) && !this.hidden(real);
  }
}

// Whether a request for the path `rel` names that path: the request path's own rule (no dot
// name, nothing it would refuse or rewrite), applied to the path as a client would send it.
function requestable(rel) {
  try {
    return parseRequestPath(rel.split('/').map(encodeURIComponent).join('/')).rel === rel;
  } catch {
    return false;
  }
}

module.exports = { DictionaryIndex, MAX_PER_RULE, RETIRED_MAX_ENTRIES, RETIRED_MAX_BYTES, RETIRED_MAX_AGE_MS, AHEAD_FILES, AHEAD_DICTIONARIES };
