'use strict';
// Compression dictionaries (RFC 9842) end to end in Debian's Chromium, which advertises dcb and
// dcz only to a site whose certificate it trusts: the local CA goes into a temporary NSS
// database (`negotiate-h2 trust` with a temporary HOME), no certificate error is ignored. The
// page loads app.v1.js, which the server marks as a dictionary; the site is then redeployed
// with app.v2.js, the page reloaded, and Chromium must ask for v2 with v1's hash in
// Available-Dictionary, get a delta and run the new script.
const test = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const { startServer } = require('../../server');
const { chromiumSkipReason, launchChromium, newSecureContext, trustLocalCa } = require('../helpers/browser');
const { forEachEngine } = require('../helpers/server');
const { toolSkipReason } = require('../helpers/tools');
const { appScript, expectedApp } = require('../helpers/dictionary-site');

const WAIT_MS = 15_000;

const page = (version, query = '') => `<!doctype html><title>app</title><script src="/assets/app.${version}.js${query}"></script>\n`;

async function stage(t) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dictionary-browser-'));
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  const root = path.join(dir, 'site');
  await fs.mkdir(path.join(root, 'assets'), { recursive: true });
  await fs.writeFile(path.join(root, 'index.html'), page('v1'));
  await fs.writeFile(path.join(root, 'assets', 'app.v1.js'), appScript('v1'));
  await fs.writeFile(path.join(root, 'negotiate.config.json'), JSON.stringify({
    dictionaries: [{ match: '/assets/app.*.js', matchDest: ['script'], id: 'app' }],
    // Chromium keeps a dictionary for as long as its response is fresh.
    headers: [{ match: 'assets/*.js', headers: { 'cache-control': 'public, max-age=3600' } }],
  }));
  const caDir = path.join(dir, 'ca');
  const home = await trustLocalCa(caDir, path.join(dir, 'home'));
  return { root, home, caDir, certsDir: path.join(dir, 'certs') };
}

// The server on `root` and a Chromium tab that trusts it, recording what Chromium sent and got
// for /assets/ (its network stack's headers, not the page's). null when a tool is missing
// (t.skip() done).
async function open(t, engine, { encodings, extraArgs = [] } = {}) {
  const skip = (await chromiumSkipReason()) || toolSkipReason('certutil', 'libnss3-tools');
  if (skip) {
    t.skip(skip);
    return null;
  }
  const { root, home, caDir, certsDir } = await stage(t);
  const server = await startServer({ engine, root, certsDir, caDir, port: 0, host: '127.0.0.1', logLevel: 'silent', ...(encodings && { encodings }) });
  t.after(() => server.close({ timeoutMs: 2000 }));
  const browser = await launchChromium({ home, extraArgs });
  t.after(() => browser.close());
  const context = await newSecureContext(browser, { ignoreHTTPSErrors: false });
  const tab = await context.newPage();
  tab.setDefaultTimeout(WAIT_MS);
  const problems = [];
  tab.on('pageerror', (err) => problems.push(err.message));
  const responses = [];
  tab.on('response', (response) => {
    if (!response.url().includes('/assets/')) return;
    responses.push(Promise.all([response.request().allHeaders(), response.allHeaders()]).then(([sent, got]) => ({
      path: new URL(response.url()).pathname, status: response.status(), availableDictionary: sent['available-dictionary'] ?? null,
      acceptEncoding: sent['accept-encoding'], dictionaryId: sent['dictionary-id'] ?? null, coding: got['content-encoding'] ?? 'identity',
    })));
  });
  return { root, server, tab, problems, origin: `https://localhost:${server.port}`, seen: () => Promise.all(responses) };
}

const sfHash = (bytes) => `:${crypto.createHash('sha256').update(bytes).digest('base64')}:`;

forEachEngine((engine) => {
  // [--encodings, Chromium switches, the coding v2 must come in, the protocol]
  const RUNS = [[undefined, [], 'dcb', 'h2'], [['zstd', 'br', 'gzip'], [], 'dcz', 'h2'], [undefined, ['--disable-http2'], 'dcb', 'http/1.1']];
  for (const [encodings, extraArgs, expected, protocol] of RUNS) {
    test(`Chromium gets app.v2.js as ${expected} against app.v1.js after a redeploy, over ${protocol}`, { timeout: 120_000 }, async (t) => {
      const session = await open(t, engine, { encodings, extraArgs });
      if (session === null) return;
      const { root, tab, problems, origin } = session;
      await tab.goto(`${origin}/`, { waitUntil: 'load' });
      assert.equal(await tab.evaluate(() => window.app?.version), 'v1');
      assert.equal(await tab.evaluate(() => performance.getEntriesByType('navigation')[0].nextHopProtocol), protocol);

      await fs.writeFile(path.join(root, 'assets', 'app.v2.js'), appScript('v2'));
      await fs.writeFile(path.join(root, 'index.html'), page('v2'));
      await tab.reload({ waitUntil: 'load' });

      const seen = await session.seen();
      const v2 = seen.find((r) => r.path === '/assets/app.v2.js');
      assert.ok(v2, `no request for app.v2.js: ${JSON.stringify(seen)}`);
      assert.equal(v2.availableDictionary, sfHash(appScript('v1')), `requests: ${JSON.stringify(seen)}`);
      // Chromium read the rule's id from Use-As-Dictionary and echoes it (RFC 9842 2.3).
      assert.equal(v2.dictionaryId, '"app"');
      assert.match(v2.acceptEncoding, /\bdcb\b/);
      assert.match(v2.acceptEncoding, /\bdcz\b/);
      assert.equal(v2.status, 200);
      assert.equal(v2.coding, expected);
      assert.deepEqual(await tab.evaluate(() => window.app), expectedApp('v2'));
      assert.deepEqual(problems, []);
    });
  }

  test('Chromium gets a script rebuilt in place as a delta against the content it held', { timeout: 120_000 }, async (t) => {
    const session = await open(t, engine);
    if (session === null) return;
    const { root, tab, problems, origin } = session;
    // app.v1.js keeps its name and is rebuilt with v2's content, as a bundle without a hash in
    // its name is; the page asks for it with a new query so that Chromium, which holds the old
    // one fresh in its cache, fetches it again.
    await tab.goto(`${origin}/`, { waitUntil: 'load' });
    assert.equal(await tab.evaluate(() => window.app?.version), 'v1');
    await fs.writeFile(path.join(root, 'assets', 'app.v1.js'), appScript('v2'));
    await fs.writeFile(path.join(root, 'index.html'), page('v1', '?build=2'));
    await tab.reload({ waitUntil: 'load' });
    const seen = await session.seen();
    const again = seen.filter((r) => r.path === '/assets/app.v1.js').at(-1);
    assert.equal(seen.filter((r) => r.path === '/assets/app.v1.js').length, 2, JSON.stringify(seen));
    assert.equal(again.availableDictionary, sfHash(appScript('v1')), JSON.stringify(seen));
    assert.equal(again.status, 200);
    assert.equal(again.coding, 'dcb');
    assert.deepEqual(await tab.evaluate(() => window.app), expectedApp('v2'));
    assert.deepEqual(problems, []);
  });
});
