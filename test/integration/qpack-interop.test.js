'use strict';
// QPACK interop with ls-qpack (PyPI pylsqpack) through the Offline Interop
// Format: what one side encodes the other decodes, over the hpack-test-case
// stories, at table sizes 0, 256 and 4096, with 0 and 100 blocked streams,
// with and without immediate acknowledgments. Decoded text must equal the input.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync, spawnSync } = require('node:child_process');
const { missing, storiesQif } = require('../helpers/qpack-stories');

const QIF = path.resolve(__dirname, '..', '..', 'native', 'tools', 'qif.js');
const PY = path.join(__dirname, '..', 'helpers', 'qif_pylsqpack.py');

function pylsqpackMissing() {
  const r = spawnSync('python3', ['-c', 'import pylsqpack'], { encoding: 'utf8' });
  return r.status === 0 ? false : 'pylsqpack is not installed (bash scripts/system-deps.sh install, or pip install pylsqpack)';
}

const skip = missing || pylsqpackMissing();

// The first section where two QIF texts differ, for a readable failure.
function firstDifference(actual, expected) {
  const a = actual.toString('latin1').split('\n\n');
  const e = expected.toString('latin1').split('\n\n');
  for (let i = 0; i < Math.max(a.length, e.length); i++) {
    if (a[i] !== e[i]) return `section ${i + 1}:\n got: ${JSON.stringify(a[i])}\nwant: ${JSON.stringify(e[i])}`;
  }
  return 'identical';
}

// Records of an encoded file: [{ streamId, bytes }].
function records(buf) {
  const out = [];
  for (let pos = 0; pos < buf.length; ) {
    const len = buf.readUInt32BE(pos + 8);
    out.push({ streamId: Number(buf.readBigUInt64BE(pos)), bytes: buf.subarray(pos + 12, pos + 12 + len) });
    pos += 12 + len;
  }
  return out;
}

test('QPACK interop with pylsqpack over the hpack-test-case stories', { skip, timeout: 600_000 }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qpack-interop-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const input = path.join(dir, 'stories.qif');
  const text = storiesQif();
  fs.writeFileSync(input, text);
  const sections = text.toString('latin1').split('\n\n').length - 1;

  for (const tableSize of [0, 256, 4096]) {
    for (const maxBlocked of [0, 100]) {
      for (const ack of [false, true]) {
        const name = `table ${tableSize}, blocked ${maxBlocked}${ack ? ', immediate ack' : ''}`;
        await t.test(`ours -> pylsqpack, ${name}`, () => {
          const encoded = path.join(dir, `ours-${tableSize}-${maxBlocked}-${ack}.out`);
          const decoded = `${encoded}.qif`;
          const flags = ['--table-size', String(tableSize), '--max-blocked', String(maxBlocked)];
          execFileSync(process.execPath, [QIF, 'encode', ...flags, ...(ack ? ['--immediate-ack'] : []), input, encoded]);
          execFileSync('python3', [PY, 'decode', String(tableSize), String(maxBlocked), encoded, decoded]);
          const got = fs.readFileSync(decoded);
          assert.ok(got.equals(text), firstDifference(got, text));
          const recs = records(fs.readFileSync(encoded));
          assert.strictEqual(recs.filter((r) => r.streamId !== 0).length, sections);
          // Without acknowledgments and with no blocked streams allowed, no
          // section may need an insert: every Required Insert Count is 0.
          if (maxBlocked === 0 && !ack) assert.ok(recs.every((r) => r.streamId === 0 || r.bytes[0] === 0));
          // The capacity is set before the first insert, and never with a 0 table.
          const encoderStream = recs.filter((r) => r.streamId === 0);
          if (tableSize === 0) assert.strictEqual(encoderStream.length, 0);
          else if (encoderStream.length) assert.strictEqual(encoderStream[0].bytes[0] & 0xe0, 0x20);
        });
        await t.test(`pylsqpack -> ours, ${name}`, () => {
          const encoded = path.join(dir, `py-${tableSize}-${maxBlocked}-${ack}.out`);
          const decoded = `${encoded}.qif`;
          execFileSync('python3', [PY, 'encode', String(tableSize), String(maxBlocked), ack ? '1' : '0', input, encoded]);
          execFileSync(process.execPath, [QIF, 'decode', '--table-size', String(tableSize), '--max-blocked', String(maxBlocked), encoded, decoded]);
          const got = fs.readFileSync(decoded);
          assert.ok(got.equals(text), firstDifference(got, text));
        });
      }
    }
  }
});

// Every entry of our static table (read from the RFC text the generator reads)
// as one section: our encoder sends each as a static index, so ls-qpack decodes
// it with its own table; a wrong name or value on our side shows as a mismatch.
test('QPACK interop: every static table entry means the same to both', { skip: pylsqpackMissing(), timeout: 60_000 }, (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qpack-static-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const rows = fs.readFileSync(path.resolve(__dirname, '..', '..', 'native', 'tools', 'rfc9204_static_table.txt'), 'latin1')
    .split('\n').map((l) => /^\s*\|\s*(\d+)\s*\|\s*(\S+)\s*\|\s*(.*?)\s*\|\s*$/.exec(l)).filter(Boolean);
  assert.strictEqual(rows.length, 99);
  const text = Buffer.from(rows.map((m) => `${m[2]}\t${m[3]}\n`).join('') + '\n', 'latin1');
  const [input, ours, oursDecoded, theirs, theirsDecoded] = ['in.qif', 'ours.out', 'ours.qif', 'py.out', 'py.qif'].map((f) => path.join(dir, f));
  fs.writeFileSync(input, text);
  const flags = ['--table-size', '0', '--max-blocked', '0'];
  execFileSync(process.execPath, [QIF, 'encode', ...flags, input, ours]);
  // Record header, prefix, one byte per index below 63 and two above; cookie (5) and
  // authorization (84) are never indexed: literals naming the entry, one byte more each.
  assert.strictEqual(fs.readFileSync(ours).length, 12 + 2 + 63 + 2 * 36 + 2);
  execFileSync('python3', [PY, 'decode', '0', '0', ours, oursDecoded]);
  assert.ok(fs.readFileSync(oursDecoded).equals(text), firstDifference(fs.readFileSync(oursDecoded), text));
  execFileSync('python3', [PY, 'encode', '0', '0', '0', input, theirs]);
  execFileSync(process.execPath, [QIF, 'decode', ...flags, theirs, theirsDecoded]);
  assert.ok(fs.readFileSync(theirsDecoded).equals(text), firstDifference(fs.readFileSync(theirsDecoded), text));
});
