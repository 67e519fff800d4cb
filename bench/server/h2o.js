'use strict';
// h2o 2.2 (Debian package h2o) as a reference server: one thread, TLS with
// the benchmark's certificate, HTTP/2 and HTTP/1.1 on one port, serving the
// precompressed .br and .gz variants next to each file
// (file.send-compressed), no access log.
const fs = require('node:fs/promises');
const path = require('node:path');
const { startExternalServer } = require('./external-server');

function h2oConf({ prefix, root, port, cert, key }) {
  // As root, h2o would switch to "nobody" unless told to stay.
  return `# Written by bench/server/h2o.js for one benchmark run.
${process.getuid() === 0 ? 'user: root\n' : ''}num-threads: 1
pid-file: ${path.join(prefix, 'h2o.pid')}
error-log: ${path.join(prefix, 'error.log')}
listen:
  host: 127.0.0.1
  port: ${port}
  ssl:
    certificate-file: ${cert}
    key-file: ${key}
    minimum-version: TLSv1.2
    # A self-signed certificate has no OCSP responder to ask.
    ocsp-update-interval: 0
hosts:
  default:
    paths:
      /:
        file.dir: ${root}
        file.send-compressed: ON
`;
}

// Resolves to { url, pgid, stop() }.
function startH2o({ tmpDir, pin, ...conf }) {
  return startExternalServer({
    name: 'h2o',
    tmpDir,
    pin,
    async configure(prefix, port) {
      const file = path.join(prefix, 'h2o.conf');
      await fs.writeFile(file, h2oConf({ ...conf, prefix, port }));
      return ['h2o', ['-c', file]];
    },
  });
}

module.exports = { startH2o, h2oConf };
