'use strict';
// Seed corpora for the fuzz targets, in the input formats fuzz_input.h and the
// targets' header comments define: RFC 7541 Appendix C and the interop stories
// of hpack-test-case (every encoder's wire blocks, the raw header lists).
// Seeds are written as files named by their SHA-1, so rebuilding into a
// corpus libFuzzer has grown adds nothing twice.

const crypto = require('node:crypto');
const fs = require('node:fs/promises');
const path = require('node:path');
const appendixC = require('../../test/fixtures/rfc7541-appendix-c.json');

// Config bytes, matching the tables in fuzz_decoder.c, fuzz_roundtrip.c and fuzz_qpack_decoder.c.
const DECODER_TABLE_CONFIG = { 4096: 0, 256: 1, 65536: 3 };
const ROUNDTRIP_TABLE_CONFIG = { 4096: 0, 256: 1 };
const QPACK_CONFIG = { 4096: 0, 256: 1 }; // 100 blocked streams, 1 MiB sections
const QPACK_ENCODER_STREAM = 0x80;
const ROUNDTRIP_NEVER_INDEXED = 1;
const ROUNDTRIP_END_OF_BLOCK = 2;

// Keeps seeds small enough for fast mutation while covering many blocks of a story.
const MAX_SEED_BYTES = 8 * 1024;
const MAX_ROUNDTRIP_HEADERS = 256; // MAX_HEADERS in fuzz_roundtrip.c
const MAX_STRING_SEEDS = 1500;

function u16(n) {
  return Buffer.from([(n >> 8) & 0xff, n & 0xff]);
}

// fuzz_string(): one length byte under 0x80, else two bytes up to 32767.
function fuzzString(bytes) {
  const s = bytes.subarray(0, 0x7fff);
  const len = s.length < 0x80 ? Buffer.from([s.length]) : Buffer.from([0x80 | (s.length >> 8), s.length & 0xff]);
  return Buffer.concat([len, s]);
}

// A decoder seed: config byte, then length-framed blocks while they fit.
function decoderSeed(config, blocks) {
  const parts = [Buffer.from([config])];
  let size = 1;
  for (const block of blocks) {
    if (size > 1 && size + 2 + block.length > MAX_SEED_BYTES) break;
    parts.push(u16(block.length), block);
    size += 2 + block.length;
  }
  return Buffer.concat(parts);
}

// A round-trip seed: config byte, then headers with the end-of-block flag on each block's last.
function roundtripSeed(config, headerBlocks) {
  const parts = [Buffer.from([config])];
  let size = 1;
  let count = 0;
  for (const headers of headerBlocks) {
    const encoded = headers.map(([name, value], i) => Buffer.concat([
      Buffer.from([(i === headers.length - 1 ? ROUNDTRIP_END_OF_BLOCK : 0) | (name === 'authorization' ? ROUNDTRIP_NEVER_INDEXED : 0)]),
      fuzzString(Buffer.from(name)),
      fuzzString(Buffer.from(value)),
    ]));
    const blockBytes = encoded.reduce((n, b) => n + b.length, 0);
    if (count > 0 && (size + blockBytes > MAX_SEED_BYTES || count + headers.length > MAX_ROUNDTRIP_HEADERS)) break;
    parts.push(...encoded);
    size += blockBytes;
    count += headers.length;
  }
  return Buffer.concat(parts);
}

// A QPACK decoder seed: config byte, then (kind, length-framed bytes) records while they fit.
function qpackSeed(config, records) {
  const parts = [Buffer.from([config])];
  let size = 1;
  for (const [kind, bytes] of records) {
    if (size > 1 && size + 3 + bytes.length > MAX_SEED_BYTES) break;
    parts.push(Buffer.from([kind]), u16(bytes.length), bytes);
    size += 3 + bytes.length;
  }
  return Buffer.concat(parts);
}

// RFC 9204 Appendix B: the encoder stream and the sections of streams 0, 4 and 8.
const RFC9204_EXAMPLES = [
  [0, '0000510b2f696e6465782e68746d6c'],
  [QPACK_ENCODER_STREAM, '3fbd01c00f7777772e6578616d706c652e636f6dc10c2f73616d706c652f70617468'],
  [1, '03811011'],
  [QPACK_ENCODER_STREAM, '4a637573746f6d2d6b65790c637573746f6d2d76616c7565'],
  [QPACK_ENCODER_STREAM, '02'],
  [2, '050080c181'],
  [QPACK_ENCODER_STREAM, '810d637573746f6d2d76616c756532'],
];

