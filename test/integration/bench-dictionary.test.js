'use strict';
// `npm run bench:dictionary`'s core on tiny in-memory releases (no registry: the fetch is only
// exercised from a prepared cache): every coding measured, dcb and dcz bodies framed with the
// dictionary's hash and decoded back to the input (dcz by the zstd CLI too), a body that does
// not decode back stops the run, and the tables and charts have the shape the results README shows.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { appScript } = require('../helpers/dictionary-site');
const { CODINGS, benchEngines, measurePair } = require('../../bench/dictionary/measure');
const { renderSection, bytesTable, cpuTable } = require('../../bench/dictionary/report');
const { releaseFile } = require('../../bench/dictionary/fetch');
const { HEADERS, sha256 } = require('../../server/dictionaries/dictionary-codings');
const { toolSkipReason, runTool } = require('../helpers/tools');

const KB = 1024;
const dictionary = Buffer.from(appScript('v1', 16 * KB));
const input = Buffer.from(appScript('v2', 16 * KB));

// The bench's engines, with every dictionary body and what it decoded to recorded.
function recordingBench() {
  const bench = benchEngines();
  const decoded = [];
  const decompress = bench.deltas.decompress.bind(bench.deltas);
  bench.deltas.decompress = async (coding, body, dict) => {
    const plain = await decompress(coding, body, dict);
    decoded.push({ coding, body, plain });
    return plain;
  };
  return { bench, decoded };
}

test('measurePair: every coding measured; dcb and dcz are framed deltas that decode back to the input', async () => {
  const { bench, decoded } = recordingBench();
  assert.deepEqual(bench.deltas.available, ['dcb', 'dcz'], 'this runtime makes both dictionary codings');
  const codings = await measurePair(bench, { dictionary, input, repetitions: 2 });
  assert.deepEqual(Object.keys(codings), CODINGS);
  assert.deepEqual(codings.identity, { bytes: input.length, compressMs: null, decompressMs: null });
  for (const coding of CODINGS.slice(1)) {
    const m = codings[coding];
    assert.ok(m.bytes > 0 && m.bytes < input.length, `${coding}: ${m.bytes} bytes`);
    for (const time of [m.compressMs, m.decompressMs]) {
      assert.equal(time.n, 2);
      assert.ok(time.min >= 0 && time.min <= time.median && time.median <= time.max);
    }
  }
  // A delta of a one-line change is a small fraction of the file compressed alone.
  assert.ok(codings.dcb.bytes * 5 < codings.br.bytes, `dcb ${codings.dcb.bytes} vs br ${codings.br.bytes}`);
  assert.ok(codings.dcz.bytes * 5 < codings.zstd.bytes, `dcz ${codings.dcz.bytes} vs zstd ${codings.zstd.bytes}`);
  // The warm-up round and two measured ones, each decoded.
  for (const coding of ['dcb', 'dcz']) {
    const bodies = decoded.filter((d) => d.coding === coding);
    assert.equal(bodies.length, 3);
    for (const { body, plain } of bodies) {
      const header = HEADERS[coding];
      assert.deepEqual(body.subarray(0, header.length), header);
      assert.deepEqual(body.subarray(header.length, header.length + 32), sha256(dictionary));
      assert.equal(body.length, codings[coding].bytes);
      assert.ok(plain.equals(input));
    }
  }
});

test('the dcz body the bench measures decodes with the reference zstd CLI and the dictionary', { skip: toolSkipReason('zstd', 'zstd') }, async (t) => {
  const { bench, decoded } = recordingBench();
  await measurePair(bench, { dictionary, input, repetitions: 1 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-dictionary-zstd-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'v1.js'), dictionary);
  fs.writeFileSync(path.join(dir, 'v2.js.dcz'), decoded.find((d) => d.coding === 'dcz').body);
  // zstd skips the skippable frame that holds the hash, then decodes the frame with the dictionary.
  const { code, stdout, stderr } = await runTool('zstd', ['-d', '-c', '-D', path.join(dir, 'v1.js'), path.join(dir, 'v2.js.dcz')]);
  assert.equal(code, 0, stderr);
  assert.ok(stdout.equals(input));
});

test('measurePair: a body that does not decode back to the input stops the run', async () => {
  const bench = benchEngines();
  const decompress = bench.deltas.decompress.bind(bench.deltas);
  bench.deltas.decompress = async (coding, body, dict) => {
    const plain = await decompress(coding, body, dict);
    return coding === 'dcz' ? plain.subarray(1) : plain;
  };
  await assert.rejects(measurePair(bench, { dictionary, input, repetitions: 1 }), { code: 'ERR_BENCH_ROUNDTRIP', message: 'dcz did not decode back to its input' });
});

test('report: one table row per library, a column per coding, and three charts linked', async () => {
  const bench = benchEngines();
  const pair = (name) => ({ name, pkg: name, from: '1.0.0', to: '1.0.1', file: 'dist/x.min.js', dictionaryBytes: dictionary.length });
  const codings = await measurePair(bench, { dictionary, input, repetitions: 1 });
  const pairs = [{ ...pair('alpha'), codings }, { ...pair('beta'), codings: { ...codings, dcz: null } }];
  const rows = (md) => md.trimEnd().split('\n').map((line) => line.split(' | ').length);
  // Header, rule, one line per library; library, releases, file, 6 codings, 2 ratios.
  assert.deepEqual(rows(bytesTable(pairs)), [11, 11, 11, 11]);
  assert.deepEqual(rows(cpuTable(pairs)), [6, 6, 6, 6]);
  assert.match(bytesTable(pairs), /\| beta \| 1\.0\.0 → 1\.0\.1 \| `dist\/x\.min\.js` \| [\d,]+ \| [\d,]+ \| [\d,]+ \| [\d,]+ \| [\d,]+ \| - \| [\d.]+% \| - \|/);
  const section = { repetitions: 1, settings: bench.settings, pairs };
  const { markdown, charts } = renderSection(section, { chartsHref: 'charts' });
  assert.deepEqual(Object.keys(charts), ['dictionary-bytes.svg', 'dictionary-compress-cpu.svg', 'dictionary-decompress-cpu.svg']);
  for (const [name, svg] of Object.entries(charts)) {
    assert.match(svg, /^<svg /);
    assert.ok(markdown.includes(`(charts/${name})`), name);
  }
  assert.match(markdown, /gzip \(level 6\), br \(quality 5, lgwin 22\), zstd \(level 3\), dcb \(quality and lgwin 5w22\), dcz \(level 3\)/);
});

test('releaseFile: a release already in the cache is read from it, without npm', async (t) => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-dictionary-test-'));
  t.after(() => fs.rmSync(cache, { recursive: true, force: true }));
  const file = path.join(cache, '_scope_lib-1.2.3', 'package', 'dist', 'lib.min.js');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, 'cached');
  // PATH without npm: a fetch would fail.
  const saved = process.env.PATH;
  process.env.PATH = '/nonexistent';
  t.after(() => { process.env.PATH = saved; });
  assert.equal(String(await releaseFile('@scope/lib', '1.2.3', 'dist/lib.min.js', cache)), 'cached');
  await assert.rejects(releaseFile('@scope/lib', '1.2.4', 'dist/lib.min.js', cache), { code: 'EFETCH' });
});
