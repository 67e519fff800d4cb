'use strict';
// The shared hpack-test-case stories as one QPACK Offline Interop Format text
// (name<TAB>value lines, a blank line after each section), for the QPACK tests.
const fs = require('node:fs');
const path = require('node:path');

const RAW_DATA = path.resolve(__dirname, '..', '..', '..', 'shared', 'hpack-test-case', 'raw-data');
const missing = fs.existsSync(RAW_DATA) ? false : `hpack-test-case stories not found at ${RAW_DATA} (../shared is absent)`;

// All stories' sections, in file order, as a Buffer of UTF-8 text.
function storiesQif() {
  const lines = [];
  for (const file of storyFiles()) {
    for (const { headers } of JSON.parse(fs.readFileSync(path.join(RAW_DATA, file), 'utf8')).cases) {
      for (const field of headers) for (const [name, value] of Object.entries(field)) lines.push(`${name}\t${value}\n`);
      lines.push('\n');
    }
  }
  return Buffer.from(lines.join(''), 'utf8');
}

function storyFiles() {
  return fs.readdirSync(RAW_DATA).filter((f) => /^story_\d+\.json$/.test(f)).sort();
}

// Each story as [name, [[[name, value], ...] per section]], values as latin1
// strings of their UTF-8 bytes (what the codecs take).
function loadStories() {
  return storyFiles().map((file) => [file.replace(/\.json$/, ''),
    JSON.parse(fs.readFileSync(path.join(RAW_DATA, file), 'utf8')).cases.map((c) =>
      c.headers.map((h) => Object.entries(h)[0]).map(([n, v]) => [n, Buffer.from(v).toString('latin1')]))]);
}

module.exports = { RAW_DATA, missing, storiesQif, loadStories };