// A story through our QPACK encoder, acknowledged after every section, as decoder records.
function qpackStory(tableSize, cases) {
  // Loaded here: only this target needs the addon built.
  const { QpackEncoder } = require('../qpack');
  const enc = new QpackEncoder({ maxTableCapacity: tableSize, maxBlockedStreams: 100 });
  const records = [];
  cases.forEach((c, i) => {
    const kind = (i % 63) + 1;
    const fields = headerPairs(c).map(([n, v]) => [n, Buffer.from(v).toString('latin1')]);
    const { section, encoderStream } = enc.encode(4 * kind, fields);
    if (encoderStream.length) records.push([QPACK_ENCODER_STREAM, encoderStream]);
    records.push([kind, section]);
    enc.assumeAcknowledged();
  });
  return qpackSeed(QPACK_CONFIG[tableSize], records);
}

// The encoder-stream bytes our QPACK encoder writes for a story's sections (at most
// MAX_SEED_BYTES), acknowledged after every section.
function qpackEncoderStream(tableSize, cases) {
  const { QpackEncoder } = require('../qpack');
  const enc = new QpackEncoder({ maxTableCapacity: tableSize, maxBlockedStreams: 100 });
  const parts = [];
  let size = 0;
  for (const [i, c] of cases.entries()) {
    const fields = headerPairs(c).map(([n, v]) => [n, Buffer.from(v).toString('latin1')]);
    const { encoderStream } = enc.encode(4 * (i + 1), fields);
    if (size + encoderStream.length > MAX_SEED_BYTES) break;
    parts.push(encoderStream);
    size += encoderStream.length;
    enc.assumeAcknowledged();
  }
  return Buffer.concat(parts);
}

// A QPACK round-trip seed (fuzz_qpack_roundtrip.c): per section, encode it,
// deliver the encoder stream, the section and the acknowledgments.
const QPACK_ROUNDTRIP_MAX_FIELDS = 16;
function qpackRoundtripSeed(config, headerBlocks) {
  const parts = [Buffer.from([config])];
  let size = 1;
  for (const headers of headerBlocks.slice(0, 64)) {
    const fields = headers.slice(0, QPACK_ROUNDTRIP_MAX_FIELDS).map(([name, value]) =>
      Buffer.concat([Buffer.from([name === 'authorization' ? 1 : 0]), fuzzString(Buffer.from(name)), fuzzString(Buffer.from(value))]));
    const op = Buffer.concat([Buffer.from([0, fields.length]), ...fields, Buffer.from([1, 255, 1, 255, 2, 3])]);
    if (size > 1 && size + op.length > MAX_SEED_BYTES) break;
    parts.push(op);
    size += op.length;
  }
  return Buffer.concat(parts);
}

// RFC 7541 5.1 integer at buf[pos] with an n-bit prefix: [value, next position].
function readInt(buf, pos, n) {
  const max = (1 << n) - 1;
  let value = buf[pos++] & max;
  if (value < max) return [value, pos];
  for (let shift = 0; pos < buf.length; shift += 7) {
    const b = buf[pos++];
    value += (b & 0x7f) * 2 ** shift;
    if (!(b & 0x80)) break;
  }
  return [value, pos];
}

// The Huffman-coded string literals of a well-formed header block.
function huffmanStrings(block) {
  const out = [];
  let pos = 0;
  const string = () => {
    const huffman = block[pos] & 0x80;
    const [len, start] = readInt(block, pos, 7);
    if (huffman) out.push(block.subarray(start, start + len));
    pos = start + len;
  };
  while (pos < block.length) {
    const b = block[pos];
    if (b & 0x80) [, pos] = readInt(block, pos, 7);
    else if ((b & 0xe0) === 0x20) [, pos] = readInt(block, pos, 5);
    else {
      let index;
      [index, pos] = readInt(block, pos, b & 0x40 ? 6 : 4);
      if (index === 0) string();
      string();
    }
  }
  return out;
}

async function readStories(sharedDir) {
  const root = path.join(sharedDir, 'hpack-test-case');
  const stories = [];
  for (const dir of (await fs.readdir(root, { withFileTypes: true })).filter((d) => d.isDirectory())) {
    const files = (await fs.readdir(path.join(root, dir.name))).filter((f) => /^story_\d+\.json$/.test(f)).sort();
    for (const file of files) {
      const { cases } = JSON.parse(await fs.readFile(path.join(root, dir.name, file), 'utf8'));
      stories.push({ encoder: dir.name, cases });
    }
  }
  return stories;
}

