'use strict';
// One access-log line per request, in the --log-format chosen:
//   short     method target status coding bytes ms (after the logger's time and level)
//   combined  the Apache/nginx combined format: remote - - [time] "method target protocol"
//             status bytes "referer" "user agent"
//   json      one object per line: time, remoteAddress, protocol, method, path, status,
//             aborted, coding, bytes, durationMs, userAgent, referer
// `client` ({ remoteAddress, protocol, headers }) comes from the engine; protocol is
// "h2", "http/1.1" or "http/1.0". Status is a number, or "NNN aborted" when the body was cut off.
// What the client sent (method, target, referer, user agent) is escaped in every format, below.

const LOG_FORMATS = ['short', 'combined', 'json'];
const MAX_FIELD = 512;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const REQUEST_PROTOCOL = { 'h3': 'HTTP/3', 'h2': 'HTTP/2.0', 'http/1.1': 'HTTP/1.1', 'http/1.0': 'HTTP/1.0' };

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
      log.info(`${escaped(method)} ${escaped(cap(target))} ${status} ${coding || '-'} ${bytes} ${ms}ms`);
      return;
    }
    const aborted = typeof status === 'string';
    const code = aborted ? Number.parseInt(status, 10) : status;
    if (format === 'combined') {
      log.raw(`${client.remoteAddress || '-'} - - [${clfTime(new Date())}] "${escaped(`${method} ${cap(target)} ${REQUEST_PROTOCOL[client.protocol] || '-'}`)}" ` +
        `${code} ${bytes === 0 ? '-' : bytes} "${escaped(cap(client.headers.referer) || '-')}" "${escaped(cap(client.headers['user-agent']) || '-')}"`);
      return;
    }
    log.raw(jsonLine({
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

// The access log's one escaping rule, for every format: no character outside printable ASCII
// (0x20-0x7E) is written as it came, so a line is one line of plain ASCII, inert in a terminal
// (no ESC, BEL, OSC or C1 sequence, no DEL). '"' and '\' are escaped too: a quote cannot end a
// quoted field early, and \x1B in the log can only mean the byte ESC, never four characters a
// client sent. form(code) spells the escape: nginx's \xHH (short, combined) or JSON's \uHHHH.
// eslint-disable-next-line no-control-regex
const ESCAPED = /["\\\u0000-\u001f\u007f-\uffff]/g;

function escaped(text, form = hexEscape) {
  return text.replace(ESCAPED, (c) => form(c.charCodeAt(0)));
}

// Strings from the engines hold one byte per character (latin1); a wider character (from an
// app's own request objects) is written as its UTF-16 code units, \uHHHH each.
function hexEscape(code) {
  return code > 0xff ? jsonEscape(code) : `\\x${code.toString(16).toUpperCase().padStart(2, '0')}`;
}

function jsonEscape(code) {
  return `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

// One JSON object of string, number, boolean and null fields, every string escaped by the rule
// above (JSON.stringify would leave DEL and everything from 0x80 up as it came).
function jsonLine(fields) {
  let line = '';
  for (const [name, value] of Object.entries(fields)) {
    line += `${line === '' ? '{' : ','}"${name}":${typeof value === 'string' ? `"${escaped(value, jsonEscape)}"` : JSON.stringify(value)}`;
  }
  return `${line}}`;
}

// [23/Nov/2026:16:23:29 +0000]: the Common Log Format's time, in UTC.
function clfTime(d) {
  const two = (n) => String(n).padStart(2, '0');
  return `${two(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
}

module.exports = { createAccessLog, escaped, LOG_FORMATS };
