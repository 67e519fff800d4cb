'use strict';
// Real clients over real TLS sockets: Node's https (HTTP/1.1 via ALPN), Node's http2, and
// curl. Every call resolves { status, headers, body } with the raw (still encoded) body.

const https = require('node:https');
const http2 = require('node:http2');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { createEngines } = require('../../server/compression/codings');
const { toolSkipReason } = require('./tools');
const { decodeBody } = require('../../bench/lib/decode-body');

const REQUEST_TIMEOUT_MS = 10_000;

const engines = createEngines();

// Bodies are decoded as the benchmarks decode them (bench/lib/decode-body.js): with the
// libraries directly, not through the server's engines.
const decode = decodeBody;

// false when curl is installed, else the reason to skip (fits node:test's { skip }).
function curlSkipReason() {
  return toolSkipReason('curl', 'curl');
}

function createClients({ port, ca, host = '127.0.0.1' }) {
  const sessions = new Set();

  function h1(path, { method = 'GET', headers = {} } = {}) {
    return new Promise((resolve, reject) => {
      const req = https.request({
        host, port, path, method, headers, ca, servername: 'localhost', agent: false,
        ALPNProtocols: ['http/1.1'], timeout: REQUEST_TIMEOUT_MS,
      }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({
          status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks),
          alpn: res.socket.alpnProtocol, httpVersion: res.httpVersion,
        }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`timeout: ${method} ${path}`)));
      req.on('error', reject);
      req.end();
    });
  }

  function connectH2() {
    const session = http2.connect(`https://${host}:${port}`, { ca, servername: 'localhost' });
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
    session.on('error', () => {});
    return session;
  }

  let shared = null;
  // Requests over one shared HTTP/2 session unless `session` is given.
  function h2(path, { method = 'GET', headers = {}, session } = {}) {
    if (!session) {
      if (!shared || shared.closed || shared.destroyed) shared = connectH2();
      session = shared;
    }
    return new Promise((resolve, reject) => {
      const stream = session.request({ ':method': method, ':path': path, ...headers });
      stream.setTimeout(REQUEST_TIMEOUT_MS, () => stream.close(http2.constants.NGHTTP2_CANCEL));
      let response = null;
      const chunks = [];
      stream.on('response', (h) => { response = h; });
      stream.on('data', (c) => chunks.push(c));
      stream.on('end', () => {
        if (response === null) return; // 'close' rejects: the stream ended with no response
        const { ':status': status, ...rest } = response;
        resolve({ status, headers: rest, body: Buffer.concat(chunks), alpn: session.alpnProtocol });
      });
      stream.on('error', reject);
      stream.on('close', () => {
        if (!response || stream.rstCode) reject(new Error(`stream closed (rst ${stream.rstCode}) before a full response`));
      });
      stream.end();
    });
  }

  let caDir = null;
  // Runs curl (verifying the certificate) against the server; args go before the URL.
  // Resolves { code, stdout (Buffer), stderr }.
  function curl(target, args = []) {
    caDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'negotiate-ca-'));
    const caFile = path.join(caDir, 'ca.pem');
    fs.writeFileSync(caFile, ca);
    return new Promise((resolve) => {
      execFile('curl', ['-sS', '--cacert', caFile, '--resolve', `localhost:${port}:${host}`, ...args, `https://localhost:${port}${target}`],
        { encoding: 'buffer', timeout: REQUEST_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 },
        (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr: stderr.toString() }));
    });
  }

  async function closeAll() {
    if (caDir) fs.rmSync(caDir, { recursive: true, force: true });
    await Promise.all([...sessions].map((s) => new Promise((resolve) => {
      if (s.closed || s.destroyed) resolve();
      else s.close(resolve);
    })));
  }

  return { h1, h2, connectH2, curl, closeAll };
}

// A session whose `count` streams for `path` never read: its SETTINGS_INITIAL_WINDOW_SIZE is
// `initialWindowSize` and it never sends WINDOW_UPDATE, so the server may send each stream
// only that many bytes. Returns { session, streams, responses } (a promise of each stream's headers).
function stalledStreams({ origin, ca, path, count, headers = {}, initialWindowSize = 0 }) {
  const session = http2.connect(origin, { ca, servername: 'localhost', settings: { initialWindowSize } });
  session.on('error', () => {});
  const streams = [];
  const responses = [];
  for (let i = 0; i < count; i++) {
    const stream = session.request({ ':path': path, ...headers });
    stream.on('error', () => {});
    responses.push(new Promise((resolve) => stream.once('response', resolve)));
    stream.end();
    streams.push(stream);
  }
  return { session, streams, responses };
}

module.exports = { createClients, stalledStreams, decode, curlSkipReason, engines };
