'use strict';
// Batched, asynchronous log writer. process.stdout is synchronous for files and pipes, so a
// write per request would stall the event loop; lines are buffered and flushed with fs.write
// from a timer, one write in flight at a time. process.stdout is never touched: creating it
// would switch fd 1 to non-blocking mode under our feet. With json, each line is a JSON object
// ({ time, level, message }), so that stdout under --log-format json is JSON lines throughout.

const fs = require('node:fs');

const LEVELS = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 };
const FLUSH_MS = 50;
const FLUSH_BYTES = 64 * 1024;
const RETRY_MS = 10;
// POSIX's minimum, Linux's value: pipe writes up to this size are never interleaved.
const PIPE_BUF = 4096;

class Logger {
  constructor({ level = 'info', fd = 1, json = false } = {}) {
    this.threshold = LEVELS[level];
    this.fd = fd;
    this.json = json;
    this.pending = [];
    this.pendingBytes = 0;
    this.writing = false;
    this.timer = null;
    this.drainWaiters = [];
    this.flushNow = () => this.flush();
  }

  enabled(level) {
    return LEVELS[level] <= this.threshold;
  }

  error(msg) { this.line('error', msg); }
  warn(msg) { this.line('warn', msg); }
  info(msg) { this.line('info', msg); }
  debug(msg) { this.line('debug', msg); }

  // For the few lines every non-silent run must show (the URL the server listens on).
  always(msg) {
    if (this.threshold > 0) this.line('info', msg, true);
  }

  line(level, msg, force = false) {
    if (!force && LEVELS[level] > this.threshold) return;
    const time = new Date().toISOString();
    this.push(this.json ? `${JSON.stringify({ time, level, message: msg })}\n` : `${time} ${level} ${msg}\n`);
  }

  // An info line written as given: access-log formats that carry their own time.
  raw(msg) {
    if (LEVELS.info <= this.threshold) this.push(`${msg}\n`);
  }

  push(text) {
    this.pending.push(text);
    this.pendingBytes += text.length;
    if (this.pendingBytes >= FLUSH_BYTES) this.flush();
    else if (!this.timer) this.timer = setTimeout(this.flushNow, FLUSH_MS);
  }

  flush() {
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    if (this.writing || this.pending.length === 0) {
      if (!this.writing) this.settle();
      return;
    }
    // Workers of a cluster share fd 1: a write to a pipe is atomic only up to PIPE_BUF, so each
    // write carries whole lines and at most PIPE_BUF bytes (a longer line goes alone).
    let bytes = Buffer.byteLength(this.pending[0]);
    let chars = this.pending[0].length;
    let n = 1;
    for (; n < this.pending.length; n++) {
      const size = Buffer.byteLength(this.pending[n]);
      if (bytes + size > PIPE_BUF) break;
      bytes += size;
      chars += this.pending[n].length;
    }
    const buf = Buffer.from(this.pending.slice(0, n).join(''));
    this.pending = this.pending.slice(n);
    this.pendingBytes -= chars;
    this.writing = true;
    this.writeAll(buf, 0);
  }

  writeAll(buf, offset) {
    fs.write(this.fd, buf, offset, buf.length - offset, null, (err, written) => {
      if (err && err.code === 'EAGAIN') { setTimeout(() => this.writeAll(buf, offset), RETRY_MS); return; }
      // A closed or broken stdout must not take the server down; the lines are dropped.
      if (!err && offset + written < buf.length) { this.writeAll(buf, offset + written); return; }
      this.writing = false;
      this.flush();
    });
  }

  settle() {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }

  // Resolves once everything logged so far has been written.
  drain() {
    return new Promise((resolve) => {
      this.drainWaiters.push(resolve);
      this.flush();
    });
  }
}

/** The options' logger: theirs (the API's logger), or one at their level and --log-format. */
function loggerFor(options) {
  return options.logger || new Logger({ level: options.logLevel, json: options.logFormat === 'json' });
}

module.exports = { Logger, loggerFor };
