'use strict';
// Makes the delta bytes (RFC 9842 dcb, dcz) the decision asks for, or says it cannot: the
// decision (decision/core.js) chooses a representation and falls back, as h2o's file handler
// leaves compression to its output filter; this makes the delta of a file against a
// dictionary, through the compression cache (one compression per file, coding and dictionary
// at a time, in the compression slots), from the cache folder when it was made before
// (delta-store.js), charging the work to the delta budget (delta-budget.js), and keeps what it
// made in the cache folder. It also makes, once the dictionaries are known, the deltas returning
// visitors most likely ask for (ahead()).

const { savesBytes } = require('../compression/compressibility');
const { RepeatedWarnings } = require('../log/repeated-warnings');
const { ERR_DELTA_BUDGET } = require('../errors');

// What bytes() says past the delta budget.
const OVER_BUDGET = Object.freeze(ERR_DELTA_BUDGET());
const UNCHARGED = () => true;

class DeltaMaker {
  // cache: the CompressCache; engines: the dcb/dcz makers (dictionary-codings.js; null without
  // dictionary rules); codings: the delta codings offered, in preference order; store: the
  // DeltaStore; budget: the DeltaBudget; index: the DictionaryIndex; files: the FileStore.
  constructor({ cache, engines, codings, store, budget, index, files, log }) {
    Object.assign(this, { cache, engines, codings, store, budget, index, files, log });
    // Deltas being written to the cache folder.
    this.writes = new Set();
    // A cache folder that is read-only or full fails every delta's write alike: one line a cause.
    this.warnings = new RepeatedWarnings(log);
    this.closed = false;
  }

  /** Whether `coding` can be made against `dictionary` (dictionary-codings.js). */
  accepts(coding, dictionary) {
    return this.engines.accepts(coding, dictionary);
  }

  /** The settings `coding` makes its bytes with, for ETags ("5w22"). */
  settingsTag(coding) {
    return this.engines.settingsTag(coding);
  }

  /** What a request on `connection` (or null) is charged for the work its delta needs. */
  chargeTo(connection) {
    return (bytes) => this.budget.tryTake(connection, bytes);
  }

  /**
   * The bytes of the file `info` in the delta `coding` against `dictionary` (whose SHA-256 is
   * `hash`); null past the compression slots or on failure (logged), OVER_BUDGET when it needs
   * work that charge(bytes) refused.
   */
  async bytes(info, coding, dictionary, hash, charge) {
    const hex = hash.toString('hex');
    const key = `${info.cacheKeyPrefix}${coding}\0${hex}`;
    try {
      return this.cache.get(key) ?? await this.cache.getOrCompress(key, coding, () => Promise.resolve(info.bytes),
        (input) => this.keptOrMade(info, coding, input, dictionary, hash, hex, charge));
    } catch (err) {
      if (err === OVER_BUDGET) return OVER_BUDGET;
      this.log.error(`${coding} compression of ${info.real} failed: ${err.message}`);
      return null;
    }
  }

  // A delta kept in the cache folder that this process made or checked is used as it is. One
  // kept by another process (or before a restart) is used once it decoded, with the dictionary,
  // to the file as it is now, which happens once (the store then trusts those bytes), so nothing
  // is trusted for its name. Its name holds the settings of the coding, which are in the ETag: a
  // delta made with others is not found. Otherwise the delta is made and kept. Checking and
  // making are charged (charge); past the budget, throws OVER_BUDGET.
  async keptOrMade(info, coding, input, dictionary, hash, hex, charge) {
    const file = this.store.path(info, coding + this.settingsTag(coding), hex);
    const kept = file === null ? null : await this.store.read(file);
    if (kept !== null && kept.trusted) return kept.bytes;
    if (!charge(input.length)) throw OVER_BUDGET;
    if (kept !== null) {
      const decoded = await this.engines.decompress(coding, kept.bytes, dictionary, { maxOutputLength: input.length + 1 }).catch(() => null);
      if (decoded !== null && decoded.equals(input)) {
        this.store.trust(file, kept.bytes);
        return kept.bytes;
      }
    }
    const bytes = await this.engines.compress(coding, input, dictionary, hash);
    // Once closed, nothing more is written: close() waits for the writes under way.
    if (file !== null && !this.closed && savesBytes(bytes.length, input.length)) {
      const write = this.store.write(file, bytes).catch((err) => this.warnings.warn(err.code ?? 'delta', `${coding} delta of ${info.real} not kept: ${err.message}`))
        .finally(() => this.writes.delete(write));
      this.writes.add(write);
    }
    return bytes;
  }

  // Makes, one at a time, the deltas returning visitors most likely ask for: those of each
  // rule's most recent files against their predecessors (DictionaryIndex.aheadPairs), in every
  // delta coding, kept in memory and in the cache folder as a request's would be, so a request
  // meanwhile waits for the same compression instead of another. They are bounded in number
  // (AHEAD_FILES, AHEAD_DICTIONARIES there), not charged to the budget. Resolves, when done or
  // closed, with how many deltas it has in hand; never rejects.
  async ahead() {
    let made = 0;
    for (const rule of this.index.rules) {
      for (const { rel, hash } of this.index.aheadPairs(rule)) {
        if (this.closed) return made;
        const [info, dictionary] = await Promise.all([this.files.lookup(rel).catch(() => null), this.index.find(rule, hash)]);
        if (info === null || info.kind !== 'file' || info.bytes === null || !info.compressible || dictionary === null) continue;
        for (const coding of this.codings) {
          if (!this.accepts(coding, dictionary.bytes)) continue;
          if (await this.bytes(info, coding, dictionary.bytes, hash, UNCHARGED) !== null) made++;
        }
      }
    }
    return made;
  }

  /** Stops writing; resolves once the writes under way are done (never rejects). */
  close() {
    this.closed = true;
    return Promise.all([...this.writes]).then(() => this.warnings.flush());
  }
}

module.exports = { DeltaMaker, OVER_BUDGET };
