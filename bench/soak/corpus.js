'use strict';
// The soak test's document root: pages with precompressed variants (made by the project's
// own `tools/precompress`), mid-sized files without variants (compressed on the fly,
// then served from the compression cache) and one file over the server's 4 MiB buffer
// limit (compressed while streaming, on every request). Returns the source bytes of every
// path so responses can be checked.
const fs = require('node:fs/promises');
const path = require('node:path');
const { runToCompletion } = require('../lib/process-group');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const KiB = 1024;

// Deterministic text that compresses like markup: repeated words, varying numbers.
function text(bytes, seed) {
  const words = ['negotiate', 'content', 'encoding', 'stream', 'header', 'table', 'static', 'huffman', 'window', 'frame'];
  let out = '';
  for (let i = 0; out.length < bytes; i++) out += `<p id="${seed}-${i}">${words[(i * 7 + seed.length) % words.length]} ${i * 31 % 977}</p>\n`;
  return Buffer.from(out.slice(0, bytes));
}

async function buildSoakCorpus(root) {
  const sources = new Map();
  const write = async (rel, bytes) => {
    await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await fs.writeFile(path.join(root, rel), bytes);
    sources.set(`/${rel}`, bytes);
  };
  for (let i = 0; i < 8; i++) await write(`pre/page-${i}.html`, text((8 + 24 * i) * KiB, `pre${i}`));
  await runToCompletion(process.execPath, [path.join(REPO_ROOT, 'tools', 'precompress'), path.join(root, 'pre'), '--quiet'],
    { timeoutMs: 120_000, name: 'precompress' });
  // Written after precompressing, so these have no variants.
  for (let i = 0; i < 24; i++) await write(`dyn/doc-${i}.txt`, text((16 + 16 * i) * KiB, `dyn${i}`));
  await write('stream/big.txt', text(5 * 1024 * KiB, 'big'));
  return sources;
}

module.exports = { buildSoakCorpus };
