'use strict';
// Plain-HTTP listener whose only job is to send clients to the HTTPS port, under a name the
// server answers for: the Host header is client input, and echoing any name would let a link to
// this port send visitors to someone else's site.

const http = require('node:http');
const { requestHost, createHostMatcher } = require('../http/host-header');

/**
 * @param {object} options
 * @param {number} options.httpsPort
 * @param {string[]} options.hostNames names to redirect to (certificate names, --public-host);
 *   any other Host, or none, gets 400.
 */
function createRedirectServer({ httpsPort, hostNames }) {
  const isServed = createHostMatcher(hostNames);
  const port = httpsPort === 443 ? '' : `:${httpsPort}`;
  // Node's own Host check would answer before ours, with an empty body.
  return http.createServer({ requireHostHeader: false }, (req, res) => {
    const { host, error } = requestHost(req);
    if (error !== undefined || host === null || !isServed(host.name)) {
      const body = `${error ?? (host === null ? 'missing Host header' : 'not a name this server answers for')}\n`;
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(body.length), 'connection': 'close' });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    const target = req.url.startsWith('/') ? req.url : '/';
    // 301 for GET/HEAD (what browsers expect), 308 otherwise so the method and body are kept.
    const status = req.method === 'GET' || req.method === 'HEAD' ? 301 : 308;
    const body = `moved to HTTPS\n`;
    res.writeHead(status, {
      'location': `https://${host.name}${port}${target}`,
      'content-type': 'text/plain; charset=utf-8',
      'content-length': String(body.length),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
}

module.exports = { createRedirectServer };
