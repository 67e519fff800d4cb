'use strict';
// The demo site over HTTP/3 in Debian's Chromium, which trusts the local CA through a temporary
// NSS database and ignores no certificate error. Chromium speaks QUIC to a host whose certificate
// chains to a locally added CA only where --origin-to-force-quic-on names that host and port:
// forced so, it goes straight to h3. (Allowed through a dummy port and the Alt-Svc of an h2
// response, Chromium 156 starts a QUIC connection beside each new TCP one and cancels it when
// TCP wins the race, which on loopback it does: the switch is not tested here; the Alt-Svc
// header is, in h3.test.js.)
// Skips where the runtime has no QUIC (Node 20, or a Node without its bundled OpenSSL 3.5).
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { startServer } = require('../../server');
const { chromiumSkipReason, launchChromium, newSecureContext, trustLocalCa } = require('../helpers/browser');
const { stageSite, readVisit, WAIT_MS } = require('../helpers/demo-site');
const { toolSkipReason } = require('../helpers/tools');
const { quicSupport, loadQuic } = require('../../server/engines/listen-h3');

const support = quicSupport(loadQuic());
const quicSkipReason = () => (support.ok ? null : `HTTP/3 does not run here: ${support.reason}`);

async function open(t, flags) {
  const skip = quicSkipReason() || (await chromiumSkipReason()) || toolSkipReason('certutil', 'libnss3-tools');
  if (skip) {
    t.skip(skip);
    return null;
  }
  const { dir, root, certsDir, caDir } = await stageSite(t);
  const server = await startServer({ root, certsDir, caDir, port: 0, host: '127.0.0.1', logLevel: 'silent' });
  t.after(() => server.close({ timeoutMs: 2000 }));
  const home = await trustLocalCa(caDir, path.join(dir, 'home'));
  // The server listens on 127.0.0.1 only, where Chromium would try ::1 first for localhost.
  const browser = await launchChromium({ home, quic: true, extraArgs: ['--host-resolver-rules=MAP localhost 127.0.0.1', ...flags(server.port)] });
  t.after(() => browser.close());
  const context = await newSecureContext(browser, { ignoreHTTPSErrors: false });
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT_MS);
  const problems = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`); });
  return { page, problems, origin: `https://localhost:${server.port}`, port: server.port };
}

// The protocol of the page and of every resource it loaded, as Chromium's resource timing says.
function protocols(page) {
  return page.evaluate(() => ({
    page: performance.getEntriesByType('navigation')[0].nextHopProtocol,
    resources: [...new Set(performance.getEntriesByType('resource').map((r) => r.nextHopProtocol).filter((p) => p !== ''))],
  }));
}

async function visitReady(page) {
  await page.waitForSelector('#visit:is([data-state="ready"], [data-state="error"])');
  const visit = await readVisit(page);
  assert.equal(visit.state, 'ready', `page reported: ${visit.status}`);
  return visit;
}

test('Chromium forced to QUIC loads the whole demo over h3, and the page says h3', { timeout: 120_000 }, async (t) => {
  const session = await open(t, (port) => [`--origin-to-force-quic-on=localhost:${port}`]);
  if (session === null) return;
  const { page, problems, origin } = session;
  const response = await page.goto(`${origin}/`, { waitUntil: 'load' });
  assert.equal(response.status(), 200);
  const visit = await visitReady(page);
  assert.equal(visit.protocol, 'h3');
  assert.deepEqual(await protocols(page), { page: 'h3', resources: ['h3'] });
  // Every asset arrived in a coding the page checked against its own decoding.
  for (const [asset, row] of Object.entries(visit.rows)) assert.ok(row.decoded > 0, `${asset}: ${JSON.stringify(row)}`);
  assert.deepEqual(problems, []);
});
