'use strict';
// The hpack-test-case interop corpus: decode every implementation's stories,
// round-trip raw-data through all six strategies, and compare wire sizes with
// the paper's reference encoder (haskell-http2).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { Encoder, Decoder } = require('../../native');

const corpus = path.resolve(__dirname, '..', '..', '..', 'shared', 'hpack-test-case');
const skip = fs.existsSync(corpus) ? false : `HPACK corpus not found at ${corpus} (../shared is absent)`;

function stories(folder) {
  const dir = path.join(corpus, folder);
  return fs
    .readdirSync(dir)
    .filter((f) => /^story_\d+\.json$/.test(f))
    .sort()
    .map((f) => ({ name: f, cases: JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')).cases }));
}

// A case's headers as [[name, value], ...] (each is a one-key object in the JSON).
const pairs = (c) => c.headers.map((h) => Object.entries(h)[0]);

const encoderFolders = skip
  ? []
  : fs.readdirSync(corpus).filter((f) => f !== 'raw-data' && fs.statSync(path.join(corpus, f)).isDirectory());

test('decodes every encoder folder of hpack-test-case', { skip }, async (t) => {
  assert.ok(encoderFolders.length >= 10, `expected the encoder folders in ${corpus}`);
  for (const folder of encoderFolders) {
    await t.test(folder, () => {
      let blocks = 0;
      for (const story of stories(folder)) {
        const decoder = new Decoder();
        for (const c of story.cases) {
          if (c.header_table_size !== undefined) decoder.setTableSize(c.header_table_size);
          const got = decoder.decode(Buffer.from(c.wire, 'hex'));
          assert.deepStrictEqual(got, pairs(c), `${folder}/${story.name} case ${c.seqno}`);
          blocks++;
        }
      }
      assert.ok(blocks > 0);
    });
  }
});

const strategies = [];
for (const indexing of ['none', 'static', 'linear']) {
  for (const huffman of [false, true]) {
    const paperName = { none: 'naive', static: 'static', linear: 'linear' }[indexing];
    strategies.push({ indexing, huffman, reference: `haskell-http2-${paperName}${huffman ? '-huffman' : ''}` });
  }
}

test('encodes raw-data with all six strategies, round-trips, and is no larger than haskell-http2', { skip }, async (t) => {
  const raw = stories('raw-data');
  for (const { indexing, huffman, reference } of strategies) {
    await t.test(`${indexing}${huffman ? '+huffman' : ''} vs ${reference}`, () => {
      const refStories = new Map(stories(reference).map((s) => [s.name, s]));
      for (const story of raw) {
        // The paper's strategies: no short-cookie rule, the fixed list of
        // volatile fields instead of learning (see hpack.h).
        const encoder = new Encoder({ indexing, huffman, neverIndexShortCookies: false, learnRepeats: false });
        const decoder = new Decoder();
        let ours = 0;
        for (const c of story.cases) {
          const block = encoder.encode(pairs(c));
          assert.deepStrictEqual(decoder.decode(block), pairs(c), `${story.name} case ${c.seqno}`);
          ours += block.length;
        }
        const ref = refStories.get(story.name);
        assert.ok(ref, `${reference} has no ${story.name}`);
        const theirs = ref.cases.reduce((n, c) => n + c.wire.length / 2, 0);
        assert.ok(ours <= theirs, `${story.name}: ${ours} bytes, ${reference} ${theirs}`);
      }
    });
  }
});

// The default encoder learns which names' entries get reused (see hpack.h):
// over the whole corpus its wire bytes are at most 0.300 of the name+value
// bytes, the paper's linear+Huffman strategy's 0.3076.
test('the default linear+Huffman encoder compresses raw-data to at most 0.300', { skip }, () => {
  let wire = 0;
  let plain = 0;
  for (const story of stories('raw-data')) {
    const encoder = new Encoder();
    const decoder = new Decoder();
    for (const c of story.cases) {
      const block = encoder.encode(pairs(c));
      assert.deepStrictEqual(decoder.decode(block), pairs(c), `${story.name} case ${c.seqno}`);
      wire += block.length;
      for (const [name, value] of pairs(c)) plain += name.length + value.length;
    }
  }
  assert.ok(wire / plain <= 0.3, `ratio ${(wire / plain).toFixed(4)}`);
});
