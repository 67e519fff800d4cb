'use strict';
// --metrics: a server with its metrics listener on 127.0.0.1 port 0 answers a known set of
// requests (br, gzip, a precompressed variant, identity, a 304, a 404) over real HTTP/2 and
// HTTP/1.1 clients, then one scrape of GET /metrics has exactly those counts and the bytes the
// clients received. Then the listener's own answers (404, 405, HEAD), and off loopback: HTTPS
// with the bearer token, or no start at all.

const test = require('node:test');
const { describe, before, after } = test;
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const crypto = require('node:crypto');
const https = require('node:https');
const net = require('node:net');
const path = require('node:path');
const zlib = require('node:zlib');
const { forEachEngine, forEachTransport, startTestServer, compressibleText, makeTempDir, spawnCli } = require('../helpers/server');
const { waitFor } = require('../helpers/poll');
const { RawH2Client } = require('../helpers/h2-raw-client');
const { TYPE, FLAG, frame } = require('../helpers/h2-frames');
const { appScript } = require('../helpers/dictionary-site');

const HANDSHAKE_DEADLINE_MS = 200;

const TEXT = compressibleText(20_000);
const FILES = {
  'a.txt': TEXT,
  'b.txt': TEXT.slice(0, 10_000),
  'b.txt.br': zlib.brotliCompressSync(TEXT.slice(0, 10_000)),
};

async function scrape(url, init) {
  const res = await fetch(url, init);
  return { status: res.status, headers: res.headers, text: await res.text() };
}

