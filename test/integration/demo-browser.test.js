'use strict';
// The demo site (static/) end to end: the real server over HTTPS, precompressed
// variants made by the real precompressor, and Debian's Chromium reading the page.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const path = require('node:path');
const { startServer } = require('../../server');
const { chromiumSkipReason, launchChromium, newSecureContext, trustLocalCa } = require('../helpers/browser');
const { stageSite, openDemo, visitMeasured, readVisit, VARIANT, WAIT_MS } = require('../helpers/demo-site');
const { forEachEngine } = require('../helpers/server');
const { toolSkipReason } = require('../helpers/tools');
const { createEngines } = require('../../server/compression/codings');
const { createDictionaryEngines, sha256 } = require('../../server/dictionaries/dictionary-codings');

const ARTIFACTS = path.join(__dirname, '..', 'artifacts');
const TEXT_ASSETS = ['/index.html', '/vendor/mime-db.js', '/style.css', '/logo.svg', '/assets.json'];
const PHOTO = '/photo.jpg';
const COMPARED = '/vendor/mime-db.js';
// The dictionary pair of static/negotiate.config.json and assets.json.
const DELTA_DICTIONARY = '/vendor/lodash-4.17.20.min.js';
const DELTA_FILE = '/vendor/lodash-4.17.21.min.js';

/** Waits until "Dictionary delta" has finished, then reads its rows. */
async function readDelta(page) {
  await page.waitForSelector('#delta:is([data-state="ready"], [data-state="error"])');
  return page.evaluate(() => ({
    state: document.querySelector('#delta').dataset.state,
    status: document.querySelector('#delta-status').textContent,
    rows: Object.fromEntries([...document.querySelectorAll('#delta-table tbody tr')].map((tr) => [
      tr.dataset.row, { coding: tr.dataset.coding, bytes: tr.dataset.bytes === '' ? null : Number(tr.dataset.bytes) },
    ])),
  }));
}

/** dcb of the demo's newer lodash against the older, made as the server makes it on the fly. */
async function expectedDelta(root) {
  const [dictionary, input] = await Promise.all([DELTA_DICTIONARY, DELTA_FILE].map((rel) => fs.readFile(path.join(root, rel))));
  const body = await createDictionaryEngines(createEngines()).compress('dcb', input, dictionary, sha256(dictionary));
  return body.length;
}

