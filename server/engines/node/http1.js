'use strict';
// HTTP/1.1 adapter (ALPN http/1.1 or no ALPN): hands the request to the core and writes the
// descriptor it returns through the classic req/res API.

const { sendResponse } = require('./send-response');
const { loggedStatus } = require('../send-out');
const { requestHost } = require('../../http/host-header');
const { dispatch } = require('../dispatch');
const { CODES, ERR_BAD_HOST } = require('../../errors');
const { LINGER_MS } = require('../../config/limits');

// Responses one connection may have started and not yet flushed to its socket. A client that
// pipelines requests and never reads its responses stops being read once it has this many:
// later requests already parsed wait unprocessed, and the socket and the parser are paused
// until responses flush. (Node pauses on its own only when, at the moment a request is parsed,
// earlier responses have already clogged the socket; our responses come after an await, so
// that check always sees an idle socket and a flood of pipelined requests is read and served
// into memory.)
const MAX_PENDING_RESPONSES = 8;

// Holding a connection uses only the socket's public pause() and resume(). Node's HTTP/1.1
// server feeds its parser straight from the TLS handle, which goes on delivering the records it
// already decrypted after a pause; a 'data' listener makes it feed the parser through the
// socket's stream instead, which holds data back while paused. That costs a little per read,
// so it is added only to connections that pipeline (a request arriving while another is
// pending), the only ones a hold can reach. Node resumes the socket on its own (each request it
// reads resumes it, and so does a drain); while the connection is held here, that resume is
// undone before any data flows ('resume' is emitted before the stream flows again).
function ignore() {}

function holdable(socket, line) {
  socket.on('data', ignore);
  socket.on('resume', () => { if (line.held) socket.pause(); });
}

function stopReading(socket, line) {
  if (line.held) return;
  line.held = true;
  socket.pause();
}

function resumeReading(socket, line) {
  if (!line.held) return;
  line.held = false;
  socket.resume();
}

// meter: this protocol's metrics (server/metrics/recorder.js).
function createHttp1Handler(core, log, isClosing, meter) {
  // Per connection: responses started and not closed, and requests waiting for one to close.
  const lines = new WeakMap();

  // req.url needs no check against request-target.js: llhttp refuses every byte that rule
  // refuses (400 and close), --insecure-http-parser or not.
  function respond(req, res) {
    const startedAt = performance.now();
    const client = { remoteAddress: req.socket.remoteAddress, protocol: req.httpVersion === '1.0' ? 'http/1.0' : 'http/1.1', headers: req.headers };
    const host = requestHost(req);
    // RFC 9112 3.2: a missing (HTTP/1.1), repeated or malformed Host is a 400, and the connection
    // is closed since the client and any intermediary may disagree on what it asked for.
    const refusal = host.error === undefined ? null : ERR_BAD_HOST(host.error);
    dispatch(core, log, { method: req.method, target: req.url, headers: req.headers, refusal, connection: req.socket }, (d) => {
      // While shutting down, finish this response but do not keep the connection.
      if (isClosing() || refusal !== null) res.shouldKeepAlive = false;
      sendResponse(res, d, req.method === 'HEAD', (outcome, sent) => {
        core.logAccess(req.method, req.url, loggedStatus(d.status, outcome), d.coding, sent, startedAt, client);
      }, meter, startedAt);
    }, () => res.destroy());
  }

  // A response closes once its last byte went to the socket, or with the socket.
  function start(line, socket, req, res) {
    line.pending++;
    res.once('close', () => {
      line.pending--;
      if (socket.destroyed) { line.waiting.length = 0; return; }
      while (line.pending < MAX_PENDING_RESPONSES && line.waiting.length > 0) start(line, socket, ...line.waiting.shift());
      if (line.waiting.length === 0) resumeReading(socket, line);
    });
    respond(req, res);
  }

  return function onRequest(req, res) {
    const socket = req.socket;
    let line = lines.get(socket);
    if (line === undefined) {
      line = { pending: 0, waiting: [], held: false, holdable: false };
      lines.set(socket, line);
    }
    if (line.pending > 0 && !line.holdable) {
      line.holdable = true;
      holdable(socket, line);
    }
    if (line.pending < MAX_PENDING_RESPONSES && line.waiting.length === 0) {
      start(line, socket, req, res);
      return;
    }
    line.waiting.push([req, res]);
    stopReading(socket, line);
  };
}

// What a request Node's parser refused gets; anything else is 400.
const CLIENT_ERROR_STATUS = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Content Too Large',
  [CODES.ERR_HTTP_REQUEST_TIMEOUT]: '408 Request Timeout',
};

// The server's 'clientError' listener. Node's own writes the answer and destroys the socket at
// once: with the refused request's bytes still unread (a 64 KiB head past the limit), the kernel
// then resets the connection, and a client can read the reset instead of the answer (Node 24
// does, every time). So the answer goes out, our side closes, and input is read and dropped
// for LINGER_MS before the socket goes (RFC 9112 9.6), as the native engine's HTTP/1.1 does.
function answerClientError(err, socket) {
  if (socket.destroyed) return;
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  // A response already under way cannot be followed by another status line.
  const started = socket._httpMessage?._headerSent === true;
  const answer = started ? undefined : `HTTP/1.1 ${CLIENT_ERROR_STATUS[err.code] ?? '400 Bad Request'}\r\nConnection: close\r\n\r\n`;
  socket.resume();
  socket.end(answer, () => setTimeout(() => socket.destroy(), LINGER_MS).unref());
}

module.exports = { createHttp1Handler, answerClientError, MAX_PENDING_RESPONSES };
