'use strict';
// native/tools/qif.js: the QPACK Offline Interop Format tool's conventions,
// its refusal to overwrite, and clean failures on malformed input.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const QIF = path.resolve(__dirname, '..', '..', 'native', 'tools', 'qif.js');

function qif(...args) {
  return spawnSync(process.execPath, [QIF, ...args], { encoding: 'latin1' });
}

function tmpdir(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qif-test-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function record(streamId, bytes) {
  const head = Buffer.alloc(12);
  head.writeBigUInt64BE(BigInt(streamId));
  head.writeUInt32BE(bytes.length, 8);
  return Buffer.concat([head, Buffer.from(bytes)]);
}

// UTF-8, raw bytes above 0x7f, a tab inside a value, a comment, repeated sections.
const TEXT = Buffer.concat([
  Buffer.from('# a comment\n:method\tGET\n:path\t/caf\u00e9\n'),
  Buffer.from([0x78, 0x2d, 0x72, 0x61, 0x77, 0x09, 0xff, 0x80, 0xfe, 0x0a]),
  Buffer.from('x-tab\ta\tb\n\n:method\tGET\n:path\t/caf\u00e9\nx-again\tsame\n\n:method\tGET\nx-again\tsame\n\n'),
]);
const EXPECTED = Buffer.from(TEXT.toString('latin1').replace('# a comment\n', ''), 'latin1');

test('encode then decode gives the sections back byte for byte, one stream each from 1', (t) => {
  const dir = tmpdir(t);
  for (const flags of [['--table-size', '4096', '--max-blocked', '100'], ['--table-size', '256', '--max-blocked', '0', '--immediate-ack']]) {
    const [input, encoded, decoded] = ['in.qif', 'enc.out', 'dec.qif'].map((f) => path.join(dir, f));
    for (const f of [encoded, decoded]) fs.rmSync(f, { force: true });
    fs.writeFileSync(input, TEXT);
    assert.strictEqual(qif('encode', ...flags, input, encoded).status, 0);
    const bytes = fs.readFileSync(encoded);
    const streams = [];
    for (let pos = 0; pos < bytes.length; pos += 12 + bytes.readUInt32BE(pos + 8)) streams.push(Number(bytes.readBigUInt64BE(pos)));
    assert.deepStrictEqual(streams.filter((s) => s !== 0), [1, 2, 3]);
    // Set Dynamic Table Capacity comes first on the encoder stream.
    const first = streams.indexOf(0);
    assert.ok(first >= 0, 'sections repeat, so something is inserted');
    let at = 0;
    for (let i = 0; i < first; i++) at += 12 + bytes.readUInt32BE(at + 8);
    assert.strictEqual(bytes[at + 12] & 0xe0, 0x20);
    const r = qif('decode', ...flags, encoded, decoded);
    assert.strictEqual(r.status, 0, r.stderr);
    assert.ok(fs.readFileSync(decoded).equals(EXPECTED));
  }
});

test('decode writes sections in stream order', (t) => {
  const dir = tmpdir(t);
  const input = path.join(dir, 'in.out');
  const output = path.join(dir, 'out.qif');
  // Required Insert Count 0, Base 0, then static :path / (index 1) or :method GET (17).
  fs.writeFileSync(input, Buffer.concat([record(2, [0, 0, 0xc1]), record(1, [0, 0, 0xd1])]));
  assert.strictEqual(qif('decode', '--table-size', '0', '--max-blocked', '0', input, output).status, 0);
  assert.strictEqual(fs.readFileSync(output, 'latin1'), ':method\tGET\n\n:path\t/\n\n');
});

test('an existing OUT is left alone unless --force', (t) => {
  const dir = tmpdir(t);
  const input = path.join(dir, 'in.qif');
  const output = path.join(dir, 'precious');
  fs.writeFileSync(input, ':method\tGET\n\n');
  fs.writeFileSync(output, 'not ours');
  const r = qif('encode', '--table-size', '0', '--max-blocked', '0', input, output);
  assert.strictEqual(r.status, 1);
  assert.match(r.stderr, /precious exists; not overwriting it without --force/);
  assert.strictEqual(fs.readFileSync(output, 'utf8'), 'not ours');
  assert.strictEqual(qif('encode', '--table-size', '0', '--max-blocked', '0', '--force', input, output).status, 0);
  assert.ok(fs.readFileSync(output).equals(record(1, [0, 0, 0xd1])));
});

test('malformed input ends with a message and exit 1, and writes nothing', (t) => {
  const dir = tmpdir(t);
  const cases = [
    ['decode', Buffer.from([0, 0, 0, 0, 0, 0, 0, 1, 0, 0]), /truncated header/],
    ['decode', Buffer.concat([record(1, [0, 0, 0xc1]).subarray(0, 13)]), /3 bytes announced, 1 left/],
    ['decode', record(1, [0, 0, 0xff, 0x24]), /static index past the table \[ERR_QPACK_DECOMPRESSION_FAILED\]/],
    // Set Dynamic Table Capacity 4097, one more than --table-size.
    ['decode', record(0, [0x3f, 0xe2, 0x1f]), /table capacity above SETTINGS_QPACK_MAX_TABLE_CAPACITY \[ERR_QPACK_ENCODER_STREAM_ERROR\]/],
    ['decode', record(1, [0x02, 0x80, 0x10]), /more blocked streams than SETTINGS_QPACK_BLOCKED_STREAMS/],
    ['decode', Buffer.concat([record(1, [0, 0, 0xc1]), record(1, [0, 0, 0xc1])]), /a second field section on stream 1/],
    ['encode', Buffer.from(':method GET\n'), /line 1: expected name<TAB>value/],
    ['encode', Buffer.from(':method\tGET\nUser-Agent\tx\n\n'), /line 2: field names must be lower case/],
  ];
  for (const [mode, bytes, message] of cases) {
    const input = path.join(dir, 'in');
    const output = path.join(dir, 'out');
    fs.writeFileSync(input, bytes);
    const r = qif(mode, '--table-size', '4096', '--max-blocked', '0', input, output);
    assert.strictEqual(r.status, 1, `${message}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.ok(!fs.existsSync(output));
  }
});

test('bad usage exits 2 with the usage line', () => {
  for (const args of [[], ['squash', '--table-size', '0', '--max-blocked', '0', 'a', 'b'], ['encode', '--table-size', 'x', '--max-blocked', '0', 'a', 'b'], ['encode', '--table-size', '0', 'a', 'b']]) {
    const r = qif(...args);
    assert.strictEqual(r.status, 2);
    assert.match(r.stderr, /usage: node native\/tools\/qif.js encode\|decode/);
  }
});
