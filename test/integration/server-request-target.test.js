'use strict';
// Raw terminal control bytes never reach the log, on every engine over real sockets: a request
// target holding a byte no URI holds (control bytes, DEL, 0x80 and up) is an HTTP/2 stream error
// PROTOCOL_ERROR (RFC 9113 8.1.1) and an HTTP/1.1 400 with the connection closed (RFC 9112 3.2);
// what a request may carry (a user agent or referer with ESC, BEL, DEL, obs-text) is escaped in
// every log format. Every line the server logs, at every level, is checked for raw bytes, and so
// is the CLI's own output, what `tail -f` of its log would put in a terminal.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const path = require('node:path');
const { forEachEngine, startTestServer, spawnCli, makeTempDir, writeFiles, testCertificate } = require('../helpers/server');
const { RawH2Client } = require('../helpers/h2-raw-client');
const { TYPE } = require('../helpers/h2-frames');
const { exchange } = require('../helpers/raw-http1');
const { waitFor } = require('../helpers/poll');

const PROTOCOL_ERROR = 0x1;
const RST_STREAM = 0x3;
const FILES = { 'plain.txt': 'plain' };
const OSC_TITLE = '\x1b]0;owned\x07';
const CSI_RED = '\x1b[31m';

// A logger keeping every line of every level.
function capturingLogger() {
  const lines = [];
  const push = (l) => lines.push(l);
  return { lines, enabled: () => true, info: push, raw: push, error: push, warn: push, debug: push, always: push, drain: async () => {} };
}

function assertPrintable(lines) {
  for (const l of lines) assert.match(l, /^[\x20-\x7e]*$/, `a raw byte in the log: ${JSON.stringify(l)}`);
}

forEachEngine((engine) => {
  let srv;
  let log;
  before(async () => {
    log = capturingLogger();
    srv = await startTestServer({ engine, files: FILES, logger: log, logFormat: 'short' });
  });
  after(() => srv.close());

  test('HTTP/2: a :path with ESC, OSC, DEL or a byte from 0x80 up is reset with PROTOCOL_ERROR, the connection goes on', async () => {
    log.lines.length = 0;
    const c = await RawH2Client.connect(srv.port);
    const bad = [`/plain.txt${CSI_RED}`, `/${OSC_TITLE}`, '/plain.txt\x7f', '/plain.txt\x80', '/\x9b31m', '/plain.txt\xff'];
    bad.forEach((path, i) => c.request(1 + 2 * i, path));
    for (let i = 0; i < bad.length; i++) assert.equal(await c.reset(1 + 2 * i), PROTOCOL_ERROR, JSON.stringify(bad[i]));
    const next = 1 + 2 * bad.length;
    c.request(next, '/plain.txt');
    const res = await c.response(next);
    assert.equal(res.status, 200);
    assert.equal(res.body.toString(), 'plain');
    for (let i = 0; i < bad.length; i++) {
      assert.deepEqual(c.frames.filter((f) => f.streamId === 1 + 2 * i).map((f) => f.type), [RST_STREAM], JSON.stringify(bad[i]));
    }
    await c.close();
    await waitFor(() => log.lines.some((l) => l.startsWith('GET /plain.txt 200')), { what: 'the access-log line of the good request' });
    assertPrintable(log.lines);
    assert.deepEqual(log.lines.filter((l) => / \d{3} /.test(l)).map((l) => l.replace(/ [\d.]+ms$/, '')), ['GET /plain.txt 200 identity 5']);
  });

  test('HTTP/1.1: a target with ESC or a byte from 0x80 up is 400 and the connection closes', async () => {
    for (const target of [`/plain.txt${CSI_RED}`, `/${OSC_TITLE}`, '/plain.txt\x7f', '/plain.txt\x80']) {
      log.lines.length = 0;
      const payload = `GET ${target} HTTP/1.1\r\nHost: localhost\r\n\r\nGET /plain.txt HTTP/1.1\r\nHost: localhost\r\n\r\n`;
      const { bytes, closed } = await exchange({ port: srv.port, ca: srv.server.certificate, payload: Buffer.from(payload, 'latin1') });
      assert.equal(closed, true, JSON.stringify(target));
      // Node's HTTP/1.1 parser (llhttp) refuses these bytes itself, before the server sees them.
      const expected = engine === 'node' ? 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n'
        : 'HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: 25\r\ndate: DATE\r\nconnection: close\r\n\r\nmalformed request target\n';
      assert.equal(bytes.toString('latin1').replace(/\r\ndate: [^\r]+/, '\r\ndate: DATE'), expected, JSON.stringify(target));
      if (engine === 'native') await waitFor(() => log.lines.some((l) => l.startsWith('- - 400')), { what: 'the 400 in the access log' });
      assertPrintable(log.lines);
    }
  });

  test('every log format escapes ESC, BEL, DEL and bytes from 0x80 up in the user agent and referer', async (t) => {
    const headers = { 'user-agent': `ua${OSC_TITLE}\x7f`, 'referer': 'https://e.test/\x9b31m\xe9' };
    // nghttp2 drops a field whose value holds control bytes or DEL (RFC 9110 5.5 lets it).
    const loggedUa = engine === 'node' ? undefined : headers['user-agent'];
    const h1Headers = { 'user-agent': 'ua\xe9\x9b' };
    for (const format of ['short', 'combined', 'json']) {
      const fmtLog = capturingLogger();
      const fmtSrv = await startTestServer({ engine, files: FILES, logger: fmtLog, logFormat: format });
      t.after(() => fmtSrv.close());
      const c = await RawH2Client.connect(fmtSrv.port);
      c.request(1, '/plain.txt', { extra: Object.entries(headers) });
      assert.equal((await c.response(1)).status, 200);
      await c.close();
      // obs-text (0x80-0xFF) is allowed in an HTTP/1.1 field value (RFC 9110 5.5).
      const h1 = `GET /plain.txt HTTP/1.1\r\nHost: localhost\r\nUser-Agent: ${h1Headers['user-agent']}\r\nConnection: close\r\n\r\n`;
      const { bytes } = await exchange({ port: fmtSrv.port, ca: fmtSrv.server.certificate, payload: Buffer.from(h1, 'latin1') });
      assert.match(bytes.toString('latin1'), /^HTTP\/1\.1 200 /);
      await waitFor(() => fmtLog.lines.filter((l) => l.includes('plain.txt')).length === 2, { what: `two ${format} access-log lines` });
      assertPrintable(fmtLog.lines);
      const access = fmtLog.lines.filter((l) => l.includes('plain.txt'));
      if (format === 'combined') {
        const ua = loggedUa === undefined ? '-' : 'ua\\x1B]0;owned\\x07\\x7F';
        assert.ok(access[0].endsWith(`"GET /plain.txt HTTP/2.0" 200 5 "https://e.test/\\x9B31m\\xE9" "${ua}"`), access[0]);
        assert.match(access[1], /"GET \/plain\.txt HTTP\/1\.1" 200 5 "-" "ua\\xE9\\x9B"$/);
      }
      if (format === 'json') {
        const [a, b] = access.map((l) => JSON.parse(l));
        assert.deepEqual([a.userAgent, a.referer, b.userAgent, b.referer], [loggedUa ?? null, headers.referer, h1Headers['user-agent'], null]);
      }
    }
  });
});

