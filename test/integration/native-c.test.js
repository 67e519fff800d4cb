'use strict';
// Runs the C core's own tests (ASan + UBSan build) so `npm test` covers them.
const test = require('node:test');
const assert = require('node:assert');
const { execFile } = require('node:child_process');
const path = require('node:path');

const nativeDir = path.resolve(__dirname, '..', '..', 'native');

test('make -C native test passes (C core under ASan/UBSan)', { timeout: 300_000 }, async () => {
  const result = await new Promise((resolve) => {
    execFile('make', ['-C', nativeDir, 'test'], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ error, stdout, stderr }),
    );
  });
  assert.ok(!result.error, `make -C native test failed:\n${result.stdout}\n${result.stderr}`);
  assert.match(result.stdout, /c-core: \d+ passed, 0 failed/);
});
