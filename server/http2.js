'use strict';
// HTTP/2 adapter: serves each stream through stream.respond() directly (no compat-layer
// request/response objects), sending the core's descriptor.

const { constants: { NGHTTP2_INTERNAL_ERROR } } = require('node:http2');
const { pipeline } = require('node:stream');

function ignore() {}

// RFC 9113 6.5.2: a field costs its name and value octets plus 32.
const FIELD_OVERHEAD = 32;

function headerListSize(rawHeaders) {
  let size = 0;
  for (let i = 0; i < rawHeaders.length; i++) size += rawHeaders[i].length;
  return size + (rawHeaders.length / 2) * FIELD_OVERHEAD;
}

// maxHeaderListSize: what the server advertises in SETTINGS_MAX_HEADER_LIST_SIZE. nghttp2 treats
// it as advisory, so a longer list is answered here with 431 instead of being processed.
function createHttp2Handler(core, log, maxHeaderListSize) {
  return function onStream(stream, headers, flags, rawHeaders) {
    const startedAt = performance.now();
    const method = headers[':method'];
    const target = headers[':path'];
    const client = { remoteAddress: stream.session.socket.remoteAddress, protocol: 'h2', headers };
    // A peer reset surfaces as an 'error' on the stream; it is not a server failure.
    stream.on('error', ignore);
    const decided = headerListSize(rawHeaders) > maxHeaderListSize
      ? Promise.resolve(core.headerListTooLarge(method === 'HEAD'))
      : core.decide(method, target, headers);
    decided.then((d) => {
      const body = d.body;
      if (stream.destroyed || stream.closed) {
        if (body !== null && !Buffer.isBuffer(body)) body.destroy();
        return;
      }
      stream.respond(d.h2 || { ':status': d.status, ...d.headers }, { endStream: body === null });
      if (body === null) {
        core.logAccess(method, target, d.status, d.coding, 0, startedAt, client);
      } else if (Buffer.isBuffer(body)) {
        stream.end(body);
        core.logAccess(method, target, d.status, d.coding, body.length, startedAt, client);
      } else {
        let sent = 0;
        body.on('data', (chunk) => { sent += chunk.length; });
        // An early end of the source resets the stream (RST_STREAM) instead of ending it cleanly.
        pipeline(body, stream, (err) => {
          core.logAccess(method, target, err ? `${d.status} aborted` : d.status, d.coding, sent, startedAt, client);
        });
      }
    }).catch((err) => {
      // decide() never rejects, so this is a failure while sending: reset this stream only.
      log.error(`sending ${method} ${target} failed: ${err.stack || err}`);
      stream.close(NGHTTP2_INTERNAL_ERROR);
    });
  };
}

module.exports = { createHttp2Handler };
