'use strict';
// The hpack-test-case corpus as the benchmarks see it: stories loaded from a
// folder, the wire/plain byte sums Figure 1 needs, and the little-endian
// length-prefixed files the C benchmark reads (so it never parses JSON).
//
// stories file: "HPKS" u32 nStories, per story: u32 nCases,
//   per case: u32 wireLen wire u32 nHeaders, per header: u32 len name u32 len value
// strings file: "HPKL" u32 nStrings, per string: u32 len bytes

const fs = require('node:fs/promises');
const path = require('node:path');

// SETTINGS_HEADER_TABLE_SIZE when a story does not give one (RFC 7540 6.5.2).
const DEFAULT_TABLE_SIZE = 4096;
const STORY_FILE = /^story_\d+\.json$/;

function sharedDir(repoRoot) {
  return path.resolve(repoRoot, '..', 'shared');
}

function corpusDir(repoRoot) {
  return path.join(sharedDir(repoRoot), 'hpack-test-case');
}

// Each case's headers become [name, value] pairs in wire order; wire is null
// for raw-data, which has no encoding.
function parseStory(json, file) {
  const cases = json.cases.map((c, i) => {
    if (!Array.isArray(c.headers)) throw new Error(`${file}: case ${i} has no headers array`);
    const headers = c.headers.map((h) => {
      const entries = Object.entries(h);
      if (entries.length !== 1) throw new Error(`${file}: case ${i} has a header object with ${entries.length} keys`);
      return entries[0];
    });
    return { wire: typeof c.wire === 'string' ? Buffer.from(c.wire, 'hex') : null, headers };
  });
  // Only the first case's SETTINGS value is honoured: no folder we read changes it mid-story.
  const tableSize = json.cases[0]?.header_table_size ?? DEFAULT_TABLE_SIZE;
  return { name: path.basename(file, '.json'), tableSize, cases };
}

async function loadStories(dir) {
  const files = (await fs.readdir(dir)).filter((f) => STORY_FILE.test(f)).sort();
  if (files.length === 0) throw new Error(`no story_NN.json files in ${dir}`);
  return Promise.all(files.map(async (f) => {
    const file = path.join(dir, f);
    return parseStory(JSON.parse(await fs.readFile(file, 'utf8')), file);
  }));
}

function plainBytes(headers) {
  let n = 0;
  for (const [name, value] of headers) n += Buffer.byteLength(name) + Buffer.byteLength(value);
  return n;
}

// Sum of wire bytes over sum of name+value bytes, the hpack-test-case wiki's ratio.
function compressionRatio(stories) {
  let wire = 0;
  let plain = 0;
  for (const story of stories) {
    for (const c of story.cases) {
      if (!c.wire) throw new Error(`${story.name} has a case without wire data`);
      wire += c.wire.length;
      plain += plainBytes(c.headers);
    }
  }
  return { wire, plain, ratio: wire / plain };
}

function allHeaderValues(stories) {
  const values = [];
  for (const story of stories) for (const c of story.cases) for (const [, v] of c.headers) values.push(Buffer.from(v));
  return values;
}

class Writer {
  constructor(magic) {
    this.chunks = [Buffer.from(magic, 'latin1')];
  }

  u32(n) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    this.chunks.push(b);
  }

  bytes(buf) {
    this.u32(buf.length);
    this.chunks.push(buf);
  }

  toBuffer() {
    return Buffer.concat(this.chunks);
  }
}

function encodeStories(stories) {
  const w = new Writer('HPKS');
  w.u32(stories.length);
  for (const story of stories) {
    w.u32(story.cases.length);
    for (const c of story.cases) {
      w.bytes(c.wire ?? Buffer.alloc(0));
      w.u32(c.headers.length);
      for (const [name, value] of c.headers) {
        w.bytes(Buffer.from(name));
        w.bytes(Buffer.from(value));
      }
    }
  }
  return w.toBuffer();
}

function encodeStrings(strings) {
  const w = new Writer('HPKL');
  w.u32(strings.length);
  for (const s of strings) w.bytes(Buffer.from(s));
  return w.toBuffer();
}

module.exports = {
  sharedDir,
  corpusDir,
  loadStories,
  plainBytes,
  compressionRatio,
  allHeaderValues,
  encodeStories,
  encodeStrings,
  DEFAULT_TABLE_SIZE,
};
