'use strict';
// HTTP/1.1 adapter (ALPN http/1.1 or no ALPN): hands the request to the core and writes the
// descriptor it returns through the classic req/res API.

const { pipeline } = require('node:stream');
const { requestHost } = require('./host-header');
const { RequestError } = require('./errors');

function createHttp1Handler(core, log, isClosing) {
  return function onRequest(req, res) {
    const startedAt = performance.now();
    const client = { remoteAddress: req.socket.remoteAddress, protocol: req.httpVersion === '1.0' ? 'http/1.0' : 'http/1.1', headers: req.headers };
    const host = requestHost(req);
    // RFC 9112 3.2: a missing (HTTP/1.1), repeated or malformed Host is a 400, and the connection
    // is closed since the client and any intermediary may disagree on what it asked for.
    const decided = host.error === undefined ? core.decide(req.method, req.url, req.headers)
      : Promise.resolve(core.errorResponse(new RequestError(400, 'ERR_BAD_HOST', host.error), req.method === 'HEAD'));
    decided.then((d) => {
      // While shutting down, finish this response but do not keep the connection.
      if (isClosing() || host.error !== undefined) res.shouldKeepAlive = false;
      res.writeHead(d.status, d.headers);
      const body = d.body;
      if (body === null) {
        res.end();
        core.logAccess(req.method, req.url, d.status, d.coding, 0, startedAt, client);
      } else if (Buffer.isBuffer(body)) {
        res.end(body);
        core.logAccess(req.method, req.url, d.status, d.coding, body.length, startedAt, client);
      } else {
        let sent = 0;
        body.on('data', (chunk) => { sent += chunk.length; });
        // On a client abort or a source error pipeline() destroys both sides: the fd and any
        // compressor are released and a truncated body is never passed off as complete.
        pipeline(body, res, (err) => {
          core.logAccess(req.method, req.url, err ? `${d.status} aborted` : d.status, d.coding, sent, startedAt, client);
        });
      }
    }).catch((err) => {
      // decide() never rejects, so this is a failure while sending: drop this response only.
      log.error(`sending ${req.method} ${req.url} failed: ${err.stack || err}`);
      res.destroy();
    });
  };
}

module.exports = { createHttp1Handler };
