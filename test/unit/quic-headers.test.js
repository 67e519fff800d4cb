'use strict';
// scripts/quic-headers.js, binding.gyp's test for the QUIC addon: which Node headers declare
// OpenSSL 3.5's QUIC server API, and the folder as binding.gyp must get it.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { quicInclude, declaresQuic } = require('../../scripts/quic-headers');

const SCRIPT = path.join(__dirname, '..', '..', 'scripts', 'quic-headers.js');

// A nodedir whose include/node/openssl/<arch>/ssl.h declares `declared`.
function nodeDir(root, name, declared) {
  const ssl = path.join(root, name, 'include', 'node', 'openssl', 'archs', 'linux-x86_64', 'asm', 'include', 'openssl');
  fs.mkdirSync(ssl, { recursive: true });
  fs.writeFileSync(path.join(ssl, 'ssl.h'), `SSL *${declared}(SSL_CTX *ctx, uint64_t flags);\n`);
  return path.join(root, name);
}

test('headers that declare SSL_new_listener are chosen, the nodedir\'s own first; none: null', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quic-headers-'));
  try {
    const node24 = nodeDir(root, 'node24', 'SSL_new_listener');
    const node20 = nodeDir(root, 'node20', 'SSL_new');
    const emptyCache = path.join(root, 'cache');
    assert.equal(declaresQuic(path.join(node24, 'include', 'node')), true);
    assert.equal(declaresQuic(path.join(node20, 'include', 'node')), false);
    assert.equal(declaresQuic(path.join(root, 'nothing')), false);
    assert.equal(quicInclude(node24, emptyCache), path.join(node24, 'include', 'node'));
    assert.equal(quicInclude(node20, emptyCache), null);
    // As binding.gyp runs it: `DIR/.`, which its exclusion of the nodedir's include/node leaves in.
    const printed = execFileSync(process.execPath, [SCRIPT, node24], { env: { ...process.env, XDG_CACHE_HOME: emptyCache } }).toString();
    assert.equal(printed, `${path.join(node24, 'include', 'node')}/.`);
    assert.equal(execFileSync(process.execPath, [SCRIPT, node20], { env: { ...process.env, XDG_CACHE_HOME: emptyCache } }).toString(), '');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
