'use strict';
// One GET over HTTPS/1.1 or HTTP/2 with a given Accept-Encoding, returning
// status, headers and the raw (still encoded) body. Certificates are not
// verified: benchmarks use throwaway self-signed ones on loopback.
const https = require('node:https');
const http2 = require('node:http2');

function fetchH1(url, headers, timeoutMs) {
  return new Promise((resolve, reject) => {
    const req = https.get(url, { headers, rejectUnauthorized: false, agent: false, timeout: timeoutMs }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error(`GET ${url} timed out`), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
  });
}

function fetchH2(url, headers, timeoutMs) {
  return new Promise((resolve, reject) => {
    const { origin, pathname, search } = new URL(url);
    const session = http2.connect(origin, { rejectUnauthorized: false });
    const fail = (err) => {
      session.destroy();
      reject(err);
    };
    session.on('error', fail);
    session.setTimeout(timeoutMs, () => fail(Object.assign(new Error(`GET ${url} timed out`), { code: 'ETIMEDOUT' })));
    const stream = session.request({ ':path': pathname + search, ...headers });
    const chunks = [];
    let head;
    stream.on('response', (h) => { head = h; });
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', () => {
      session.close();
      resolve({ status: head[':status'], headers: head, body: Buffer.concat(chunks) });
    });
    stream.on('error', fail);
  });
}

// protocol: 'h1' | 'h2'; acceptEncoding null sends no Accept-Encoding.
function fetchSample(url, { protocol, acceptEncoding, timeoutMs = 30000 }) {
  const headers = acceptEncoding === null ? {} : { 'accept-encoding': acceptEncoding };
  return protocol === 'h2' ? fetchH2(url, headers, timeoutMs) : fetchH1(url, headers, timeoutMs);
}

module.exports = { fetchSample };
