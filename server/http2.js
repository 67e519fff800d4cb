'use strict';
// HTTP/2 adapter: serves each stream through stream.respond() directly (no compat-layer
// request/response objects), sending the core's descriptor.

const { pipeline } = require('node:stream');
const { logAccess } = require('./access-log');

function ignore() {}

function createHttp2Handler(core, log) {
  return function onStream(stream, headers) {
    const startedAt = performance.now();
    const method = headers[':method'];
    const target = headers[':path'];
    // A peer reset surfaces as an 'error' on the stream; it is not a server failure.
    stream.on('error', ignore);
    core.decide(method, target, headers).then((d) => {
      const body = d.body;
      if (stream.destroyed || stream.closed) {
        if (body !== null && !Buffer.isBuffer(body)) body.destroy();
        return;
      }
      stream.respond(d.h2 || { ':status': d.status, ...d.headers }, { endStream: body === null });
      if (body === null) {
        logAccess(log, method, target, d.status, d.coding, 0, startedAt);
      } else if (Buffer.isBuffer(body)) {
        stream.end(body);
        logAccess(log, method, target, d.status, d.coding, body.length, startedAt);
      } else {
        let sent = 0;
        body.on('data', (chunk) => { sent += chunk.length; });
        // An early end of the source resets the stream (RST_STREAM) instead of ending it cleanly.
        pipeline(body, stream, (err) => {
          logAccess(log, method, target, err ? `${d.status} aborted` : d.status, d.coding, sent, startedAt);
        });
      }
    });
  };
}

module.exports = { createHttp2Handler };
