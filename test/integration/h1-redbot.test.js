'use strict';
// REDbot (PyPI `redbot`, run against loopback, no network) checks the native HTTP/1.1
// engine's responses: no warning or error beyond the Cache-Control policy, which is the
// --cache-control option's choice (REDbot finds "public" unneeded).

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { execFile, execFileSync } = require('node:child_process');
const { startTestServer, compressibleText } = require('../helpers/server');

function redbotSkipReason() {
  try {
    execFileSync('sh', ['-c', 'command -v redbot'], { stdio: 'ignore' });
    return false;
  } catch {
    return 'redbot is not installed (pip install redbot)';
  }
}

const SKIP = redbotSkipReason();
const POLICY_SUBJECT = 'field-cache-control';

let t;
before(async () => {
  if (!SKIP) t = await startTestServer({ engine: 'native', files: { 'index.html': `<!doctype html><title>t</title><p>${compressibleText(4096)}</p>\n`, 'style.css': `p { color: red; }\n${'/* pad */\n'.repeat(300)}` } });
});
after(() => t && t.close());

// Resolves REDbot's notes for a URL: [{ level, subject, summary }].
function redbot(url) {
  return new Promise((resolve, reject) => {
    execFile('redbot', ['-o', 'har', url], { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`redbot failed: ${err.message}\n${stderr}`));
      const har = JSON.parse(stdout);
      resolve(har.log.entries.flatMap((e) => e._red_messages || []));
    });
  });
}

for (const path of ['/', '/style.css']) {
  test(`REDbot finds nothing to warn about in ${path} but the cache policy`, { skip: SKIP, timeout: 90_000 }, async () => {
    const notes = await redbot(`https://127.0.0.1:${t.port}${path}`);
    assert.ok(notes.some((n) => n.level === 'GOOD'), 'REDbot reported no checks at all');
    const complaints = notes.filter((n) => (n.level === 'WARN' || n.level === 'BAD') && n.subject !== POLICY_SUBJECT);
    assert.deepEqual(complaints, []);
  });
}