// The value of one series in exposition text, or undefined.
function sample(text, series) {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

forEachEngine((engine) => {
  let t;
  before(async () => { t = await startTestServer({ engine, files: FILES, metrics: '127.0.0.1:0' }); });
  after(() => t.close());

  test('one scrape counts exactly the requests made, the bytes received and the bytes saved', async () => {
    const br1 = await t.h2('/a.txt', { headers: { 'accept-encoding': 'br' } });
    const br2 = await t.h2('/a.txt', { headers: { 'accept-encoding': 'br' } });
    const gzip = await t.h1('/a.txt', { headers: { 'accept-encoding': 'gzip' } });
    const variant = await t.h2('/b.txt', { headers: { 'accept-encoding': 'br' } });
    const identity = await t.h2('/a.txt', { headers: { 'accept-encoding': 'identity' } });
    const notModified = await t.h2('/a.txt', { headers: { 'accept-encoding': 'br', 'if-none-match': br1.headers.etag } });
    const missing = await t.h1('/missing.txt');
    assert.deepEqual([br1, br2, gzip, variant, identity, notModified, missing].map((r) => [r.status, r.headers['content-encoding']]),
      [[200, 'br'], [200, 'br'], [200, 'gzip'], [200, 'br'], [200, undefined], [304, undefined], [404, undefined]]);

    const res = await scrape(t.server.metricsUrl);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
    const brSent = br1.body.length + br2.body.length + variant.body.length;
    const expected = {
      'negotiate_responses_total{status="2xx",protocol="h2",coding="br"}': 3,
      'negotiate_responses_total{status="2xx",protocol="h1",coding="gzip"}': 1,
      'negotiate_responses_total{status="2xx",protocol="h2",coding="identity"}': 1,
      'negotiate_responses_total{status="3xx",protocol="h2",coding="br"}': 1,
      'negotiate_responses_total{status="4xx",protocol="h1",coding="none"}': 1,
      'negotiate_responses_total{status="2xx",protocol="h1",coding="br"}': 0,
      'negotiate_sent_bytes_total{coding="br"}': brSent,
      'negotiate_sent_bytes_total{coding="gzip"}': gzip.body.length,
      'negotiate_sent_bytes_total{coding="identity"}': TEXT.length,
      'negotiate_sent_bytes_total{coding="none"}': missing.body.length,
      'negotiate_saved_bytes_total{coding="br"}': 2 * TEXT.length + 10_000 - brSent,
      'negotiate_saved_bytes_total{coding="gzip"}': TEXT.length - gzip.body.length,
      'negotiate_saved_bytes_total{coding="identity"}': 0,
      'negotiate_variant_responses_total{result="hit"}': 1,
      'negotiate_variant_responses_total{result="miss"}': 3,
      // The second br request and the 304, which compares the ETag of the cached br output.
      'negotiate_compress_cache_requests_total{result="hit"}': 2,
      'negotiate_compress_cache_requests_total{result="miss"}': 2,
      'negotiate_compressions_total{use="cache"}': 2,
      'negotiate_refusals_total{status="404",reason="ERR_NOT_FOUND"}': 1,
      'negotiate_open_streams{protocol="h2"}': 0,
      'negotiate_request_duration_seconds_count{protocol="h2"}': 5,
      'negotiate_request_duration_seconds_count{protocol="h1"}': 2,
      'negotiate_request_duration_seconds_bucket{protocol="h1",le="+Inf"}': 2,
      'negotiate_handshake_drops_total{reason="deadline"}': 0,
    };
    assert.deepEqual(Object.fromEntries(Object.keys(expected).map((series) => [series, sample(res.text, series)])), expected);
  });

  test('the listener: 404 elsewhere, 405 for other methods, HEAD without a body', async () => {
    const base = new URL(t.server.metricsUrl);
    assert.equal(base.href, `http://127.0.0.1:${base.port}/metrics`);
    const other = await scrape(new URL('/', base));
    assert.deepEqual([other.status, other.text], [404, 'not found: the metrics are at /metrics\n']);
    const post = await scrape(base, { method: 'POST', body: 'x' });
    assert.deepEqual([post.status, post.headers.get('allow')], [405, 'GET, HEAD']);
    const head = await scrape(base, { method: 'HEAD' });
    assert.deepEqual([head.status, head.text, Number(head.headers.get('content-length')) > 0], [200, '', true]);
  });
});

// On both transports of the native engine: node:tls's drops come from handshake-guard.js, the C
// transport's from its own guard (native/transport/handshakes.c) in batched reports.
forEachTransport((transport) => {
  let t;
  before(async () => {
    t = await startTestServer({ engine: 'native', transport, files: FILES, metrics: '127.0.0.1:0', timeouts: { handshakeTimeout: HANDSHAKE_DEADLINE_MS } });
  });
  after(() => t.close());

  test('an open HTTP/2 connection is a gauge; a silent connection a deadline drop, a non-TLS one a tls_error; a CONTINUATION flood a flood close', async () => {
    const session = await t.connectH2();
    assert.equal((await t.h2('/a.txt', { session })).status, 200);
    const silent = net.connect(t.port, '127.0.0.1');
    silent.on('error', () => {});
    await new Promise((resolve) => silent.once('close', resolve));
    const plain = net.connect(t.port, '127.0.0.1', () => plain.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n'));
    plain.on('error', () => {});
    plain.resume();
    await new Promise((resolve) => plain.once('close', resolve));
    const flood = await RawH2Client.connect(t.port);
    const fragment = Buffer.alloc(16384);
    flood.send(frame(TYPE.HEADERS, FLAG.END_STREAM, 1, fragment), ...Array.from({ length: 8 }, () => frame(TYPE.CONTINUATION, 0, 1, fragment)));
    assert.equal((await flood.goaway()).code, 11); // ENHANCE_YOUR_CALM
    flood.close();
    await flood.closed;
    const { text } = await scrape(t.server.metricsUrl);
    const series = ['negotiate_open_connections{protocol="h2"}', 'negotiate_handshake_drops_total{reason="deadline"}',
      'negotiate_handshake_drops_total{reason="over_cap"}', 'negotiate_handshake_drops_total{reason="tls_error"}',
      'negotiate_flood_closes_total{protocol="h2"}'];
    assert.deepEqual(series.map((name) => sample(text, name)), [1, 1, 0, 1, 1]);
  });
});

test('dictionary deltas: counted by coding, a range too; saved against identity', { timeout: 60_000 }, async (t) => {
  const v1 = Buffer.from(appScript('v1'));
  const v2 = Buffer.from(appScript('v2'));
  const srv = await startTestServer({ files: { 'app.v1.js': v1, 'app.v2.js': v2 }, metrics: '127.0.0.1:0', dictionaries: [{ match: '/app.*.js' }] });
  t.after(() => srv.close());
  await waitFor(() => srv.stats.dictionaries >= 2, { what: 'the dictionary scan' });
  const headers = { 'accept-encoding': 'br, dcb', 'available-dictionary': `:${crypto.createHash('sha256').update(v1).digest('base64')}:` };
  const whole = await srv.h2('/app.v2.js', { headers });
  const range = await srv.h2('/app.v2.js', { headers: { ...headers, range: 'bytes=0-9' } });
  assert.deepEqual([whole.status, whole.headers['content-encoding'], range.status, range.headers['content-encoding'], range.body.length], [200, 'dcb', 206, 'dcb', 10]);
  const { text } = await scrape(srv.server.metricsUrl);
  const series = ['negotiate_dictionary_deltas_total{coding="dcb"}', 'negotiate_dictionary_deltas_total{coding="dcz"}',
    'negotiate_saved_bytes_total{coding="dcb"}', 'negotiate_sent_bytes_total{coding="dcb"}'];
  assert.deepEqual(series.map((name) => sample(text, name)), [2, 0, v2.length - whole.body.length, whole.body.length + 10]);
});

describe('off loopback', () => {
  let dir;
  before(async () => { dir = await makeTempDir('negotiate-metrics-'); });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  test('without a token, or without TLS, the server refuses to start, in one line naming the options', async () => {
    await assert.rejects(startTestServer({ metrics: '0.0.0.0:0' }),
      { message: 'metrics 0.0.0.0:0: not a loopback address, so scrapes need a bearer token: give metricsTokenFile FILE' });
    const tokenFile = path.join(dir, 'token');
    await fs.writeFile(tokenFile, 'sesame\n');
    await assert.rejects(startTestServer({ metrics: '0.0.0.0:0', metricsTokenFile: tokenFile, https: false, tls: undefined }),
      { message: 'metrics 0.0.0.0:0: not a loopback address, so it is served over HTTPS with the server\'s certificate, which https: false turns off' });
    const empty = path.join(dir, 'empty');
    await fs.writeFile(empty, '\n');
    await assert.rejects(startTestServer({ metrics: '0.0.0.0:0', metricsTokenFile: empty }), { message: `metricsTokenFile ${empty}: is empty` });
    await assert.rejects(startTestServer({ metrics: '0.0.0.0:0', metricsTokenFile: path.join(dir, 'none') }),
      { message: `metricsTokenFile ${path.join(dir, 'none')}: cannot be read (ENOENT)` });
  });

  test('HTTPS with the server\'s certificate, and 401 without the bearer token', async (t) => {
    const tokenFile = path.join(dir, 'token');
    await fs.writeFile(tokenFile, 's3same-token\n');
    const srv = await startTestServer({ metrics: '0.0.0.0:0', metricsTokenFile: tokenFile });
    t.after(() => srv.close());
    const url = new URL(srv.server.metricsUrl);
    assert.equal(url.href, `https://0.0.0.0:${url.port}/metrics`);
    const get = (headers) => new Promise((resolve, reject) => {
      https.get({ host: '127.0.0.1', port: url.port, path: '/metrics', headers, ca: srv.server.certificate, servername: 'localhost' }, (res) => {
        let text = '';
        res.on('data', (c) => { text += c; });
        res.on('end', () => resolve({ status: res.statusCode, auth: res.headers['www-authenticate'], text }));
      }).on('error', reject);
    });
    assert.deepEqual(await get({}), { status: 401, auth: 'Bearer realm="metrics"', text: 'a bearer token is needed\n' });
    assert.equal((await get({ authorization: 'Bearer s3same-tokeN' })).status, 401);
    const ok = await get({ authorization: 'Bearer s3same-token' });
    assert.equal(ok.status, 200);
    assert.match(ok.text, /^# TYPE negotiate_responses_total counter$/m);
  });

  test('the CLI says where the metrics are, and refuses an open address in one line with exit code 2', async (t) => {
    const root = path.join(dir, 'site');
    await fs.mkdir(root, { recursive: true });
    const cli = await spawnCli([root, '--port', '0', '--no-precompress', '--metrics', '127.0.0.1:0']);
    t.after(() => cli.stop());
    const line = / metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)$/m;
    await waitFor(() => line.test(cli.output()), { what: () => `${line} in:\n${cli.output()}` });
    const scraped = await scrape(line.exec(cli.output())[1]);
    assert.equal(scraped.status, 200);
    const lastLine = async (args) => {
      const err = await spawnCli([root, '--port', '0', '--no-precompress', ...args]).then(() => null, (e) => e);
      return [err.code, err.output.trim().split('\n').at(-1)];
    };
    assert.deepEqual(await lastLine(['--metrics', '[::]:0']),
      [2, 'negotiate-h2: --metrics [::]:0: not a loopback address, so scrapes need a bearer token: give --metrics-token-file FILE']);
    const busy = net.createServer();
    await new Promise((resolve) => busy.listen(0, '127.0.0.1', resolve));
    t.after(() => busy.close());
    const busyPort = busy.address().port;
    assert.deepEqual(await lastLine(['--metrics', `127.0.0.1:${busyPort}`]), [2, `negotiate-h2: --metrics: 127.0.0.1:${busyPort}: in use`]);
  });
});
