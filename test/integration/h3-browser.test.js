'use strict';
// The demo site over HTTP/3 in Debian's Chromium, which trusts the local CA through a temporary
// NSS database and ignores no certificate error. Chromium speaks QUIC to a host whose certificate
// chains to a locally added CA only where --origin-to-force-quic-on names that host: forced to
// the server's port it goes straight to h3; named with a port nothing listens on (localhost:1),
// it is merely allowed to, and finds the server's h3 through the Alt-Svc of an h2 response. (A
// reload goes down the h2 connection Chromium holds; a new navigation moves to h3.)
// Skips where the runtime has no QUIC (Node 20, or a Node without its bundled OpenSSL 3.5).
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { startServer } = require('../../server');
const { chromiumSkipReason, launchQuicChromium, newSecureContext } = require('../helpers/browser');
const { stageSite, visitMeasured, readVisit, WAIT_MS } = require('../helpers/demo-site');
const { toolSkipReason } = require('../helpers/tools');
const { quicSupport, loadQuic } = require('../../server/engines/listen-h3');

// Navigations after the first within which Chromium must have moved to h3 (it does on the next).
const SWITCH_TRIES = 5;

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
  const browser = await launchQuicChromium(caDir, path.join(dir, 'home'), flags(server.port));
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
  await visitMeasured(page);
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

test('Chromium allowed QUIC finds h3 through the Alt-Svc of its first h2 response and moves there', { timeout: 120_000 }, async (t) => {
  const session = await open(t, () => ['--origin-to-force-quic-on=localhost:1']);
  if (session === null) return;
  const { page, problems, origin, port } = session;
  const first = await page.goto(`${origin}/`, { waitUntil: 'load' });
  assert.equal((await protocols(page)).page, 'h2');
  assert.match(first.headers()['alt-svc'] ?? '', new RegExp(`^h3=":${port}"; ma=\\d+$`));
  const seen = [];
  for (let i = 1; i <= SWITCH_TRIES && seen.at(-1) !== 'h3'; i++) {
    await page.goto(`${origin}/?visit=${i}`, { waitUntil: 'load' });
    seen.push((await protocols(page)).page);
  }
  assert.equal(seen.at(-1), 'h3', `the page's protocol on each later visit: ${seen.join(', ')}`);
  assert.equal((await visitReady(page)).protocol, 'h3');
  assert.deepEqual(problems, []);
});
