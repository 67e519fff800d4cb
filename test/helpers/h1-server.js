'use strict';
// The native HTTP/1.1 engine (server/engines/h1) alone on a TLS server in front of a stand-in core, for
// tests that decide what the core answers and when. Tests with the real core use
// startTestServer({ engine: 'native' }).

const tls = require('node:tls');
const { TIMEOUTS } = require('../../server/config/limits');
const { serveHttp1 } = require('../../server/engines/h1');
const { testCertificate } = require('./server');

// core: { decide(method, target, headers), errorResponse(err, isHead), logAccess(...) } like
// server/decision/core.js.
// Resolves { port, ca, close() }; close() is graceful, like startServer's.
async function startWithCore(core, { timeouts = {} } = {}) {
  const cert = await testCertificate();
  let closing = false;
  const handles = new Set();
  const ctx = { core, log: core.log, timeouts: { ...TIMEOUTS, ...timeouts }, isClosing: () => closing };
  const server = tls.createServer({ cert: cert.cert, key: cert.key, ALPNProtocols: ['http/1.1'] }, (socket) => {
    const handle = serveHttp1(socket, ctx);
    handles.add(handle);
    handle.once('close', () => handles.delete(handle));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    ca: cert.cert,
    close() {
      closing = true;
      const closed = new Promise((resolve) => server.close(resolve));
      for (const handle of handles) handle.close();
      return closed;
    },
  };
}

module.exports = { startWithCore };
