'use strict';
// HTTP/3 end to end: the real server with the QUIC transport (native/quic.js) and aioquic's
// client (test/helpers/h3-client.py, QPACK with a dynamic table, verifying the local CA). Every
// file of the demo site in every coding, dictionary-compressed (dcb/dcz) with
// Available-Dictionary, a Range and a 304 must come out as HTTP/2 gives them, byte for byte;
// HTTP/2 responses advertise HTTP/3 with Alt-Svc. Skipped, saying why, where the transport does
// not run (Node 20, or the addon not built).

const test = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { startTestServer, makeTempDir, REPO_ROOT } = require('../helpers/server');
const { createClients } = require('../helpers/clients');
const { quicSupport, loadQuic } = require('../../server/engines/listen-h3');
const { aioquicMissing, h3Fetch } = require('../helpers/h3-fetch');

const support = quicSupport(loadQuic());
const skip = !support.ok ? `HTTP/3 does not run here: ${support.reason}` : aioquicMissing() ?? false;

const STATIC = path.join(REPO_ROOT, 'static');
const CODINGS = ['identity', 'gzip', 'br', 'zstd', 'gzip, deflate, br, zstd'];
// What may differ between two responses of the same representation.
const VOLATILE = new Set(['date', 'alt-svc']);

function siteFiles(dir, rel = '') {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const child = `${rel}/${e.name}`;
    return e.isDirectory() ? siteFiles(path.join(dir, e.name), child) : [child];
  });
}

const stable = (headers) => Object.fromEntries(Object.entries(headers).filter(([n]) => !n.startsWith(':') && !VOLATILE.has(n)).map(([n, v]) => [n, String(v)]));

test('HTTP/3 answers the demo site exactly as HTTP/2 does', { skip, timeout: 300_000 }, async (t) => {
  const home = await makeTempDir('h3-ca-');
  const caDir = path.join(home, 'ca');
  const server = await startTestServer({ root: STATIC, tls: undefined, caDir, certsDir: path.join(home, 'certs'), precompress: false });
  t.after(async () => {
    await server.close();
    fs.rmSync(home, { recursive: true, force: true });
  });
  assert.equal(server.server.http3Port, server.port);
  const caFile = path.join(caDir, 'ca.pem');
  const { h2, closeAll } = createClients({ port: server.port, ca: fs.readFileSync(caFile) });
  t.after(closeAll);

  const requests = [];
  for (const file of siteFiles(STATIC)) {
    for (const ae of CODINGS) requests.push({ path: file, headers: { 'accept-encoding': ae } });
    // A dictionary the client holds: the file itself (its hash), which dictionary rules may
    // make the base of a dcb/dcz response.
    const hash = crypto.createHash('sha256').update(fs.readFileSync(path.join(STATIC, file))).digest('base64');
    requests.push({ path: file, headers: { 'accept-encoding': 'gzip, br, zstd, dcb, dcz', 'available-dictionary': `:${hash}:`, 'sec-fetch-dest': 'script' } });
    requests.push({ path: file, headers: { range: 'bytes=1-20' } });
  }
  const first = await h2('/index.html');
  assert.equal(first.headers['alt-svc'], `h3=":${server.port}"; ma=86400`);
  requests.push({ path: '/index.html', headers: { 'if-none-match': first.headers.etag } });
  requests.push({ path: '/index.html', method: 'HEAD' });

  const viaH2 = [];
  for (const r of requests) viaH2.push(await h2(r.path, { method: r.method, headers: r.headers }));
  const viaH3 = await h3Fetch(server.port, caFile, requests);
  assert.equal(viaH3.length, requests.length);
  const codings = new Set();
  requests.forEach((r, i) => {
    const what = `${r.method ?? 'GET'} ${r.path} ${JSON.stringify(r.headers)}`;
    assert.equal(viaH3[i].status, viaH2[i].status, what);
    assert.deepEqual(stable(viaH3[i].headers), stable(viaH2[i].headers), what);
    assert.ok(viaH3[i].body.equals(viaH2[i].body), `${what}: ${viaH3[i].body.length} octets over HTTP/3, ${viaH2[i].body.length} over HTTP/2`);
    codings.add(viaH3[i].headers['content-encoding'] ?? 'identity');
  });
  assert.deepEqual([...codings].sort(), ['br', 'dcb', 'dcz', 'gzip', 'identity', 'zstd'].filter((c) => codings.has(c)).sort());
  assert.ok(codings.has('dcb') || codings.has('dcz'), `dictionary codings came out: ${[...codings]}`);
  assert.ok(viaH3.some((r) => r.status === 206) && viaH3.some((r) => r.status === 304));
});

test('with http3: false, or where the transport does not run, nothing listens for QUIC and no Alt-Svc is sent', async (t) => {
  const cases = [{ http3: false }, ...(support.ok ? [] : [{}])];
  for (const options of cases) {
    const server = await startTestServer({ files: { 'a.txt': 'a' }, ...options });
    t.after(() => server.close());
    assert.equal(server.server.http3Port, null);
    const res = await server.h2('/a.txt');
    assert.equal(res.status, 200);
    assert.equal(res.headers['alt-svc'], undefined);
  }
});
