'use strict';
// A loopback TCP port free right now, for servers that cannot listen on port 0
// and report it (nginx). Another process could take it before it is used;
// on a benchmark machine that race is accepted.
const net = require('node:net');

function freePort(host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

module.exports = { freePort };
