'use strict';
// Smoke test of the HPACK benchmark (bench/hpack): builds the C binary, runs
// it on RFC 7541 Appendix C's Huffman examples with a tiny time budget, and
// checks the output's shape, that every decode was checked (a wrong expected
// header must make it fail), and that the README section renders from it.
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const { promisify } = require('node:util');
const execFile = promisify(require('node:child_process').execFile);
const { checkTools } = require('../../bench/hpack/tools');
const corpus = require('../../bench/hpack/corpus');
const { summarizeLines, parseLines } = require('../../bench/hpack/summarize');
const { evaluateTargets } = require('../../bench/hpack/targets');
const report = require('../../bench/hpack/report');

const REPO = path.resolve(__dirname, '..', '..');

// RFC 7541 C.3 and C.4: the same three requests without and with Huffman
// coding, each a story of its own (fresh tables).
const STORIES = require('../fixtures/rfc7541-appendix-c.json').examples
  .filter((e) => e.section === 'C.3' || e.section === 'C.4')
  .map((e) => ({
    name: `rfc7541-${e.section.replace('.', '').toLowerCase()}`,
    cases: e.blocks.map((b) => ({ wire: Buffer.from(b.wire, 'hex'), headers: b.headers })),
  }));
assert.strictEqual(STORIES.length, 2);

const STRINGS = ['LiteSpeed', 'custom-value', 'a\\b', ''].map((s) => Buffer.from(s));

let skip = false;
let tmp;
let workloadArgs;
let binary;

before(async () => {
  const problems = await checkTools({ callgrind: false });
  if (problems.length) {
    skip = `bench:hpack needs system packages: ${problems.join('; ')}`;
    return;
  }
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-hpack-test-'));
  await execFile('make', ['-s', '-C', path.join(REPO, 'bench', 'hpack'), `OUT=${tmp}`], { timeout: 240000 });
  binary = path.join(tmp, 'hpack-bench');
  const write = async (name, data) => {
    const file = path.join(tmp, name);
    await fs.writeFile(file, data);
    return file;
  };
  workloadArgs = [
    `huffman:tiny=${await write('strings.bin', corpus.encodeStrings(STRINGS))}`,
    `decode:rfc=${await write('decode.bin', corpus.encodeStories(STORIES))}`,
    `encode:rfc=${await write('encode.bin', corpus.encodeStories(STORIES.map((s) => ({ ...s, cases: s.cases.map((c) => ({ headers: c.headers, wire: null })) }))))}`,
  ];
});

after(async () => {
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

async function runBench(args) {
  const { stdout } = await execFile(binary, ['--seconds', '0.001', '--runs', '2', ...args], { timeout: 60000 });
  return parseLines(stdout, 'hpack-bench');
}

test('hpack-bench verifies and times every coder and codec on a tiny workload', async (t) => {
  if (skip) return t.skip(skip);
  const lines = await runBench(workloadArgs);
  const jobs = lines.filter((l) => !l.ratio);
  const ids = jobs.map((l) => `${l.group}/${l.workload}/${l.impl}`).sort();
  assert.deepEqual(ids, [
    'decode/rfc/nghttp2', 'decode/rfc/ours',
    'encode/rfc/nghttp2', 'encode/rfc/ours-linear', 'encode/rfc/ours-linear-huffman', 'encode/rfc/ours-none',
    'encode/rfc/ours-none-huffman', 'encode/rfc/ours-static', 'encode/rfc/ours-static-huffman',
    'huffman-decode/tiny/4bit', 'huffman-decode/tiny/big-table', 'huffman-decode/tiny/bitwise',
    'huffman-encode/tiny/big-table', 'huffman-encode/tiny/bytewise',
  ]);
  const plain = STORIES.reduce((n, s) => n + s.cases.reduce((m, c) => m + corpus.plainBytes(c.headers), 0), 0);
  for (const j of jobs) {
    assert.ok(j.iterations >= 1 && j.calls >= 1 && j.bytes >= 1, JSON.stringify(j));
    assert.equal(j.run_ns.length, 2);
    assert.ok(j.run_ns.every((ns) => Number.isInteger(ns) && ns > 0));
    if (j.group === 'decode' || j.group === 'encode') assert.equal(j.bytes, plain);
  }
  assert.equal(jobs.find((j) => j.group === 'huffman-encode').bytes, STRINGS.reduce((n, s) => n + s.length, 0));
  const ratios = lines.filter((l) => l.ratio).map((l) => l.ratio);
  assert.equal(ratios.length, 7);
  const ratioOf = (impl) => ratios.find((r) => r.impl === impl);
  assert.ok(ratioOf('ours-none').wire > ratioOf('ours-linear-huffman').wire);
  assert.ok(ratios.every((r) => r.plain === plain && r.blocks === 6));
});

test('hpack-bench fails loudly when a decoded header differs from the expected one', async (t) => {
  if (skip) return t.skip(skip);
  const wrong = STORIES.map((s) => ({ ...s, cases: s.cases.map((c) => ({ ...c, headers: c.headers.map((h) => [...h]) })) }));
  wrong[1].cases[2].headers[4][1] = 'custom-tampered';
  const file = path.join(tmp, 'wrong.bin');
  await fs.writeFile(file, corpus.encodeStories(wrong));
  await assert.rejects(runBench([`decode:wrong=${file}`]), (err) => {
    assert.equal(err.code, 1);
    assert.match(err.stderr, /ours decoder gave a wrong header in story 1 block 2/);
    return true;
  });
});

test('the README section renders from a run', async (t) => {
  if (skip) return t.skip(skip);
  const { results, ratios } = summarizeLines(await runBench(workloadArgs.slice(1)), 'c');
  const section = {
    tools: { libnghttp2: 'test' },
    method: { seconds: 0.001, runs: 2, pinning: 'Not pinned', cflags: '-O2', callgrind: false, callgrindBytes: 0 },
    results, ratios, corpusRatios: {}, notes: [],
  };
  section.targets = evaluateTargets(section);
  // The workloads here are not the corpus's, so every target is unmeasured.
  assert.ok(section.targets.every((x) => x.pass === null));
  const { markdown, charts } = report.renderSection(section, { chartsHref: 'charts' });
  assert.match(markdown, /### Figure 1 of the paper/);
  assert.match(markdown, /\| LinearH \| ours, linear-huffman \| \d\.\d{4} \|/);
  for (const svg of Object.values(charts)) assert.match(svg, /^<svg [^]*<\/svg>\n$/);
  assert.match(report.renderTerminal(section), /ours-linear-huffman/);
});
