'use strict';
// HTTP/1.1 response heads (RFC 9112 4-6) from the core's descriptors. A descriptor's header
// object is serialised once and remembered: the core hands out the same prebuilt objects for
// every response of a representation, so the common case only appends Date and framing.

const { STATUS_CODES } = require('node:http');
const { currentDate } = require('../../http/date-clock');
const { isToken, hasValueControl } = require('../../http/grammar');

const blocks = new WeakMap();
const statusLines = new Map();

function statusLine(status) {
  let line = statusLines.get(status);
  if (line === undefined) {
    line = `HTTP/1.1 ${status} ${STATUS_CODES[status] || 'Unknown'}\r\n`;
    statusLines.set(status, line);
  }
  return line;
}

// Throws on a name or value that could split the head: that is a bug upstream, and the
// connection adapter turns it into a dropped response rather than an injected header.
function fieldBlock(headers) {
  let block = blocks.get(headers);
  if (block === undefined) {
    block = '';
    for (const name in headers) {
      const value = headers[name];
      // What Node's writeHead() also refuses to send (RFC 9110 5.1, 5.5).
      if (!isToken(name) || hasValueControl(value)) throw new Error(`refusing to send header ${JSON.stringify(name)}`);
      block += `${name}: ${value}\r\n`;
    }
    blocks.set(headers, block);
  }
  return block;
}

let dateOf = null;
let dateLine = '';

// Whole responses (head and body) of descriptors sent again within the same Date second: the
// core hands out one prebuilt descriptor per representation, so under load a response is one
// cached Buffer and one write. Emptied when the second changes, so it holds only what was
// served in the last second, and at most WHOLE_BYTES of that.
const WHOLE_BYTES = 1 << 20;
const wholes = new Map();
let wholeBytes = 0;

function currentDateLine() {
  const date = currentDate();
  if (date !== dateOf) {
    dateOf = date;
    dateLine = `date: ${date.text}\r\n`;
    wholes.clear();
    wholeBytes = 0;
  }
  return dateLine;
}

// chunked: the body has no Content-Length and the peer speaks HTTP/1.1 (an HTTP/1.0 body
// without a length ends with the connection). connection: 'close', 'keep-alive' (an HTTP/1.0
// peer that asked for it) or null (HTTP/1.1 persistence, RFC 9112 9.3).
function formatHead(status, headers, chunked, connection) {
  let head = statusLine(status) + fieldBlock(headers) + currentDateLine();
  if (chunked) head += 'transfer-encoding: chunked\r\n';
  if (connection !== null) head += `connection: ${connection}\r\n`;
  return head + '\r\n';
}

// The head of d (not chunked; connection as for formatHead) with bytes (d.body, or null for
// none) behind it, as one Buffer. Responses that keep an HTTP/1.1 connection open are the
// same Buffer for every call with d in the same second: nothing may write into it.
function wholeResponse(d, bytes, connection) {
  const key = connection !== null ? null : bytes === null ? d.headers : d;
  if (key !== null) {
    currentDateLine();
    const whole = wholes.get(key);
    if (whole !== undefined && whole.status === d.status) return whole.buffer;
  }
  const head = formatHead(d.status, d.headers, false, connection);
  const n = bytes === null ? 0 : bytes.length;
  const buffer = Buffer.allocUnsafeSlow(head.length + n);
  buffer.write(head, 0, 'latin1');
  if (n > 0) bytes.copy(buffer, head.length);
  if (key !== null && wholeBytes + buffer.length <= WHOLE_BYTES) {
    wholes.set(key, { status: d.status, buffer });
    wholeBytes += buffer.length;
  }
  return buffer;
}

// RFC 9112 7.1 chunked coding: size line, data, CRLF; the last chunk has size 0, no trailers.
function chunkPrefix(length) {
  return `${length.toString(16)}\r\n`;
}
const CHUNK_SUFFIX = '\r\n';
const LAST_CHUNK = '0\r\n\r\n';

module.exports = { formatHead, wholeResponse, chunkPrefix, CHUNK_SUFFIX, LAST_CHUNK };
