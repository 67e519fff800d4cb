'use strict';
// The dictionary deltas of `negotiate-h2 codings` (RFC 9842 dcb and dcz): for each dictionary
// rule of the site's negotiate.config.json, its most recently modified files taken release to
// release (the older one as the dictionary, the newer one sent as a delta), at most PAIRS per
// rule; for each pair the bytes of br and zstd at their on-the-fly picks and of dcb and dcz at
// the same levels, and the time dcb and dcz take to compress and decompress it.

const fs = require('node:fs/promises');
const path = require('node:path');
const { readConfigFile } = require('../../server/config/config-file');
const { ConfigError } = require('../../server/errors');
const { compileDictionaryRules, ruleFor } = require('../../server/config/dictionary-rules');
const { SERVER } = require('../../server/config/schema');
const { createEngines } = require('../../server/compression/codings');
const { createDictionaryEngines, sha256 } = require('../../server/dictionaries/dictionary-codings');
const { listSourceFiles } = require('../../server/files/tree-walk');
const { markdownTable } = require('../report/markdown-table');
const { formatBytes } = require('../report/format-bytes');

const PAIRS = 3;

const elapsedMs = (start) => Number(process.hrtime.bigint() - start) / 1e6;

// The site's dictionary rules, compiled; [] without a configuration file or rules. Throws a
// ConfigError naming the file when it is not valid.
function siteRules(dir) {
  const { label, values } = readConfigFile(dir, undefined, SERVER);
  try {
    return compileDictionaryRules(values.dictionaries ?? []);
  } catch (err) {
    throw new ConfigError(`${label}: ${err.message}`);
  }
}

// Per rule, the paths (relative to dir, "/a/b.js") of the files it covers, oldest first.
async function filesByRule(dir, rules) {
  const { files } = await listSourceFiles(dir);
  const byRule = rules.map(() => []);
  for (const file of files) {
    const rel = `/${path.relative(dir, file).split(path.sep).join('/')}`;
    const rule = ruleFor(rules, rel);
    if (rule !== null) byRule[rule.index].push({ rel, file, mtimeMs: (await fs.stat(file)).mtimeMs });
  }
  return byRule.map((list) => list.sort((a, b) => a.mtimeMs - b.mtimeMs || (a.rel < b.rel ? -1 : 1)));
}

/**
 * One row per (dictionary, file) pair: { rule, dictionary, file, identity, br, zstd, dcb, dcz,
 * dcbMs, dczMs, dcbDecodeMs, dczDecodeMs } (bytes and ms; a coding this runtime lacks is null).
 * levels: { br, zstd } on-the-fly levels.
 */
async function measureDeltas(dir, levels) {
  const rules = siteRules(dir);
  if (rules.length === 0) return [];
  const engines = createEngines({ levels: { dynamic: levels } });
  const deltas = createDictionaryEngines(engines);
  const rows = [];
  const byRule = await filesByRule(dir, rules);
  for (const rule of rules) {
    const files = byRule[rule.index].slice(-(PAIRS + 1));
    for (let i = 1; i < files.length; i++) {
      const [dictionary, input] = await Promise.all([fs.readFile(files[i - 1].file), fs.readFile(files[i].file)]);
      const row = { rule: rule.match, dictionary: files[i - 1].rel, file: files[i].rel, identity: input.length };
      for (const coding of ['br', 'zstd']) row[coding] = engines.available.includes(coding) ? (await engines.compress(coding, input)).length : null;
      for (const coding of ['dcb', 'dcz']) {
        row[coding] = row[`${coding}Ms`] = row[`${coding}DecodeMs`] = null;
        if (!deltas.available.includes(coding) || !deltas.accepts(coding, dictionary)) continue;
        const started = process.hrtime.bigint();
        const body = await deltas.compress(coding, input, dictionary, sha256(dictionary));
        row[`${coding}Ms`] = elapsedMs(started);
        const decodeStarted = process.hrtime.bigint();
        const plain = await deltas.decompress(coding, body, dictionary);
        row[`${coding}DecodeMs`] = elapsedMs(decodeStarted);
        if (!plain.equals(input)) throw new Error(`${coding} of ${row.file} against ${row.dictionary} did not round-trip`);
        row[coding] = body.length;
      }
      rows.push(row);
    }
  }
  return rows;
}

function deltaTable(rows) {
  const bytes = (n) => (n === null ? '-' : formatBytes(n));
  const ms = (n) => (n === null ? '-' : n.toFixed(1));
  const columns = [
    { title: 'file' }, { title: 'dictionary' }, { title: 'size', align: 'right' }, { title: 'br', align: 'right' }, { title: 'zstd', align: 'right' },
    { title: 'dcb', align: 'right' }, { title: 'dcz', align: 'right' }, { title: 'dcb ms (decode)', align: 'right' }, { title: 'dcz ms (decode)', align: 'right' },
  ];
  return markdownTable(columns, rows.map((r) => [
    r.file, r.dictionary, bytes(r.identity), bytes(r.br), bytes(r.zstd), bytes(r.dcb), bytes(r.dcz),
    r.dcbMs === null ? '-' : `${ms(r.dcbMs)} (${ms(r.dcbDecodeMs)})`, r.dczMs === null ? '-' : `${ms(r.dczMs)} (${ms(r.dczDecodeMs)})`,
  ]));
}

module.exports = { measureDeltas, deltaTable, PAIRS };
