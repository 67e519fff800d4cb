'use strict';
// Hostile but well-formed requests over real TLS sockets, HTTP/1.1 and HTTP/2: oversized
// and pathological Accept-Encoding, Range and paths, and header lists past the advertised
// HTTP/2 limits. Each must get a proper answer (a status or a stream refusal) within the
// clients' request timeout, and the server must go on serving.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const http2 = require('node:http2');
const { forEachEngine, startTestServer, compressibleText } = require('./helpers/server');
const { HTTP2_SETTINGS } = require('../server/start-server');

const BODY = compressibleText(64 * 1024);

forEachEngine((engine) => {
  let t;

  before(async () => {
    t = await startTestServer({ engine, files: { 'page.html': BODY, 'small.txt': 'ok\n' } });
  });

  after(() => t.close());

  // Both protocols; a refused HTTP/2 stream counts as an answer ({ refused: rstCode }).
  async function both(path, headers) {
    const h1 = await t.h1(path, { headers });
    const h2 = await t.h2(path, { headers, session: t.connectH2() }).catch((err) => {
      if (!isRefusal(err)) throw err;
      return { refused: err.message };
    });
    return { h1, h2 };
  }

  // RST_STREAM with REFUSED_STREAM or ENHANCE_YOUR_CALM, as the helper or Node reports it.
  function isRefusal(err) {
    return /rst (7|11)\b|NGHTTP2_(REFUSED_STREAM|ENHANCE_YOUR_CALM)/.test(err.message);
  }

  async function stillServes() {
    assert.equal((await t.h1('/small.txt')).status, 200);
    assert.equal((await t.h2('/small.txt', { session: t.connectH2() })).status, 200);
  }

  test('an Accept-Encoding of 64 KiB is refused with 431 or a stream reset', async () => {
    const ae = 'gzip;q=0.5, '.repeat(64 * 1024 / 12);
    const { h1, h2 } = await both('/page.html', { 'accept-encoding': ae });
    assert.equal(h1.status, 431);
    assert.ok(h2.refused !== undefined || [400, 431].includes(h2.status), `h2: ${JSON.stringify(h2.status ?? h2)}`);
    await stillServes();
  });

  test('an Accept-Encoding of thousands of codings is negotiated normally', async () => {
    // Each under the 32 KiB header limits, so they reach the negotiation.
    const unknown = Array.from({ length: 2000 }, (_, i) => `c${i};q=0.9`).join(',');
    for (const ae of [unknown + ', gzip;q=0.1', 'gzip;q=0.1, '.repeat(2000) + 'br', unknown + ', *;q=0']) {
      const { h1, h2 } = await both('/page.html', { 'accept-encoding': ae });
      for (const r of [h1, h2]) {
        assert.ok([200, 406].includes(r.status), `status ${r.status}`);
        if (r.status === 200) assert.ok(r.body.length > 0);
      }
    }
    await stillServes();
  });

  test('a Range header with thousands of ranges gets the whole body (200) or 416', async () => {
    const ranges = Array.from({ length: 3000 }, (_, i) => `${i * 2}-${i * 2}`).join(',');
    for (const range of [`bytes=${ranges}`, `bytes=${ranges.replace(/\d+-\d+/g, '999999-')}`]) {
      const { h1, h2 } = await both('/page.html', { range, 'accept-encoding': 'identity' });
      for (const r of [h1, h2]) {
        assert.ok([200, 416].includes(r.status), `status ${r.status}`);
        if (r.status === 200) assert.equal(r.body.toString(), BODY);
      }
    }
  });

  test('a 16 KiB path gets 414 or 404', async () => {
    const path = '/' + 'a/'.repeat(8 * 1024);
    const { h1, h2 } = await both(path);
    assert.ok([404, 414].includes(h1.status), `h1 status ${h1.status}`);
    assert.ok([404, 414].includes(h2.status), `h2 status ${h2.status}`);
    await stillServes();
  });

  function remoteSettings(session) {
    return new Promise((resolve) => session.once('remoteSettings', resolve));
  }

  test('the server advertises its HTTP/2 limits in SETTINGS', async () => {
    const session = t.connectH2();
    const settings = await remoteSettings(session);
    assert.equal(settings.maxConcurrentStreams, HTTP2_SETTINGS.maxConcurrentStreams);
    assert.equal(settings.maxHeaderListSize, HTTP2_SETTINGS.maxHeaderListSize);
  });

  // Node's client refuses to send a header block over 64 KiB unless told otherwise.
  function bigHeaderSession() {
    const session = http2.connect(t.origin, { ca: t.server.certificate, servername: 'localhost', maxSendHeaderBlockLength: 4 * 1024 * 1024 });
    session.on('error', () => {});
    return session;
  }

  // Resolves the status, 'refused' (RST_STREAM) or 'goaway <code>' (the whole connection).
  function requestWithHeader(session, value) {
    return new Promise((resolve) => {
      session.once('goaway', (code) => resolve(`goaway ${code}`));
      const stream = session.request({ ':path': '/small.txt', 'x-big': value });
      stream.on('response', (h) => resolve(h[':status']));
      stream.on('error', (err) => resolve(isRefusal(err) ? 'refused' : err.message));
      stream.on('close', () => resolve(stream.rstCode ? 'refused' : 'closed'));
      stream.resume();
      stream.end();
    });
  }

  // SETTINGS_MAX_HEADER_LIST_SIZE is advisory (RFC 9113 6.5.2), but a server that
  // advertises it should not process more.
  test('a header list past the advertised maxHeaderListSize gets 431 or a stream refusal', async () => {
    const session = bigHeaderSession();
    try {
      const answer = await requestWithHeader(session, 'v'.repeat(HTTP2_SETTINGS.maxHeaderListSize + 8 * 1024));
      assert.ok(answer === 431 || answer === 'refused', `got ${answer}`);
    } finally {
      session.destroy();
    }
  });

  test('a 100 KiB header field is refused (stream or connection), and other clients are still served', async () => {
    const session = bigHeaderSession();
    try {
      const answer = await requestWithHeader(session, 'v'.repeat(100 * 1024));
      assert.match(String(answer), /^(431|refused|goaway \d+)$/);
    } finally {
      session.destroy();
    }
    await stillServes();
  });

  test('more concurrent streams than maxConcurrentStreams are queued or refused, never dropped silently', async () => {
    const session = t.connectH2();
    await remoteSettings(session);
    const n = HTTP2_SETTINGS.maxConcurrentStreams * 2;
    const results = await Promise.allSettled(Array.from({ length: n }, () => t.h2('/page.html', { session })));
    for (const r of results) {
      if (r.status === 'fulfilled') assert.equal(r.value.status, 200);
      else assert.ok(isRefusal(r.reason), r.reason.message);
    }
    assert.ok(results.some((r) => r.status === 'fulfilled'));
  });
});
