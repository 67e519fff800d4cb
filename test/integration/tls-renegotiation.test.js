'use strict';
// Client-initiated TLS 1.2 renegotiation is refused on every engine and protocol, and on both
// transports of the native engine (server/engines/tls-renegotiation.js; on the C transport
// native/transport/tls_context.c refuses it and the socket reports it as node:tls does): with `openssl s_client -tls1_2` and its R command an
// HTTP/1.1 connection is closed and no request after it is answered, an h2 connection is closed
// too, and a renegotiating h2 client reads GOAWAY PROTOCOL_ERROR (RFC 9113 9.2.1). A TLS 1.3
// KeyUpdate (s_client's k) is no renegotiation: the request after it is answered.

const test = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const { forEachEngine, startTestServer } = require('../helpers/server');
const { toolSkipReason, commandPath } = require('../helpers/tools');
const { RawH2Client } = require('../helpers/h2-raw-client');
const { waitFor } = require('../helpers/poll');
const { TYPE, FLAG } = require('../helpers/h2-frames');

const skip = toolSkipReason('openssl', 'openssl');
const PROTOCOL_ERROR = 0x1;
const GET = 'GET /index.html HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n';
// s_client is given this long to give up after the server closed (it is never asked to quit).
const EXIT_MS = 5000;

/**
 * Runs s_client and feeds it `steps` one at a time, each once `after` appeared in the output
 * once more than it had (each stdin write is one read for s_client: a line that starts with R
 * renegotiates, k updates keys). stdin stays open, so s_client only exits when the server
 * closes the connection. Resolves { output (string), exited (whether it exited within EXIT_MS
 * of the last step) }.
 */
async function sClient(port, { version, alpn, steps }) {
  const child = spawn(commandPath('openssl'), ['s_client', version, '-alpn', alpn, '-connect', `127.0.0.1:${port}`, '-servername', 'localhost'],
    { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => { output += chunk.toString('latin1'); });
  child.stderr.on('data', (chunk) => { output += chunk.toString('latin1'); });
  child.stdin.on('error', () => {}); // the server closed and s_client with it
  let exited = false;
  const exit = new Promise((resolve) => child.once('exit', () => { exited = true; resolve(); }));
  const seen = new Map();
  try {
    for (const { after, send } of steps) {
      const before = seen.get(after) ?? 0;
      await waitFor(() => exited || count(output, after) > before, { what: () => `"${after}" in s_client's output:\n${output}` });
      if (exited) break;
      seen.set(after, count(output, after));
      child.stdin.write(send);
    }
    await waitFor(() => exited, { timeoutMs: EXIT_MS, what: 's_client to exit' }).catch(() => {});
    return { output, exited };
  } finally {
    child.kill();
    await exit;
  }
}

function count(text, marker) {
  return text.split(marker).length - 1;
}

const HANDSHAKE_DONE = 'SSL handshake has read';

forEachEngine((engine, transport) => {
  let t;
  test.before(async () => {
    t = await startTestServer({ engine, transport, files: { 'index.html': '<p>hi</p>' } });
  });
  test.after(() => t.close());

  test('HTTP/1.1 over TLS 1.2: a renegotiation closes the connection, the request after it is not answered', { skip }, async () => {
    const { output, exited } = await sClient(t.port, {
      version: '-tls1_2',
      alpn: 'http/1.1',
      steps: [{ after: HANDSHAKE_DONE, send: 'R\n' }, { after: 'RENEGOTIATING', send: GET }],
    });
    assert.equal(exited, true, `s_client still connected:\n${output}`);
    assert.doesNotMatch(output, /HTTP\/1\.1 200/);
  });

  test('h2 over TLS 1.2: a renegotiation closes the connection', { skip }, async () => {
    const { output, exited } = await sClient(t.port, {
      version: '-tls1_2',
      alpn: 'h2',
      steps: [{ after: HANDSHAKE_DONE, send: 'R\n' }],
    });
    assert.equal(exited, true, `s_client still connected:\n${output}`);
  });

  test('h2 over TLS 1.2: a renegotiating client reads GOAWAY PROTOCOL_ERROR', async () => {
    const client = await RawH2Client.connect(t.port, { tlsOptions: { maxVersion: 'TLSv1.2' } });
    try {
      // Nothing of the server's may be in flight when the client renegotiates: OpenSSL's client
      // refuses application data in the middle of its handshake.
      await client.waitFor((f) => f.type === TYPE.SETTINGS && (f.flags & FLAG.ACK) !== 0);
      client.socket.renegotiate({ rejectUnauthorized: false }, () => {});
      const { code } = await client.goaway();
      assert.equal(code, PROTOCOL_ERROR);
      await client.closed;
    } finally {
      await client.close();
    }
  });

  test('HTTP/1.1 over TLS 1.3: KeyUpdate is no renegotiation, the request after it is answered', { skip }, async () => {
    const { output } = await sClient(t.port, {
      version: '-tls1_3',
      alpn: 'http/1.1',
      steps: [{ after: HANDSHAKE_DONE, send: 'k\n' }, { after: 'KEYUPDATE', send: 'k\n' }, { after: 'KEYUPDATE', send: GET }],
    });
    assert.match(output, /HTTP\/1\.1 200 OK/);
  });
}, { transports: true });
