'use strict';
// Plain-HTTP listener whose only job is to send clients to the HTTPS port.

const http = require('node:http');

const HOSTNAME = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])$/i;

// The Host header is client input; only a syntactically plain host name is echoed into
// Location, anything else falls back to the configured name.
function hostOnly(header, fallback) {
  if (typeof header !== 'string') return fallback;
  const host = header.startsWith('[') ? header.slice(0, header.indexOf(']') + 1) : header.split(':')[0];
  return HOSTNAME.test(host) ? host : fallback;
}

function createRedirectServer({ httpsPort, fallbackHost }) {
  return http.createServer((req, res) => {
    const host = hostOnly(req.headers.host, fallbackHost);
    const port = httpsPort === 443 ? '' : `:${httpsPort}`;
    const target = req.url.startsWith('/') ? req.url : '/';
    // 301 for GET/HEAD (what browsers expect), 308 otherwise so the method and body are kept.
    const status = req.method === 'GET' || req.method === 'HEAD' ? 301 : 308;
    const body = `moved to HTTPS\n`;
    res.writeHead(status, {
      'location': `https://${host}${port}${target}`,
      'content-type': 'text/plain; charset=utf-8',
      'content-length': String(body.length),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
}

module.exports = { createRedirectServer };
