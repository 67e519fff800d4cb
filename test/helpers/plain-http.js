'use strict';
// A plain-HTTP/1.1 client (node:http) resolving { status, headers, body } with the raw body,
// the same shape as the TLS clients in clients.js.

const http = require('node:http');

const REQUEST_TIMEOUT_MS = 10_000;

function plainRequest(port, path, { method = 'GET', headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers, agent: false, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timeout: ${method} ${path}`)));
    req.on('error', reject);
    req.end();
  });
}

module.exports = { plainRequest };
