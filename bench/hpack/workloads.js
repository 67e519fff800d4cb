'use strict';
// The benchmark's workloads, assembled once from /work/shared (../shared from
// the repo root) for both the C binary and the Node side, so both time exactly
// the same inputs.
//
// huffman: one string per call (the four bench-inputs, and every header value
//   of every raw-data story as one list);
// decode: every story of the nghttp2 folder (wire and expected headers);
// encode: every raw-data story (headers only).

const fs = require('node:fs/promises');
const path = require('node:path');
const corpus = require('./corpus');

const BENCH_INPUTS = ['short-litespeed', 'medium-set-cookie', 'medium-backslash', 'long-prose'];
const CORPUS_VALUES = 'corpus-values';
const DECODE_FOLDER = 'nghttp2';
const ENCODE_FOLDER = 'raw-data';

function missingShared(repoRoot, what) {
  return Object.assign(new Error(`${what} not found under ${corpus.sharedDir(repoRoot)} (the shared corpus sits next to the repository as ../shared)`), {
    code: 'ERR_HPACK_BENCH_NO_CORPUS',
  });
}

// Every codec under test starts its tables at the default size: a story that
// settles on another size first would need a size update the libraries
// signal differently, so such folders are refused rather than misread.
function defaultTableSizeOnly(stories, folder) {
  const odd = stories.find((s) => s.tableSize !== corpus.DEFAULT_TABLE_SIZE);
  if (odd) {
    throw Object.assign(new Error(`${folder}/${odd.name} uses header_table_size ${odd.tableSize}; the benchmark runs ${corpus.DEFAULT_TABLE_SIZE}-byte tables only`), {
      code: 'ERR_HPACK_BENCH_TABLE_SIZE',
    });
  }
  return stories;
}

async function loadWorkloads(repoRoot) {
  const inputsDir = path.join(corpus.sharedDir(repoRoot), 'bench-inputs');
  const caseDir = corpus.corpusDir(repoRoot);
  const read = async (p, what) => {
    try {
      return await p;
    } catch (err) {
      if (err.code === 'ENOENT') throw missingShared(repoRoot, what);
      throw err;
    }
  };
  const [inputs, decodeStories, encodeStories] = await Promise.all([
    read(Promise.all(BENCH_INPUTS.map((n) => fs.readFile(path.join(inputsDir, `${n}.txt`)))), 'bench-inputs/*.txt'),
    read(corpus.loadStories(path.join(caseDir, DECODE_FOLDER)), `hpack-test-case/${DECODE_FOLDER}`),
    read(corpus.loadStories(path.join(caseDir, ENCODE_FOLDER)), `hpack-test-case/${ENCODE_FOLDER}`),
  ]);
  return {
    huffman: [
      ...BENCH_INPUTS.map((name, i) => ({ name, strings: [inputs[i]] })),
      { name: CORPUS_VALUES, strings: corpus.allHeaderValues(encodeStories) },
    ],
    decode: [{ name: `${DECODE_FOLDER}-wire`, stories: defaultTableSizeOnly(decodeStories, DECODE_FOLDER) }],
    encode: [{ name: ENCODE_FOLDER, stories: defaultTableSizeOnly(encodeStories, ENCODE_FOLDER) }],
  };
}

// Writes the files the C binary reads into dir and returns its workload arguments.
async function writeForC(workloads, dir) {
  await fs.mkdir(dir, { recursive: true });
  const files = [
    ...workloads.huffman.map((w) => ['huffman', w.name, corpus.encodeStrings(w.strings)]),
    ...workloads.decode.map((w) => ['decode', w.name, corpus.encodeStories(w.stories)]),
    ...workloads.encode.map((w) => ['encode', w.name, corpus.encodeStories(w.stories)]),
  ];
  return Promise.all(files.map(async ([kind, name, data]) => {
    const file = path.join(dir, `${kind}-${name}.bin`);
    await fs.writeFile(file, data);
    return `${kind}:${name}=${file}`;
  }));
}

module.exports = { loadWorkloads, writeForC, BENCH_INPUTS, CORPUS_VALUES };
