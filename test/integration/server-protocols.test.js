'use strict';
// Protocols and connections: ALPN h2 and http/1.1 on one port, curl as an independent client.
// Client aborts are robust-server-aborts', files changing mid-response robust-server-file-changes'.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const https = require('node:https');
const { forEachEngine, startTestServer, compressibleText } = require('../helpers/server');
const { decode, curlSkipReason } = require('../helpers/clients');

const TEXT = compressibleText(50_000, 'proto');

forEachEngine((engine) => {
  test('ALPN: h2 and http/1.1 on one port, and clients without ALPN', async (t) => {
    const srv = await startTestServer({ engine, files: { 'a.txt': TEXT } });
    t.after(() => srv.close());
    const h2 = await srv.h2('/a.txt');
    assert.equal(h2.alpn, 'h2');
    assert.equal(h2.body.toString(), TEXT);
    const h1 = await srv.h1('/a.txt');
    assert.equal(h1.alpn, 'http/1.1');
    assert.equal(h1.httpVersion, '1.1');
    assert.equal(h1.body.toString(), TEXT);
    const noAlpn = await new Promise((resolve, reject) => {
      https.get({ host: '127.0.0.1', port: srv.port, path: '/a.txt', ca: srv.server.certificate, servername: 'localhost', agent: false }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ alpn: res.socket.alpnProtocol, body: Buffer.concat(chunks).toString() }));
      }).on('error', reject);
    });
    assert.equal(noAlpn.alpn, false);
    assert.equal(noAlpn.body, TEXT);
  });

  test('curl', { skip: curlSkipReason() }, async (t) => {
    const srv = await startTestServer({ engine, files: { 'a.txt': TEXT, 'dir/index.html': '<p>i</p>' } });
    t.after(() => srv.close());
    for (const proto of ['--http2', '--http1.1']) {
      const version = await srv.curl('/a.txt', [proto, '-o', '/dev/null', '-w', '%{http_version}']);
      assert.equal(version.code, 0, version.stderr);
      assert.equal(version.stdout.toString(), proto === '--http2' ? '2' : '1.1');
      const compressed = await srv.curl('/a.txt', [proto, '--compressed']);
      assert.equal(compressed.code, 0, compressed.stderr);
      assert.equal(compressed.stdout.toString(), TEXT, `${proto} --compressed decodes to the original`);
      for (const coding of ['br', 'zstd', 'gzip', 'deflate', 'lzma']) {
        const tmp = path.join(srv.tmp, `body.${coding}`);
        const res = await srv.curl('/a.txt', [proto, '-H', `Accept-Encoding: ${coding}`, '-D', '-', '-o', tmp]);
        assert.equal(res.code, 0, res.stderr);
        assert.match(res.stdout.toString(), new RegExp(`^content-encoding: ${coding}\\r$`, 'mi'));
        assert.match(res.stdout.toString(), /^vary: Accept-Encoding\r$/mi);
        assert.equal((await decode(coding, fs.readFileSync(tmp))).toString(), TEXT, `${proto} ${coding}`);
      }
      const redirect = await srv.curl('/dir?q=1', [proto, '-o', '/dev/null', '-w', '%{http_code} %{redirect_url}']);
      assert.equal(redirect.stdout.toString(), `301 https://localhost:${srv.port}/dir/?q=1`);
      const notAcceptable = await srv.curl('/a.txt', [proto, '-H', 'Accept-Encoding: identity;q=0, snappy', '-o', '/dev/null', '-w', '%{http_code}']);
      assert.equal(notAcceptable.stdout.toString(), '406');
    }
  });
});
