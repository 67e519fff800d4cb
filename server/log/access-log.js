'use strict';
// One access-log line per request, in the --log-format chosen:
//   short     method target status coding bytes ms (after the logger's time and level)
//   combined  the Apache/nginx combined format: remote - - [time] "method target protocol"
//             status bytes "referer" "user agent"
//   json      one object per line: time, remoteAddress, protocol, method, path, status,
//             aborted, coding, bytes, durationMs, userAgent, referer
// `client` ({ remoteAddress, protocol, headers }) comes from the engine; protocol is
// "h2", "http/1.1" or "http/1.0". Status is a number, or "NNN aborted" when the body was cut off.

const LOG_FORMATS = ['short', 'combined', 'json'];
const MAX_FIELD = 512;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const REQUEST_PROTOCOL = { 'h2': 'HTTP/2.0', 'http/1.1': 'HTTP/1.1', 'http/1.0': 'HTTP/1.0' };

function cap(value) {
  return value && value.length > MAX_FIELD ? value.slice(0, MAX_FIELD) + '...' : value;
}

// Returns logAccess(method, target, status, coding, bytes, startedAt, client).
function createAccessLog(log, format) {
  if (format !== 'short' && typeof log.raw !== 'function') {
    throw new Error(`${format} needs a logger with raw(line) (server/log/logger.js has it)`);
  }
  return function logAccess(method, target, status, coding, bytes, startedAt, client) {
    if (!log.enabled('info')) return;
    const ms = (performance.now() - startedAt).toFixed(1);
    if (format === 'short') {
      log.info(`${method} ${cap(target)} ${status} ${coding || '-'} ${bytes} ${ms}ms`);
      return;
    }
    const aborted = typeof status === 'string';
    const code = aborted ? Number.parseInt(status, 10) : status;
    if (format === 'combined') {
      log.raw(`${client.remoteAddress || '-'} - - [${clfTime(new Date())}] "${quoted(`${method} ${cap(target)} ${REQUEST_PROTOCOL[client.protocol] || '-'}`)}" ` +
        `${code} ${bytes === 0 ? '-' : bytes} "${quoted(cap(client.headers.referer) || '-')}" "${quoted(cap(client.headers['user-agent']) || '-')}"`);
      return;
    }
    log.raw(JSON.stringify({
      time: new Date().toISOString(),
      remoteAddress: client.remoteAddress || null,
      protocol: client.protocol,
      method,
      path: cap(target),
      status: code,
      aborted,
      coding: coding || null,
      bytes,
      durationMs: Number(ms),
      userAgent: cap(client.headers['user-agent']) ?? null,
      referer: cap(client.headers.referer) ?? null,
    }));
  };
}

// nginx's escaping of a quoted log field: '"', '\' and bytes outside printable ASCII as \xHH.
function quoted(text) {
  // eslint-disable-next-line no-control-regex
  return text.replace(/["\\\u0000-\u001f\u007f-\uffff]/g, (c) => {
    const code = c.charCodeAt(0);
    return code > 0xff ? c : `\\x${code.toString(16).toUpperCase().padStart(2, '0')}`;
  });
}

// [23/Nov/2026:16:23:29 +0000]: the Common Log Format's time, in UTC.
function clfTime(d) {
  const two = (n) => String(n).padStart(2, '0');
  return `${two(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
}

module.exports = { createAccessLog, LOG_FORMATS };
