'use strict';
// The demo site (static/) staged for a browser test: a temporary copy the real precompressor and
// the demo's package copies fill, and the page opened until "This visit" has measured itself.
const fs = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const demoPackages = require('../../docs/tools/demo-packages');
const { newSecureContext } = require('./browser');

const execFileAsync = promisify(execFile);
const REPO_ROOT = path.resolve(__dirname, '..', '..');
const STATIC_DIR = path.join(REPO_ROOT, 'static');
const VENDOR_DIR = path.join(STATIC_DIR, 'vendor');
const VARIANT = /\.(br|gz|zst|lzma)$/;
// Every wait is bounded; a broken page fails in seconds instead of hanging the suite.
const WAIT_MS = 15_000;

/**
 * A temp dir holding site/ (static/ without stray variants, its vendor/ copied from the packages
 * installed now, all precompressed there), certs/ (the
 * server's localhost certificate) and ca/ (the local CA that signs it), so the test writes
 * nothing in the repo or the user's config directory.
 */
async function stageSite(t) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'demo-site-'));
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  const root = path.join(dir, 'site');
  await fs.cp(STATIC_DIR, root, { recursive: true, filter: (src) => !VARIANT.test(src) && src !== VENDOR_DIR });
  await demoPackages.generate(path.join(root, 'vendor'));
  await execFileAsync(process.execPath, [path.join(REPO_ROOT, 'tools', 'precompress'), root, '--quiet'],
    { timeout: 60_000 });
  return { dir, root, certsDir: path.join(dir, 'certs'), caDir: path.join(dir, 'ca') };
}

/** Opens the page and waits until "This visit" has finished measuring. */
async function openDemo(browser, url, contextOptions = {}) {
  const context = await newSecureContext(browser, contextOptions);
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT_MS);
  const problems = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`); });
  await page.goto(url, { waitUntil: 'load' });
  await visitMeasured(page);
  return { context, page, problems };
}

/** Waits until the page's "This visit" has finished measuring (ready, or error). */
function visitMeasured(page) {
  return page.waitForSelector('#visit:is([data-state="ready"], [data-state="error"])');
}

function readVisit(page) {
  return page.evaluate(() => ({
    state: document.querySelector('#visit').dataset.state,
    status: document.querySelector('#visit-status').textContent,
    protocol: document.querySelector('#protocol').textContent,
    acceptEncoding: document.querySelector('#accept-encoding').textContent,
    rows: Object.fromEntries([...document.querySelectorAll('#assets tbody tr')].map((tr) => [
      tr.dataset.asset,
      { coding: tr.dataset.coding, wire: Number(tr.dataset.wireBytes), decoded: Number(tr.dataset.decodedBytes) },
    ])),
  }));
}

module.exports = { stageSite, openDemo, visitMeasured, readVisit, VARIANT, WAIT_MS };
