'use strict';
// server/engines/h1/connection.js without a socket: requests pushed into an in-memory socket,
// the exact status lines and the connection's state after them, one row a case.

const test = require('node:test');
const assert = require('node:assert/strict');
const { setImmediate: tick } = require('node:timers/promises');
const { serveHttp1 } = require('../../server/engines/h1');
const { STATE } = require('../../server/engines/h1/connection');
const { TIMEOUTS } = require('../../server/config/limits');
const { MemorySocket } = require('../helpers/memory-socket');

const TURNS = 20;

function stubCore() {
  const respond = (status, text, isHead) => ({ status, headers: { 'content-type': 'text/plain', 'content-length': String(text.length) }, body: isHead ? null : Buffer.from(text), coding: 'identity' });
  return {
    decide: (method, target) => Promise.resolve(respond(200, `ok ${target}`, method === 'HEAD')),
    errorResponse: (err, isHead) => respond(err.status, err.message, isHead),
    logAccess() {},
  };
}

/** The connection after `input`: { heads (status line and connection field of each response), state, errors }. */
async function serve(input) {
  let out = '';
  const errors = [];
  const socket = new MemorySocket((chunk) => { out += chunk.toString('latin1'); }, { alpnProtocol: 'http/1.1' });
  const connection = serveHttp1(socket, {
    core: stubCore(), log: { error: (m) => errors.push(m), debug() {} }, timeouts: TIMEOUTS, isClosing: () => false,
  });
  socket.push(input);
  for (let i = 0; i < TURNS; i++) await tick();
  // The bodies ("ok /a", an error message) never hold a status line.
  const heads = out.split(/(?=HTTP\/1\.1 \d{3} )/).filter(Boolean).map((response) => {
    const head = response.slice(0, response.indexOf('\r\n\r\n'));
    const statusLine = head.slice(0, head.indexOf('\r\n'));
    return /\r\nconnection: close(?:\r\n|$)/.test(head) ? `${statusLine}; connection: close` : statusLine;
  });
  const state = connection.state;
  connection.destroy();
  return { heads, state, errors, connection };
}

const CASES = [
  ['a keep-alive request leaves it reading', 'GET /a HTTP/1.1\r\nHost: x\r\n\r\n', ['HTTP/1.1 200 OK'], STATE.READING],
  ['two pipelined requests, answered in order', 'GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n',
    ['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK'], STATE.READING],
  ['Connection: close ends it after the response', 'GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    ['HTTP/1.1 200 OK; connection: close'], STATE.ENDING],
  ['a request after Connection: close is not taken', 'GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n',
    ['HTTP/1.1 200 OK; connection: close'], STATE.ENDING],
  ['a malformed head is 400 and ends it', 'GET /a HTTP/1.1\r\nHost: x\r\nBad Name: y\r\n\r\n',
    ['HTTP/1.1 400 Bad Request; connection: close'], STATE.ENDING],
  ['a head not yet complete leaves it reading', 'GET /a HTTP/1.1\r\nHost: x\r\n', [], STATE.READING],
];

for (const [name, input, heads, state] of CASES) {
  test(name, async () => {
    const result = await serve(input);
    assert.deepEqual([result.heads, result.state, result.errors], [heads, state, []]);
  });
}

test('an impossible change of state drops the connection and logs it, never throws', async () => {
  const { connection, errors } = await serve('GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  await tick();
  assert.equal(connection.state, STATE.CLOSED);
  connection.advance('stopReading');
  assert.deepEqual([connection.state, errors], [STATE.CLOSED, ['http1 connection: stopReading in state closed']]);
});
