'use strict';
// Launches Debian's Chromium through playwright-core, so browser tests share one
// set of flags and one skip rule: no Chromium means skip, never fail.
const fs = require('node:fs/promises');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { chromium } = require('playwright-core');

const execFileAsync = promisify(execFile);
const CLI = path.resolve(__dirname, '..', '..', 'server');

const CHROMIUM_PATH = '/usr/bin/chromium';
const SKIP_REASON = `chromium not found at ${CHROMIUM_PATH}: apt-get install chromium`;

// Headless and quiet: no background fetches that would add requests to the server under test,
// and no QUIC unless a test asks for it (quic: true).
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu',
  '--disable-background-networking', '--disable-component-update',
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
 * @param {{ extraArgs?: string[], timeout?: number, home?: string, quic?: boolean }} [options]
 *   extraArgs: more Chromium switches, e.g. '--disable-http2' to exercise the HTTP/1.1 fallback.
 *   quic: let Chromium use HTTP/3 (it still needs --origin-to-force-quic-on for a local CA).
 *   home: verify certificates for real against the NSS database in home/.pki/nssdb (where
 *   `negotiate-h2 trust` puts the local CA) instead of ignoring certificate errors.
 */
function launchChromium({ extraArgs = [], timeout = 30_000, home, quic = false } = {}) {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, ...(quic ? [] : ['--disable-quic']), ...(home === undefined ? ['--ignore-certificate-errors'] : []), ...extraArgs],
    ...(home === undefined ? {} : { env: { ...process.env, HOME: home } }),
    timeout,
  });
}

/** A fresh context (no cache, no cookies) that accepts the server's certificate whoever signed it
 * (pass { ignoreHTTPSErrors: false } for a browser launched with `home`). */
function newSecureContext(browser, options = {}) {
  return browser.newContext({ ignoreHTTPSErrors: true, ...options });
}

/**
 * A new HOME (made at `home`) whose NSS database trusts the local CA in caDir (made there if
 * absent), as `negotiate-h2 trust` does for a user: Chromium on Linux reads $HOME/.pki/nssdb, so
 * the real user's store is never touched. Resolves to home.
 */
async function trustLocalCa(caDir, home) {
  await fs.mkdir(home);
  // The CLI refuses NEGOTIATE_* variables it does not know, such as the tests' own.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('NEGOTIATE_')));
  await execFileAsync(process.execPath, [CLI, 'trust', '--ca-dir', caDir], { env: { ...env, HOME: home }, timeout: 30_000 });
  return home;
}

/**
 * Chromium allowed HTTP/3 (docs/http3.md): it trusts the local CA in caDir through a new HOME at
 * home, and resolves localhost to 127.0.0.1, where the servers listen (it would try ::1 first).
 * quicFlags: the --origin-to-force-quic-on switch that forces, or merely allows, QUIC.
 */
async function launchQuicChromium(caDir, home, quicFlags) {
  await trustLocalCa(caDir, home);
  return launchChromium({ home, quic: true, extraArgs: ['--host-resolver-rules=MAP localhost 127.0.0.1', ...quicFlags] });
}

module.exports = { CHROMIUM_PATH, chromiumSkipReason, launchChromium, launchQuicChromium, newSecureContext, trustLocalCa };
