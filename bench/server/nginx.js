'use strict';
// nginx as a reference server: Debian's nginx with the brotli_static module,
// serving a corpus root over TLS with HTTP/1.1 and HTTP/2 from its own
// temporary prefix, configured like a tuned static-file server. With
// openFileCache it also keeps open descriptors and stat results of the
// served files for 60 s, its strongest setting for serving a few small
// files over and over.
const fs = require('node:fs/promises');
const path = require('node:path');
const { startExternalServer } = require('./external-server');

const BROTLI_STATIC = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';

const OPEN_FILE_CACHE = `
  open_file_cache max=1000 inactive=60s;
  open_file_cache_valid 60s;
  open_file_cache_min_uses 1;
  open_file_cache_errors on;`;

// Types of the corpus files only; nginx's mime.types is not needed.
function nginxConf({ prefix, root, port, workers, cert, key, openFileCache = false }) {
  const tmp = (name) => path.join(prefix, 'tmp', name);
  return `# Written by bench/server/nginx.js for one benchmark run.
load_module ${BROTLI_STATIC};
${process.getuid() === 0 ? 'user root;' : ''}
worker_processes ${workers};
pid ${path.join(prefix, 'nginx.pid')};
error_log ${path.join(prefix, 'error.log')} warn;
events { worker_connections 4096; }
http {
  access_log off;
  types { text/html html; text/javascript js; text/css css; image/png png; text/plain txt; }
  default_type application/octet-stream;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  # Node keeps HTTP/1.1 connections open indefinitely; nginx's default of 1000
  # requests per connection would add TLS handshakes to nginx's rows only.
  keepalive_requests 1000000;
  keepalive_timeout 65s;
  gzip off;
  gzip_static on;
  brotli_static on;${openFileCache ? OPEN_FILE_CACHE : ''}
  client_body_temp_path ${tmp('body')};
  proxy_temp_path ${tmp('proxy')};
  fastcgi_temp_path ${tmp('fastcgi')};
  uwsgi_temp_path ${tmp('uwsgi')};
  scgi_temp_path ${tmp('scgi')};
  server {
    listen 127.0.0.1:${port} ssl http2;
    server_name localhost;
    ssl_certificate ${cert};
    ssl_certificate_key ${key};
    ssl_protocols ${openFileCache ? 'TLSv1.3' : 'TLSv1.2 TLSv1.3'};
    ssl_session_cache shared:SSL:10m;
    ssl_session_timeout 1h;
    ssl_session_tickets on;
    root ${root};
  }
}
`;
}

// Resolves to { url, pgid, stop() }; pin wraps the command (taskset) so the
// master and its workers share the server core.
function startNginx({ tmpDir, pin, ...conf }) {
  return startExternalServer({
    name: 'nginx',
    tmpDir,
    pin,
    async configure(prefix, port) {
      await fs.mkdir(path.join(prefix, 'tmp'));
      const file = path.join(prefix, 'nginx.conf');
      await fs.writeFile(file, nginxConf({ ...conf, prefix, port }));
      return ['nginx', ['-p', prefix, '-c', file, '-g', 'daemon off;']];
    },
  });
}

module.exports = { startNginx, nginxConf, BROTLI_STATIC };
