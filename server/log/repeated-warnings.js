'use strict';
// Warnings about a failure that repeats with every request: a cache folder that is read-only or
// full fails each write the same way, and a line per write would bury everything else. The first
// occurrence of a cause is logged as it comes; the next ones within windowMs are only counted,
// and said in one line ("... (N more like this in the last 60 s)") when the cause comes back
// after the window, or at flush() (the server closing).

// Causes are codes (EROFS, ENOSPC): a few. Past this many, the counts so far are said and forgotten.
const MAX_CAUSES = 64;

class RepeatedWarnings {
  /**
   * @param {{ warn(message: string): void }} log
   * @param {{ windowMs?: number, now?: () => number }} [options] now(): a clock in ms (tests pass their own)
   */
  constructor(log, { windowMs = 60_000, now = () => performance.now() } = {}) {
    Object.assign(this, { log, windowMs, now });
    // cause → { since, message (the first line), more (how many not logged since) }
    this.causes = new Map();
  }

  /** Logs `message` unless `cause` was logged less than windowMs ago; then counts it. */
  warn(cause, message) {
    const at = this.now();
    const seen = this.causes.get(cause);
    if (seen !== undefined && at - seen.since < this.windowMs) {
      seen.more++;
      return;
    }
    if (seen !== undefined) this.summarize(seen, at);
    else if (this.causes.size >= MAX_CAUSES) this.flush();
    this.causes.set(cause, { since: at, message, more: 0 });
    this.log.warn(message);
  }

  /** Says the counts not said yet, and forgets every cause. */
  flush() {
    const at = this.now();
    for (const seen of this.causes.values()) this.summarize(seen, at);
    this.causes.clear();
  }

  summarize({ since, message, more }, at) {
    if (more === 0) return;
    this.log.warn(`${message} (${more} more like this in the last ${Math.max(1, Math.round((at - since) / 1000))} s)`);
  }
}

module.exports = { RepeatedWarnings };
