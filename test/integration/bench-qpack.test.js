'use strict';
// bench/qpack builds and runs: each codec encodes a small repetitive input and
// decodes its own output, checked field by field inside the binary (it exits 1
// on a wrong field); a tiny run with no timing loop.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const BENCH_DIR = path.resolve(__dirname, '..', '..', 'bench', 'qpack');
const skip = fs.existsSync('/usr/include/nghttp3/nghttp3.h') ? false : 'libnghttp3-dev is not installed (bash scripts/system-deps.sh install)';

test('the QPACK benchmark binary encodes and decodes with both codecs', { skip, timeout: 120_000 }, (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qpack-bench-test-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  execFileSync('make', ['-C', BENCH_DIR, '--no-print-directory', `OUT=${dir}`], { stdio: 'ignore' });
  const input = path.join(dir, 'in.qif');
  const section = ':method\tGET\n:authority\texample.com\n:path\t/\nuser-agent\tbench-test/1.0\nx-custom\tvalue\n\n';
  fs.writeFileSync(input, section.repeat(20));
  const lines = execFileSync(path.join(dir, 'qpack-bench'), [input, '4096', '100', '0'], { encoding: 'utf8' })
    .trim().split('\n').map(JSON.parse);
  assert.deepStrictEqual(lines.map((l) => l.job), ['ours/encode', 'ours/decode', 'nghttp3/encode', 'nghttp3/decode']);
  for (const l of lines) {
    assert.strictEqual(l.sections, 20);
    assert.strictEqual(l.header_bytes, 20 * 74); // names and values of one section: 10 + 21 + 6 + 24 + 13
    assert.ok(l.ratio < 0.5, `${l.job}: ratio ${l.ratio} for 20 equal sections`);
  }
});
