'use strict';
// HTTP/2 adapter: serves each stream through stream.respond() directly (no compat-layer
// request/response objects), sending the core's descriptor.

const { constants: { NGHTTP2_INTERNAL_ERROR, NGHTTP2_PROTOCOL_ERROR } } = require('node:http2');
const { sendStream } = require('./send-response');
const { discard, loggedStatus } = require('../send-out');
const { HEADER_FIELD_OVERHEAD } = require('../../config/limits');
const { dispatch } = require('../dispatch');
const { ERR_HEADER_LIST_TOO_LARGE } = require('../../errors');
const { isRequestTarget } = require('../../http/request-target');

function ignore() {}


function headerListSize(rawHeaders) {
  let size = 0;
  for (let i = 0; i < rawHeaders.length; i++) size += rawHeaders[i].length;
  return size + (rawHeaders.length / 2) * HEADER_FIELD_OVERHEAD;
}

// maxHeaderListSize: what the server advertises in SETTINGS_MAX_HEADER_LIST_SIZE. nghttp2 treats
// it as advisory, so a longer list is answered here with 431 instead of being processed.
// sendTimeout: a streamed body that gets no chunk out for this long is destroyed, which releases
// its file, chunk and spool and resets the stream (send-out.js). Neither the session's timer nor
// Node's stream timer can tell: any frame the connection carries (a PING, a 1-byte
// WINDOW_UPDATE) restarts both. The reset goes out as INTERNAL_ERROR, as for any destroyed
// stream: stream.close(CANCEL) would be the better code, but Node holds that RST_STREAM back
// behind the stream's unsendable data until the whole session closes.
// meter: this protocol's metrics (server/metrics/recorder.js).
function createHttp2Handler(core, log, maxHeaderListSize, sendTimeout, meter) {
  return function onStream(stream, headers, flags, rawHeaders) {
    const startedAt = performance.now();
    const method = headers[':method'];
    const target = headers[':path'];
    const client = { remoteAddress: stream.session.socket.remoteAddress, protocol: 'h2', headers };
    // A peer reset surfaces as an 'error' on the stream; it is not a server failure.
    stream.on('error', ignore);
    // nghttp2 resets a :path with control bytes, SP or DEL itself, but passes bytes from 0x80
    // up: the same malformed request (RFC 9113 8.1.1) as in the native engine. CONNECT has no
    // :path (8.5).
    if (target !== undefined && !isRequestTarget(target)) {
      stream.close(NGHTTP2_PROTOCOL_ERROR);
      return;
    }
    const refusal = headerListSize(rawHeaders) > maxHeaderListSize ? ERR_HEADER_LIST_TOO_LARGE() : null;
    dispatch(core, log, { method, target, headers, refusal, connection: stream.session }, (d) => {
      if (stream.destroyed || stream.closed) {
        discard(d);
        return;
      }
      sendStream(stream, d, method === 'HEAD', sendTimeout, (outcome, sent) => {
        core.logAccess(method, target, loggedStatus(d.status, outcome), d.coding, sent, startedAt, client);
      }, meter, startedAt);
    }, () => stream.close(NGHTTP2_INTERNAL_ERROR));
  };
}

module.exports = { createHttp2Handler };
