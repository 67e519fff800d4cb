'use strict';
// nginx as the reference server: Debian's nginx with the brotli_static
// module, serving a corpus root over TLS with HTTP/1.1 and HTTP/2 from its
// own temporary prefix, configured like a tuned static-file server.
const fs = require('node:fs/promises');
const net = require('node:net');
const path = require('node:path');
const { spawnGroup, stopGroup } = require('../lib/process-group');
const { freePort } = require('../lib/free-port');

const BROTLI_STATIC = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';

// Types of the corpus files only; nginx's mime.types is not needed.
function nginxConf({ prefix, root, port, workers, cert, key }) {
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
  types { text/html html; text/javascript js; text/css css; image/png png; }
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
  brotli_static on;
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
    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_session_cache shared:SSL:10m;
    ssl_session_timeout 1h;
    ssl_session_tickets on;
    root ${root};
  }
}
`;
}

// Starts nginx; resolves to { url, pgid, stop() }. pin wraps the command
// (taskset) so the master and its workers share the server core.
async function startNginx({ tmpDir, root, workers, cert, key, pin }) {
  const prefix = await fs.mkdtemp(path.join(tmpDir, 'nginx-'));
  await fs.mkdir(path.join(prefix, 'tmp'));
  const port = await freePort();
  const conf = path.join(prefix, 'nginx.conf');
  await fs.writeFile(conf, nginxConf({ prefix, root, port, workers, cert, key }));
  const [cmd, args] = pin('nginx', ['-p', prefix, '-c', conf, '-g', 'daemon off;']);
  const child = spawnGroup(cmd, args);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c) => { stderr = (stderr + c).slice(-2000); });
  child.stdout.resume();
  await waitForListening(child, port, () => stderr);
  return {
    url: `https://127.0.0.1:${port}/`,
    pgid: child.pid,
    async stop() {
      await stopGroup(child);
      await fs.rm(prefix, { recursive: true, force: true });
    },
  };
}

// nginx prints nothing when ready: poll until the port accepts connections.
async function waitForListening(child, port, stderr, timeoutMs = 10000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw Object.assign(new Error(`nginx exited ${child.exitCode}: ${stderr().trim()}`), { code: 'ESTARTUP' });
    }
    const ok = await new Promise((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => { s.destroy(); resolve(true); });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  await stopGroup(child);
  throw Object.assign(new Error(`nginx did not listen on ${port} within ${timeoutMs} ms: ${stderr().trim()}`), { code: 'ESTARTUP' });
}

module.exports = { startNginx, nginxConf, BROTLI_STATIC };