forEachEngine((engine) => {
  test('demo site in headless Chromium over HTTPS', { timeout: 180_000 }, async (t) => {
    const skip = await chromiumSkipReason();
    if (skip) {
      t.skip(skip);
      return;
    }
    const { dir, root, certsDir, caDir } = await stageSite(t);
    const server = await startServer({ engine, root, certsDir, caDir, port: 0, host: '127.0.0.1', logLevel: 'silent' });
    t.after(() => server.close());
    // server.url names localhost; the browser must reach the loopback address the server listens on.
    const home = `https://127.0.0.1:${server.port}/`;
    const browser = await launchChromium();
    t.after(() => browser.close());
    await fs.mkdir(ARTIFACTS, { recursive: true });

    await t.test('reports h2, br for every text asset and identity for the photo', async () => {
      const { context, page, problems } = await openDemo(browser, home);
      try {
        const visit = await readVisit(page);
        assert.equal(visit.state, 'ready', `page reported: ${visit.status}`);
        assert.equal(visit.protocol, 'h2');
        assert.match(visit.acceptEncoding, /\bbr\b/);
        for (const asset of TEXT_ASSETS) {
          const row = visit.rows[asset];
          assert.ok(row, `no row for ${asset}`);
          assert.equal(row.coding, 'br', `${asset} came back as ${row.coding}`);
          assert.ok(row.wire > 0 && row.wire < row.decoded, `${asset}: ${row.wire} B on the wire for ${row.decoded} B`);
        }
        const photo = visit.rows[PHOTO];
        assert.equal(photo.coding, 'identity');
        assert.equal(photo.wire, (await fs.stat(path.join(root, PHOTO))).size);
        assert.equal(photo.wire, photo.decoded);
        // A browser that ignores certificate errors is not given dictionaries: the newer lodash
        // comes as br, the precompressed file; the page still shows the delta the server makes.
        const delta = await readDelta(page);
        assert.equal(delta.state, 'ready', `page reported: ${delta.status}`);
        const brBytes = (await fs.stat(path.join(root, `${DELTA_FILE}.br`))).size;
        assert.deepEqual(delta.rows, {
          received: { coding: 'br', bytes: brBytes },
          br: { coding: 'br', bytes: brBytes },
          delta: { coding: 'dcb', bytes: await expectedDelta(root) },
        });
        assert.match(delta.status, /^Your browser got lodash 4\.17\.21 without the dictionary \(br\)/);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });

    await t.test('comparison shows every variant of the chosen file, lzma included', async () => {
      const { context, page, problems } = await openDemo(browser, home, { viewport: { width: 1280, height: 900 } });
      try {
        await page.selectOption('#compare-asset', COMPARED);
        await page.click('#compare-presets button[data-coding="lzma"]');
        await page.waitForSelector('#compare:is([data-state="ready"], [data-state="error"])');
        const result = await page.evaluate(() => ({
          state: document.querySelector('#compare').dataset.state,
          text: document.querySelector('#compare-result').textContent,
          chosen: document.querySelector('#variants tr.chosen')?.dataset.coding,
          bytes: Object.fromEntries([...document.querySelectorAll('#variants tbody tr')]
            .map((tr) => [tr.dataset.coding, tr.dataset.bytes === '' ? null : Number(tr.dataset.bytes)])),
        }));
        assert.equal(result.state, 'ready', result.text);
        assert.equal(result.chosen, 'lzma');
        // The sizes on screen are the files the precompressor wrote.
        const file = path.join(root, COMPARED);
        const onDisk = {
          identity: (await fs.stat(file)).size,
          br: (await fs.stat(`${file}.br`)).size,
          gzip: (await fs.stat(`${file}.gz`)).size,
          zstd: (await fs.stat(`${file}.zst`)).size,
          lzma: (await fs.stat(`${file}.lzma`)).size,
        };
        for (const [coding, size] of Object.entries(onDisk)) {
          assert.equal(result.bytes[coding], size, `${coding} size on the page`);
        }
        assert.deepEqual(problems, []);
        await page.screenshot({ path: path.join(ARTIFACTS, 'demo.png'), fullPage: true });
      } finally {
        await context.close();
      }
    });

    await t.test('fits a narrow phone screen without sideways scrolling', async () => {
      const { context, page } = await openDemo(browser, home, { viewport: { width: 360, height: 780 } });
      try {
        await page.click('#compare-presets button[data-coding="br"]');
        await page.waitForSelector('#compare[data-state="ready"]');
        assert.equal((await readDelta(page)).state, 'ready');
        const { scrollWidth, innerWidth } = await page.evaluate(() =>
          ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
        assert.ok(scrollWidth <= innerWidth, `page is ${scrollWidth}px wide in a ${innerWidth}px viewport`);
        await page.screenshot({ path: path.join(ARTIFACTS, 'demo-narrow.png'), fullPage: true });
      } finally {
        await context.close();
      }
    });

    await t.test('accepts the certificate once the local CA is trusted: no certificate errors ignored', async (st) => {
      const skip = toolSkipReason('certutil', 'libnss3-tools');
      if (skip) {
        st.skip(skip);
        return;
      }
      const userHome = await trustLocalCa(caDir, path.join(dir, 'home'));
      const strictBrowser = await launchChromium({ home: userHome });
      try {
        const context = await newSecureContext(strictBrowser, { ignoreHTTPSErrors: false });
        const page = await context.newPage();
        page.setDefaultTimeout(WAIT_MS);
        const response = await page.goto(`https://localhost:${server.port}/`, { waitUntil: 'load' });
        assert.equal(response.status(), 200);
        assert.equal(await page.evaluate(() => performance.getEntriesByType('navigation')[0].nextHopProtocol), 'h2');
        await visitMeasured(page);
        const visit = await readVisit(page);
        assert.equal(visit.state, 'ready', `page reported: ${visit.status}`);
        // The first visit left the older lodash in Chromium's dictionary store; on this one the
        // newer comes as a delta against it, and the page shows the bytes the network carried.
        assert.equal((await readDelta(page)).state, 'ready');
        await page.reload({ waitUntil: 'load' });
        const delta = await readDelta(page);
        assert.equal(delta.state, 'ready', `page reported: ${delta.status}`);
        const deltaBytes = await expectedDelta(root);
        const brBytes = (await fs.stat(path.join(root, `${DELTA_FILE}.br`))).size;
        assert.deepEqual(delta.rows, {
          received: { coding: 'dcb', bytes: deltaBytes },
          br: { coding: 'br', bytes: brBytes },
          delta: { coding: 'dcb', bytes: deltaBytes },
        });
        assert.ok(deltaBytes * 2 < brBytes, `delta ${deltaBytes} B, br ${brBytes} B`);
        assert.match(delta.status, /^Your browser held lodash 4\.17\.20 and got lodash 4\.17\.21 as a dcb delta against it/);
        await page.screenshot({ path: path.join(ARTIFACTS, 'demo-delta.png'), fullPage: true });
      } finally {
        await strictBrowser.close();
      }
    });

    await t.test('reports http/1.1 when the browser cannot speak h2', async () => {
      const http1Browser = await launchChromium({ extraArgs: ['--disable-http2'] });
      try {
        const { page, problems } = await openDemo(http1Browser, home);
        const visit = await readVisit(page);
        assert.equal(visit.state, 'ready', `page reported: ${visit.status}`);
        assert.equal(visit.protocol, 'http/1.1');
        assert.equal(visit.rows['/style.css'].coding, 'br');
        assert.deepEqual(problems, []);
      } finally {
        await http1Browser.close();
      }
    });
  });
});
