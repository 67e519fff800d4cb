'use strict';
// Incremental, strict HTTP/1.1 request-head parser (RFC 9112 2-3, 5-6; RFC 9110 5). Pure: bytes
// go in with push(), next() hands out complete request heads in order, or a RequestError with
// the status to answer, after which the connection must be closed (the parser is then dead: a
// stream that broke once cannot be trusted to resynchronise, which is what smuggling exploits).
// This server takes no request content, so any framing that announces some is refused here.

const { METHODS } = require('node:http');
const { RequestError, ERR_BAD_REQUEST, ERR_CONTENT, ERR_HEAD_TOO_LARGE, ERR_METHOD, ERR_PATH_TOO_LONG, ERR_TRANSFER_ENCODING, ERR_VERSION } = require('../../errors');
const { addField } = require('../header-object');
const { MAX_PATH_LENGTH } = require('../../http/request-path');
const { hostError } = require('../../http/host-header');
const { requestTargetEnd } = require('../../http/request-target');
const { TCHAR, HEAD_VALUE_CONTROL } = require('../../http/grammar');
// Request line plus header section: the limit Node's HTTP/1.1 server gets (maxHeaderSize).
const { MAX_HTTP1_HEADER_BYTES: MAX_HEAD_BYTES } = require('../../config/limits');
// Room for the method and version around a target of MAX_PATH_LENGTH, so a request line still
// being received can be answered 414 without waiting for its end.
const REQUEST_LINE_SLACK = 64;

const CR = 13;
const LF = 10;
const SP = 32;
const HTAB = 9;


