'use strict';
// Behind a real shared cache (Debian's nginx with proxy_cache, started by the test), clients
// with different Accept-Encoding and Available-Dictionary each get their own correct, decodable
// representation, from the cache the second time: the origin's Vary (Accept-Encoding,
// Available-Dictionary) and ETags are what a CDN needs to keep deltas apart.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs/promises');
const path = require('node:path');
const zlib = require('node:zlib');
const { forEachEngine, startTestServer, makeTempDir, testCertificate } = require('../helpers/server');
const { plainRequest } = require('../helpers/plain-http');
const { toolSkipReason } = require('../helpers/tools');
const { waitFor } = require('../helpers/poll');
const { appScript } = require('../helpers/dictionary-site');
const { startExternalServer } = require('../../bench/server/external-server');
const { createEngines } = require('../../server/compression/codings');
const { createDictionaryEngines } = require('../../server/dictionaries/dictionary-codings');

const V1 = Buffer.from(appScript('v1', 64 * 1024));
const V2 = Buffer.from(appScript('v2', 64 * 1024));
const sfHash = (bytes) => `:${crypto.createHash('sha256').update(bytes).digest('base64')}:`;
const dictionaryEngines = createDictionaryEngines(createEngines());

function nginxConf({ prefix, port, originPort, ca }) {
  const tmp = (name) => path.join(prefix, name);
  return `${process.getuid() === 0 ? 'user root;' : ''}
worker_processes 1;
pid ${tmp('nginx.pid')};
error_log ${tmp('error.log')} warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${tmp('body')};
  proxy_temp_path ${tmp('proxy')};
  fastcgi_temp_path ${tmp('fastcgi')};
  uwsgi_temp_path ${tmp('uwsgi')};
  scgi_temp_path ${tmp('scgi')};
  proxy_cache_path ${tmp('cache')} levels=1 keys_zone=origin:1m max_size=64m inactive=10m;
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass https://127.0.0.1:${originPort};
      proxy_http_version 1.1;
      proxy_ssl_server_name on;
      proxy_ssl_name localhost;
      proxy_ssl_verify on;
      proxy_ssl_trusted_certificate ${ca};
      proxy_cache origin;
      add_header X-Cache-Status $upstream_cache_status always;
    }
  }
}
`;
}

// [label, request headers, expected coding, decode(body) → content]
const CLIENTS = [
  ['br client', { 'accept-encoding': 'br' }, 'br', (body) => zlib.brotliDecompressSync(body)],
  ['gzip client', { 'accept-encoding': 'gzip' }, 'gzip', (body) => zlib.gunzipSync(body)],
  ['dcb client holding v1', { 'accept-encoding': 'br, dcb', 'available-dictionary': sfHash(V1) }, 'dcb', (body) => dictionaryEngines.decompress('dcb', body, V1)],
  ['dcb client holding another dictionary', { 'accept-encoding': 'br, dcb', 'available-dictionary': sfHash(Buffer.from('other')) }, 'br', (body) => zlib.brotliDecompressSync(body)],
  ['dcz client holding v1', { 'accept-encoding': 'zstd, dcz', 'available-dictionary': sfHash(V1) }, 'dcz', (body) => dictionaryEngines.decompress('dcz', body, V1)],
];

forEachEngine((engine) => {
  test('behind nginx proxy_cache each client gets its own representation', { timeout: 60_000 }, async (t) => {
    const skip = toolSkipReason('nginx', 'nginx');
    if (skip) {
      t.skip(skip);
      return;
    }
    const s = await startTestServer({
      engine, files: { 'assets/app.v1.js': V1, 'assets/app.v2.js': V2 },
      dictionaries: [{ match: '/assets/app.*.js' }],
      headers: [{ match: 'assets/*.js', headers: { 'cache-control': 'public, max-age=600' } }],
    });
    t.after(() => s.close());
    await waitFor(() => s.stats.dictionaries >= 2, { what: 'the dictionary scan' });
    const dir = await makeTempDir('dictionary-cache-');
    t.after(() => fs.rm(dir, { recursive: true, force: true }));
    const ca = path.join(dir, 'origin.pem');
    await fs.writeFile(ca, (await testCertificate()).cert);
    const nginx = await startExternalServer({
      name: 'nginx', tmpDir: dir, pin: (cmd, args) => [cmd, args],
      async configure(prefix, port) {
        const file = path.join(prefix, 'nginx.conf');
        await fs.writeFile(file, nginxConf({ prefix, port, originPort: s.port, ca }));
        return ['nginx', ['-p', prefix, '-c', file, '-g', 'daemon off;']];
      },
    });
    t.after(() => nginx.stop());
    const port = Number(new URL(nginx.url).port);

    const etags = new Map();
    for (const round of ['MISS', 'HIT']) {
      for (const [label, headers, coding, decode] of CLIENTS) {
        const r = await plainRequest(port, '/assets/app.v2.js', { headers });
        assert.equal(r.status, 200, `${label}, ${round}`);
        assert.equal(r.headers['content-encoding'], coding, `${label}, ${round}`);
        assert.deepEqual(await decode(r.body), V2, `${label}, ${round}`);
        assert.equal(r.headers.vary, 'Accept-Encoding, Available-Dictionary');
        assert.equal(r.headers['x-cache-status'], round, `${label}: cache status`);
        if (round === 'MISS') etags.set(label, r.headers.etag);
        else assert.equal(r.headers.etag, etags.get(label), label);
      }
    }
    assert.equal(new Set(etags.values()).size, 4, 'br twice, gzip, dcb, dcz');
  });
});
