'use strict';
// Launches Debian's Chromium through playwright-core, so browser tests share one
// set of flags and one skip rule: no Chromium means skip, never fail.
const fs = require('node:fs/promises');
const { chromium } = require('playwright-core');

const CHROMIUM_PATH = '/usr/bin/chromium';
const SKIP_REASON = `chromium not found at ${CHROMIUM_PATH}: apt-get install chromium`;

// Headless and quiet: no QUIC (we test the TCP+TLS h2 path), no background fetches
// that would add requests to the server under test.
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu',
  '--disable-background-networking', '--disable-component-update', '--disable-quic',
  '--no-first-run', '--disable-sync',
];

/** Resolves to a t.skip() message when Chromium is not installed, else null. */
async function chromiumSkipReason() {
  try {
    await fs.access(CHROMIUM_PATH, fs.constants.X_OK);
    return null;
  } catch {
    return SKIP_REASON;
  }
}

/**
 * @param {{ extraArgs?: string[], timeout?: number, home?: string }} [options]
 *   extraArgs: more Chromium switches, e.g. '--disable-http2' to exercise the HTTP/1.1 fallback.
 *   home: verify certificates for real against the NSS database in home/.pki/nssdb (where
 *   `negotiate-h2 trust` puts the local CA) instead of ignoring certificate errors.
 */
function launchChromium({ extraArgs = [], timeout = 30_000, home } = {}) {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, ...(home === undefined ? ['--ignore-certificate-errors'] : []), ...extraArgs],
    ...(home === undefined ? {} : { env: { ...process.env, HOME: home } }),
    timeout,
  });
}

/** A fresh context (no cache, no cookies) that accepts the server's certificate whoever signed it
 * (pass { ignoreHTTPSErrors: false } for a browser launched with `home`). */
function newSecureContext(browser, options = {}) {
  return browser.newContext({ ignoreHTTPSErrors: true, ...options });
}

module.exports = { CHROMIUM_PATH, chromiumSkipReason, launchChromium, newSecureContext };