// Methods llhttp (Node's parser) knows. A known method reaches the core, which answers 405 for
// all but GET and HEAD; any other token is 501 (RFC 9110 9.1) with the connection closed, and
// so is CONNECT: its authority-form target is for proxies (RFC 9110 9.3.6).
const KNOWN_METHODS = new Set(METHODS.filter((m) => m !== 'CONNECT'));
// RFC 9112 3.2.2 absolute-form for this server: an http(s) URI, authority then path-abempty.
const ABSOLUTE_FORM = /^https?:\/\/([^/?#]*)([/?].*)?$/i;
const DIGITS = /^[0-9]+$/;
const EMPTY = Buffer.alloc(0);
// Field names most requests carry (browsers, curl, load generators). A name that matches one
// case-insensitively is this constant rather than a slice lowercased per request, which also
// spares V8 looking the key up in its string table for every header object.
const COMMON_NAMES = ['host', 'user-agent', 'accept', 'accept-encoding', 'accept-language', 'connection', 'cookie',
  'referer', 'origin', 'cache-control', 'pragma', 'priority', 'te', 'dnt', 'upgrade-insecure-requests',
  'if-none-match', 'if-modified-since', 'if-match', 'if-range', 'range', 'sec-fetch-dest', 'sec-fetch-mode',
  'sec-fetch-site', 'sec-fetch-user', 'sec-ch-ua', 'sec-ch-ua-mobile', 'sec-ch-ua-platform', 'content-length'];
const NAMES_BY_LENGTH = [];
for (const name of COMMON_NAMES) (NAMES_BY_LENGTH[name.length] ??= []).push(name);
const END_OF_HEAD = Buffer.from('\r\n\r\n', 'latin1');
// An LF that does not end a CRLF.
const BARE_LF = /(?:^|[^\r])\n/;

// A parsed request head: { method, target (as received), path (origin-form, what the core
// gets), version ('1.1' | '1.0'), headers (lowercase names; repeats joined with ', ', cookie
// with '; '), keepAlive }.
class RequestParser {
  constructor({ maxHeadBytes = MAX_HEAD_BYTES, maxTargetBytes = MAX_PATH_LENGTH } = {}) {
    this.maxHeadBytes = maxHeadBytes;
    this.maxTargetBytes = maxTargetBytes;
    // Received bytes are buf[start, end). buf is the last chunk itself while whole requests
    // arrive per chunk; a head split across chunks is gathered in an owned, doubling buffer so
    // a client sending a byte at a time costs linear, not quadratic, copying.
    this.buf = EMPTY;
    this.owned = false;
    this.start = 0; // first byte of the head being received
    this.end = 0;
    this.scan = 0; // where to look for the next LF
    this.lineStart = 0;
    this.requestLineEnd = -1; // index of the request line's CR, once received
    this.failed = null;
  }

  push(chunk) {
    if (this.failed !== null || chunk.length === 0) return;
    if (this.start === this.end) {
      this.buf = chunk;
      this.owned = false;
      this.start = this.scan = this.lineStart = 0;
      this.end = chunk.length;
      return;
    }
    if (!this.owned || this.end + chunk.length > this.buf.length) {
      const kept = this.end - this.start;
      const grown = Buffer.allocUnsafe(Math.max(2 * (kept + chunk.length), 4096));
      this.buf.copy(grown, 0, this.start, this.end);
      this.scan -= this.start;
      this.lineStart -= this.start;
      if (this.requestLineEnd !== -1) this.requestLineEnd -= this.start;
      this.buf = grown;
      this.owned = true;
      this.start = 0;
      this.end = kept;
    }
    chunk.copy(this.buf, this.end);
    this.end += chunk.length;
  }

  // True while part of a request head has been received (the headers timeout applies).
  get receiving() {
    return this.failed === null && this.start < this.end;
  }

  // The next complete request head, a RequestError, or null when more bytes are needed.
  next() {
    if (this.failed !== null) return this.failed;
    if (this.requestLineEnd === -1 && this.scan === this.start && this.start < this.end) {
      const whole = this.wholeHead();
      if (whole !== null) return whole;
    }
    const buf = this.buf;
    for (;;) {
      let lf = buf.indexOf(LF, this.scan);
      if (lf >= this.end) lf = -1;
      if (lf === -1) {
        this.scan = this.end;
        return this.checkLimits(this.end);
      }
      const lineStart = this.lineStart;
      if (this.requestLineEnd === -1 && (lf === lineStart || (lf === lineStart + 1 && buf[lineStart] === CR))) {
        // RFC 9112 2.2: empty lines before a request line are ignored (llhttp takes bare LF too).
        this.start = this.scan = this.lineStart = lf + 1;
        continue;
      }
      // RFC 9112 2.2 lets a recipient take a bare LF as a line end; like llhttp we do not.
      if (lf === lineStart || buf[lf - 1] !== CR) return this.fail(ERR_BAD_REQUEST('line not ended by CRLF'));
      const limit = this.checkLimits(lf + 1);
      if (limit !== null) return limit;
      if (this.requestLineEnd === -1) {
        this.requestLineEnd = lf - 1;
      } else if (lf - 1 === lineStart) {
        const result = parseHead(buf.latin1Slice(this.start, lf + 1), this.requestLineEnd - this.start, this.maxTargetBytes);
        this.start = this.scan = this.lineStart = lf + 1;
        this.requestLineEnd = -1;
        return result instanceof RequestError ? this.fail(result) : result;
      }
      this.scan = this.lineStart = lf + 1;
    }
  }

  // The common case, a head received whole, found with one search for its end; null leaves
  // the head to the line-by-line scan in next(), which also gives every error in the order the
  // bytes show it: an incomplete head, empty lines before it, a bare LF, a limit passed.
  wholeHead() {
    const buf = this.buf;
    const start = this.start;
    if (buf[start] === CR || buf[start] === LF) return null;
    const empty = buf.indexOf(END_OF_HEAD, start);
    const end = empty + 4;
    if (empty === -1 || end > this.end || end - start > this.maxHeadBytes) return null;
    const head = buf.latin1Slice(start, end);
    const lineEnd = head.indexOf('\r\n');
    if (lineEnd + 2 > this.maxTargetBytes + REQUEST_LINE_SLACK || BARE_LF.test(head)) return null;
    const result = parseHead(head, lineEnd, this.maxTargetBytes);
    this.start = this.scan = this.lineStart = end;
    return result instanceof RequestError ? this.fail(result) : result;
  }

  checkLimits(received) {
    if (this.requestLineEnd === -1 && received - this.start > this.maxTargetBytes + REQUEST_LINE_SLACK) {
      return this.fail(ERR_PATH_TOO_LONG());
    }
    if (received - this.start > this.maxHeadBytes) {
      return this.fail(ERR_HEAD_TOO_LARGE());
    }
    return null;
  }

  fail(err) {
    this.failed = err;
    this.buf = EMPTY;
    this.start = this.end = this.scan = this.lineStart = 0;
    return err;
  }
}

// head: the whole head as latin1, ending with the empty line's CRLF; lineEnd: the request
// line's CR. Returns the request or a RequestError.
function parseHead(head, lineEnd, maxTargetBytes) {
  const request = parseRequestLine(head.slice(0, lineEnd), maxTargetBytes);
  if (request instanceof RequestError) return request;
  // One pass for the controls no field line may hold (every LF already ends a CRLF line).
  HEAD_VALUE_CONTROL.lastIndex = lineEnd + 2;
  if (HEAD_VALUE_CONTROL.test(head)) return ERR_BAD_REQUEST('control character in a field line');
  const headers = {};
  const counts = { host: 0, cl: 0, clTab: false, te: false }; // clTab: HTAB after a Content-Length
  let pos = lineEnd + 2;
  const end = head.length - 2;
  while (pos < end) {
    const eol = head.indexOf('\r', pos);
    if (head.charCodeAt(eol + 1) !== LF) return ERR_BAD_REQUEST('CR inside a field line');
    const err = parseField(head, pos, eol, headers, counts);
    if (err !== null) return err;
    pos = eol + 2;
  }
  return frame(request, headers, counts);
}

function parseRequestLine(line, maxTargetBytes) {
  let i = 0;
  while (i < line.length && TCHAR[line.charCodeAt(i)] > 0) i++;
  if (i === 0 || line.charCodeAt(i) !== SP) return ERR_BAD_REQUEST('malformed method');
  const method = i === 3 && line.startsWith('GET') ? 'GET' : line.slice(0, i);
  // llhttp accepts runs of SP between the parts (RFC 9112 3 allows splitting on whitespace).
  while (line.charCodeAt(i) === SP) i++;
  const targetStart = i;
  i = requestTargetEnd(line, i);
  const target = line.slice(targetStart, i);
  if (target.length === 0 || (i < line.length && line.charCodeAt(i) !== SP)) return ERR_BAD_REQUEST('malformed request target');
  if (target.length > maxTargetBytes) return ERR_PATH_TOO_LONG();
  while (line.charCodeAt(i) === SP) i++;
  const version = line.slice(i);
  if (version === '' || i === targetStart + target.length) return ERR_BAD_REQUEST('no HTTP version (HTTP/0.9 is not served)');
  if (version !== 'HTTP/1.1' && version !== 'HTTP/1.0') {
    return /^HTTP\/[0-9]\.[0-9]$/.test(version)
      ? ERR_VERSION()
      : ERR_BAD_REQUEST('malformed HTTP version');
  }
  if (!KNOWN_METHODS.has(method)) return ERR_METHOD();
  return { method, target, path: target, version: version === 'HTTP/1.1' ? '1.1' : '1.0', headers: null, keepAlive: true };
}

// One field line [pos, eol): name ":" OWS value OWS (RFC 9112 5). No whitespace before the
// colon, no obs-fold (a line starting with whitespace); the value's characters are checked
// by parseHead.
function parseField(head, pos, eol, headers, counts) {
  let i = pos;
  while (i < eol && TCHAR[head.charCodeAt(i)] > 0) i++;
  if (i === pos) return ERR_BAD_REQUEST(head.charCodeAt(pos) === SP || head.charCodeAt(pos) === HTAB ? 'obs-fold or whitespace before a field name' : 'malformed field name');
  if (head.charCodeAt(i) !== 0x3a /* : */) return ERR_BAD_REQUEST('malformed field line');
  const name = commonName(head, pos, i) ?? head.slice(pos, i).toLowerCase();
  let vs = i + 1;
  let ve = eol;
  while (vs < ve && (head.charCodeAt(vs) === SP || head.charCodeAt(vs) === HTAB)) vs++;
  while (ve > vs && (head.charCodeAt(ve - 1) === SP || head.charCodeAt(ve - 1) === HTAB)) ve--;
  const value = head.slice(vs, ve);
  if (name === 'host') counts.host++;
  else if (name === 'content-length') {
    counts.cl++;
    // OWS may be HTAB (RFC 9110 5.6.3), but llhttp refuses it after the digits; so do we.
    const tab = head.indexOf('\t', ve);
    if (tab !== -1 && tab < eol) counts.clTab = true;
  } else if (name === 'transfer-encoding') counts.te = true;
  addField(headers, name, value);
  return null;
}

// The COMMON_NAMES entry head[pos, end) spells in any case, or null. The range is a token, and
// no token character but an uppercase letter becomes a lowercase letter or '-' by setting bit
// 0x20, so the comparison is exact.
function commonName(head, pos, end) {
  const candidates = NAMES_BY_LENGTH[end - pos];
  if (candidates === undefined) return null;
  next: for (const name of candidates) {
    for (let i = 0; i < name.length; i++) {
      if ((head.charCodeAt(pos + i) | 0x20) !== name.charCodeAt(i)) continue next;
    }
    return name;
  }
  return null;
}

// Message framing and connection rules once all fields are in (RFC 9112 6, 9.3; 3.2).
function frame(request, headers, counts) {
  if (counts.cl > 1) return ERR_BAD_REQUEST('more than one Content-Length');
  const cl = headers['content-length'];
  if (cl !== undefined && (!DIGITS.test(cl) || counts.clTab)) return ERR_BAD_REQUEST('malformed Content-Length');
  // RFC 9112 6.1: Transfer-Encoding with Content-Length is the smuggling signature; refuse it.
  if (counts.te && cl !== undefined) return ERR_BAD_REQUEST('Transfer-Encoding with Content-Length');
  // No request here takes content: refuse the framing instead of reading or skipping a body,
  // so nothing can hide behind it. RFC 9112 6.1: 501 for a transfer coding not implemented.
  if (counts.te) return ERR_TRANSFER_ENCODING();
  // RFC 9110 15.5.14: content larger than the server is willing to take (here: any).
  if (cl !== undefined && !/^0+$/.test(cl)) return ERR_CONTENT();
  // RFC 9112 3.2: exactly one valid Host in HTTP/1.1; at most one in HTTP/1.0.
  const host = headers.host;
  const hostProblem = hostError(counts.host, host, request.version === '1.0');
  if (hostProblem !== null) return ERR_BAD_REQUEST(hostProblem);
  if (request.target.charCodeAt(0) !== 0x2f /* / */ && request.target !== '*') {
    const m = ABSOLUTE_FORM.exec(request.target);
    // Absolute-form only for the origin the request names in Host: this is not a proxy.
    if (m === null || host === undefined || m[1].toLowerCase() !== host.toLowerCase()) return ERR_BAD_REQUEST('request target is not for this origin');
    const rest = m[2] || '';
    request.path = rest.charCodeAt(0) === 0x2f /* / */ ? rest : '/' + rest;
  }
  request.headers = headers;
  request.keepAlive = keepAlive(request.version, headers.connection);
  return request;
}

// RFC 9112 9.3: HTTP/1.1 persists unless "close"; HTTP/1.0 only with "keep-alive".
function keepAlive(version, connection) {
  if (connection === undefined) return version === '1.1';
  const lower = connection.toLowerCase();
  if (lower === 'keep-alive') return true;
  if (lower === 'close') return false;
  const options = lower.split(',').map((s) => s.trim());
  if (options.includes('close')) return false;
  return version === '1.1' || options.includes('keep-alive');
}

module.exports = { RequestParser, MAX_HEAD_BYTES };
