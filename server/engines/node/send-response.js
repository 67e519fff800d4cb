'use strict';
// Writes a core descriptor to a Node response object: http/https ServerResponse or the
// http2 compat Http2ServerResponse. done(err, bytesSent) runs once the body is sent or abandoned.

const { pipeline } = require('node:stream');

function sendResponse(res, d, done) {
  res.writeHead(d.status, d.headers);
  const body = d.body;
  if (body === null) {
    res.end();
    done(null, 0);
  } else if (Buffer.isBuffer(body)) {
    res.end(body);
    done(null, body.length);
  } else {
    let sent = 0;
    body.on('data', (chunk) => { sent += chunk.length; });
    // On a client abort or a source error pipeline() destroys both sides: the fd and any
    // compressor are released and a truncated body is never passed off as complete.
    pipeline(body, res, (err) => done(err, sent));
  }
}

module.exports = { sendResponse };
