'use strict';
// Interop with the Python hpack package (PyPI hpack, used by h2 and hyper):
// it decodes every block our default encoder writes for the hpack-test-case
// raw-data stories, and we decode what its encoder writes for them.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { Encoder, Decoder } = require('../../native');

const corpus = path.resolve(__dirname, '..', '..', '..', 'shared', 'hpack-test-case', 'raw-data');

function skipReason() {
  if (!fs.existsSync(corpus)) return `HPACK corpus not found at ${corpus} (../shared is absent)`;
  const r = spawnSync('python3', ['-c', 'import hpack'], { encoding: 'utf8' });
  return r.status === 0 ? false : 'the Python hpack package is not installed (bash scripts/system-deps.sh install, or pip install hpack)';
}
const skip = skipReason();

// stdin: [{ decode: [hex, ...], encode: [[[name, value], ...], ...] }, ...], one
// connection per story each way; stdout: the decoded blocks and the encoded hex.
// Names and values travel as latin1 strings, bytes as they are on the wire.
const PYTHON = `
import json, sys
from hpack import Decoder, Encoder
out = []
for story in json.load(sys.stdin):
    dec, enc = Decoder(), Encoder()
    decoded = [[[n.decode('latin1'), v.decode('latin1')] for n, v in dec.decode(bytes.fromhex(h), raw=True)]
               for h in story['decode']]
    encoded = [enc.encode([(n.encode('latin1'), v.encode('latin1')) for n, v in block]).hex()
               for block in story['encode']]
    out.append({'decoded': decoded, 'encoded': encoded})
json.dump(out, sys.stdout)
`;

function stories() {
  return fs.readdirSync(corpus).filter((f) => /^story_\d+\.json$/.test(f)).sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(corpus, f), 'utf8')).cases.map((c) => c.headers.map((h) => Object.entries(h)[0])));
}

test('Python hpack decodes our output, and we decode its, over the raw-data stories', { skip, timeout: 120_000 }, () => {
  const all = stories();
  const input = all.map((blocks) => {
    const encoder = new Encoder();
    return { decode: blocks.map((b) => encoder.encode(b).toString('hex')), encode: blocks };
  });
  const r = spawnSync('python3', ['-c', PYTHON], { input: JSON.stringify(input), encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  assert.strictEqual(r.status, 0, r.stderr);
  const results = JSON.parse(r.stdout);
  assert.strictEqual(results.length, all.length);
  all.forEach((blocks, s) => {
    assert.deepStrictEqual(results[s].decoded, blocks, `Python decoding our story ${s}`);
    const decoder = new Decoder();
    results[s].encoded.forEach((hex, b) => {
      assert.deepStrictEqual(decoder.decode(Buffer.from(hex, 'hex')), blocks[b], `our decoder, Python's story ${s} block ${b}`);
    });
  });
});