function headerPairs(testCase) {
  return testCase.headers.map((h) => Object.entries(h)[0]);
}

// Spread a deterministic selection over the whole list rather than taking its head.
function sample(items, max) {
  if (items.length <= max) return items;
  const step = items.length / max;
  return Array.from({ length: max }, (_, i) => items[Math.floor(i * step)]);
}

function seedsFor(target, stories) {
  const hex = (h) => Buffer.from(h, 'hex');
  const wireStories = stories.filter((s) => s.cases.length > 0 && s.cases[0].wire !== undefined);
  switch (target) {
    case 'decoder':
      return [
        ...appendixC.representations.map((r) => decoderSeed(0, [hex(r.wire)])),
        ...appendixC.examples.map((e) => decoderSeed(DECODER_TABLE_CONFIG[e.tableSize], e.blocks.map((b) => hex(b.wire)))),
        ...wireStories.map((s) => {
          const large = s.cases.some((c) => (c.header_table_size ?? 4096) > 4096);
          return decoderSeed(DECODER_TABLE_CONFIG[large ? 65536 : 4096], s.cases.map((c) => hex(c.wire)));
        }),
      ];
    case 'huffman': {
      const blocks = [...appendixC.examples.flatMap((e) => e.blocks.map((b) => b.wire)), ...wireStories.flatMap((s) => s.cases.map((c) => c.wire))];
      const coded = blocks.flatMap((h) => huffmanStrings(hex(h)));
      const plain = stories.filter((s) => s.encoder === 'raw-data')
        .flatMap((s) => s.cases.flatMap((c) => headerPairs(c).map(([, v]) => Buffer.from(v))));
      return [...sample(coded, MAX_STRING_SEEDS), ...sample(plain, MAX_STRING_SEEDS)];
    }
    case 'roundtrip':
      return stories.filter((s) => s.encoder === 'raw-data').flatMap((s) => {
        const blocks = s.cases.map(headerPairs);
        // The 256-byte table makes the same story evict constantly.
        return [roundtripSeed(ROUNDTRIP_TABLE_CONFIG[4096], blocks), roundtripSeed(ROUNDTRIP_TABLE_CONFIG[256], blocks)];
      });
    case 'qpack_decoder':
      return [
        qpackSeed(QPACK_CONFIG[256], RFC9204_EXAMPLES.map(([kind, h]) => [kind, hex(h)])),
        ...stories.filter((s) => s.encoder === 'raw-data').flatMap((s) => [qpackStory(4096, s.cases), qpackStory(256, s.cases)]),
      ];
    case 'qpack_encoder_stream': {
      // Config 0 (table 4096) or 1 (256); the stream whole, and cut in three.
      const streams = [
        Buffer.concat(RFC9204_EXAMPLES.filter(([kind]) => kind === QPACK_ENCODER_STREAM).map(([, h]) => hex(h))),
        ...stories.filter((s) => s.encoder === 'raw-data').map((s) => qpackEncoderStream(4096, s.cases)),
      ];
      return streams.flatMap((stream) => [0, 1].flatMap((config) =>
        [Buffer.concat([Buffer.from([config, 0]), stream]), Buffer.concat([Buffer.from([config, 2, 85, 170]), stream])]));
    }
    case 'qpack_roundtrip':
      // Config: table 4096 or 256, 100 or 1 blocked streams, Huffman.
      return stories.filter((s) => s.encoder === 'raw-data').flatMap((s) =>
        [0x10, 0x11, 0x15].map((config) => qpackRoundtripSeed(config, s.cases.map(headerPairs))));
    default:
      throw new Error(`unknown fuzz target "${target}"`);
  }
}

// Writes the seeds of `target` into dir; resolves the number of distinct seeds.
async function buildCorpus(target, dir, { sharedDir }) {
  await fs.mkdir(dir, { recursive: true });
  const stories = await readStories(sharedDir);
  const seeds = new Map();
  for (const seed of seedsFor(target, stories)) seeds.set(crypto.createHash('sha1').update(seed).digest('hex'), seed);
  await Promise.all([...seeds].map(([name, seed]) => fs.writeFile(path.join(dir, name), seed)));
  return seeds.size;
}

module.exports = { buildCorpus };