// The CLI's stdout and stderr, as an operator's terminal gets them. NODE_OPTIONS makes Node's
// HTTP/1.1 parser lenient: it still refuses these bytes in a target (the node engine relies on it).
test('the CLI\'s output holds no raw control byte, any engine, any log format, under --insecure-http-parser', async (t) => {
  const dir = await makeTempDir();
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  const tls = await testCertificate();
  await writeFiles(dir, { 'cert.pem': tls.cert, 'key.pem': tls.key, 'root/plain.txt': 'plain' });
  for (const engine of ['native', 'node']) {
    for (const format of ['short', 'combined', 'json']) {
      const label = `${engine} ${format}`;
      const cli = await spawnCli(['--port', '0', '--root', path.join(dir, 'root'), '--cert', path.join(dir, 'cert.pem'), '--key', path.join(dir, 'key.pem'),
        '--no-precompress', '--log-level', 'debug', '--log-format', format], { engine, env: { NODE_OPTIONS: '--insecure-http-parser' } });
      try {
        const c = await RawH2Client.connect(cli.port);
        c.request(1, `/plain.txt${OSC_TITLE}`);
        assert.equal(await c.reset(1), PROTOCOL_ERROR, label);
        c.request(3, '/plain.txt', { extra: [['user-agent', `ua${OSC_TITLE}\x7f`], ['referer', `https://e.test/${CSI_RED}\x9b\xe9`]] });
        assert.equal((await c.response(3)).status, 200, label);
        c.request(5, '/plain.txt', { method: `G${CSI_RED}` });
        // A :method that is not a token is a malformed request on both engines (RFC 9110 9.1).
        assert.equal(await c.reset(5), PROTOCOL_ERROR, label);
        await c.close();
        const { bytes } = await exchange({ port: cli.port, ca: tls.cert, payload: `GET /plain.txt${CSI_RED} HTTP/1.1\r\nHost: localhost\r\n\r\n` });
        assert.match(bytes.toString('latin1'), /^HTTP\/1\.1 400 Bad Request\r\n/, label);
        await waitFor(() => cli.output().split('\n').filter((l) => l.includes('plain.txt')).length >= 1, { what: `${label}: the access-log lines` });
      } finally {
        await cli.stop();
      }
      const output = cli.output();
      assert.match(output, /^[\x20-\x7e\n]*$/, `${label}: ${JSON.stringify(output)}`);
    }
  }
});
