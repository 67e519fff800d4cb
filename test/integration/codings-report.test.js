'use strict';
// `negotiate-h2 codings`: level choice and the browser mix (pure, table-driven), the level
// flags reaching the server and precompress, and a --quick run on a tiny site whose table,
// picks and printed settings are checked against the engines and the server's option parser.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const path = require('node:path');
const zlib = require('node:zlib');
const { execFile } = require('node:child_process');
const { recommend, parseMix, mixBytes } = require('../../tools/codings-report/recommend');
const { parseCli } = require('../../server/config/options');
const { createEngines, parseLevels } = require('../../server/compression/codings');
const { makeTempDir, startTestServer, compressibleText, REPO_ROOT } = require('../helpers/server');

const engines = createEngines();

function run(args) {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: REPO_ROOT, timeout: 120_000 }, (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr }));
  });
}

const row = (coding, level, outputBytes, compressMBps) => ({ coding, level, inputBytes: 1000, outputBytes, compressMBps });

test('recommend: smallest output for precompress (ties to the faster), smallest at the speed floor on the fly', () => {
  const cases = [
    { rows: [row('br', 1, 400, 90), row('br', 5, 300, 30), row('br', 11, 250, 1)], picks: { br: { precompress: 11, dynamic: 5 } } },
    // gzip 9 is no smaller than 6 (within 0.1%): the faster level is picked for precompression.
    { rows: [row('gzip', 1, 400, 50), row('gzip', 6, 330, 25), row('gzip', 9, 330, 5)], picks: { gzip: { precompress: 6, dynamic: 6 } } },
    // Nothing reaches the floor: the fastest level. deflate has no variant to precompress.
    { rows: [row('lzma', 0, 400, 6), row('lzma', 9, 300, 1)], picks: { lzma: { precompress: 9, dynamic: 0 } } },
    { rows: [row('deflate', 1, 400, 40), row('deflate', 9, 350, 4)], picks: { deflate: { precompress: null, dynamic: 1 } } },
  ];
  for (const { rows, picks } of cases) assert.deepEqual(recommend(rows, 20), picks, JSON.stringify(rows));
});

test('parseMix and mixBytes: shares, and the coding the server would pick for each browser', () => {
  assert.deepEqual(parseMix('gzip, br:3|gzip:1'), [{ acceptEncoding: 'gzip, br', share: 0.75 }, { acceptEncoding: 'gzip', share: 0.25 }]);
  for (const bad of ['gzip', 'gzip:0', 'gzip:x', 'br:1|']) assert.throws(() => parseMix(bad), /expected "Accept-Encoding:weight"/, bad);
  const rows = [row('br', 5, 300, 30), row('zstd', 3, 320, 90), row('gzip', 6, 400, 30)];
  const levelOf = (c) => ({ br: 5, zstd: 3, gzip: 6 })[c];
  const cases = [
    ['gzip, deflate, br, zstd:1', 300], // server order: br before zstd
    ['gzip, deflate, br;q=0.5, zstd:1', 320], // a lower q for br: zstd
    ['gzip:1', 400],
    ['identity:1', 1000],
    ['gzip, br:1|gzip:1', 350],
  ];
  for (const [mix, bytes] of cases) assert.equal(mixBytes(parseMix(mix), rows, ['br', 'zstd', 'gzip'], levelOf, 1000), bytes, mix);
});

test('parseLevels: coding=level lists within each coding\'s range', () => {
  assert.deepEqual(parseLevels('br=5, zstd=3,gzip=1'), { br: 5, zstd: 3, gzip: 1 });
  const bad = [
    ['br=12', 'br levels go from 0 to 11, got 12'], ['zstd=20', 'zstd levels go from 1 to 19, got 20'], ['gzip=0', 'gzip levels go from 1 to 9, got 0'],
    ['br=5,br=6', 'names br twice'], ['snappy=1', '"snappy" is not one of br, zstd, gzip, deflate, lzma'], ['br:5', 'expected coding=level items separated by commas, got "br:5"'], ['', 'expected coding=level items, got ""'],
  ];
  for (const [text, message] of bad) assert.throws(() => parseLevels(text), { message }, text);
});

test('--dynamic-levels sets on-the-fly levels; precompress --levels the variants\' levels', async (t) => {
  const page = compressibleText(20_000, 'level');
  const srv = await startTestServer({ dynamicLevels: 'gzip=1,br=2', files: { 'page.txt': page } });
  t.after(() => srv.close());
  const gz = await srv.h2('/page.txt', { headers: { 'accept-encoding': 'gzip' } });
  assert.deepEqual(gz.body, zlib.gzipSync(page, { level: 1 }));
  const br = await srv.h2('/page.txt', { headers: { 'accept-encoding': 'br' } });
  assert.deepEqual(br.body, await engines.compress('br', Buffer.from(page), { level: 2 }));

  const res = await run(['tools/precompress/index.js', srv.root, '--codings', 'gzip', '--levels', 'gzip=1', '--quiet']);
  assert.equal(res.code, 0, res.stderr);
  assert.deepEqual(await fs.readFile(path.join(srv.root, 'page.txt.gz')), zlib.gzipSync(page, { level: 1 }));
  const bad = await run(['tools/precompress/index.js', srv.root, '--levels', 'deflate=1']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^precompress: --levels: "deflate" is not one of br, zstd, gzip, lzma\n/);
});

const QUICK_LEVELS = { br: [1, 4, 5, 9, 11], zstd: [1, 3, 9, 19], gzip: [1, 6, 9], deflate: [1, 6, 9], lzma: [0, 1, 6, 9] };

test('codings --quick on a tiny site: a row per coding and level with exact sizes, picks, flags the server takes', { timeout: 180_000 }, async (t) => {
  const dir = await makeTempDir('negotiate-codings-');
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  const site = path.join(dir, 'site');
  await fs.mkdir(site);
  const files = { 'a.html': compressibleText(3000, 'html'), 'b.js': compressibleText(5000, 'script'), 'c.png': 'not compressible' };
  for (const [name, content] of Object.entries(files)) await fs.writeFile(path.join(site, name), content);
  const out = path.join(dir, 'report');
  const res = await run(['server', 'codings', site, '--quick', '--out', out]);
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, new RegExp(`^2 of 2 compressible files \\(7\\.8 KiB of 7\\.8 KiB\\) in ${site}\\n`));

  const rows = res.stdout.split('\n').filter((l) => /^\| [a-z]+ \| \d+ \|/.test(l)).map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));
  const expected = engines.available.flatMap((coding) => QUICK_LEVELS[coding].map((level) => [coding, String(level)]));
  assert.deepEqual(rows.map((r) => r.slice(0, 2)), expected);
  for (const [coding, level, size] of rows) {
    let bytes = 0;
    for (const name of ['a.html', 'b.js']) bytes += (await engines.compress(coding, Buffer.from(files[name]), { level: Number(level) })).length;
    assert.equal(size, bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`, `${coding} ${level}`);
  }

  const settings = /^settings: (--precompress-levels (\S+) --dynamic-levels (\S+))$/m.exec(res.stdout);
  assert.ok(settings, res.stdout);
  const parsed = parseCli(settings[1].split(' '), {});
  const picked = (what) => Object.fromEntries(rows.filter((r) => r[7].split(', ').includes(what)).map((r) => [r[0], Number(r[1])]));
  assert.deepEqual(parsed.precompressLevels, picked('precompress'));
  assert.deepEqual(parsed.dynamicLevels, picked('on the fly'));
  assert.deepEqual(Object.keys(parsed.dynamicLevels), engines.available);
  assert.equal(parsed.precompressLevels.deflate, undefined, 'deflate has no variant');

  assert.match(res.stdout, /^Downloaded per copy of the sample: 7\.8 KiB uncompressed, [\d.]+ (B|KiB) with the precompress picks/m);
  assert.deepEqual((await fs.readdir(out)).sort(), ['ratio.svg', 'report.md', 'speed.svg']);
  for (const svg of ['ratio.svg', 'speed.svg']) assert.match(await fs.readFile(path.join(out, svg), 'utf8'), /^<svg [^>]*>[\s\S]*<\/svg>\n?$/);
  assert.match(await fs.readFile(path.join(out, 'report.md'), 'utf8'), new RegExp(`Settings: \`negotiate-h2 ${settings[1]}\``));

  // The report never replaces files: a second run into the same directory stops before measuring.
  const again = await run(['server', 'codings', site, '--quick', '--out', out]);
  assert.equal(again.code, 2);
  assert.equal(again.stderr, `negotiate-h2 codings: --out: ${path.join(out, 'report.md')} exists; not replacing it\n`);
});

test('codings: dictionary deltas of the site\'s rules, release to release, with sizes the engines give', { timeout: 180_000 }, async (t) => {
  const { measureDeltas, PAIRS } = require('../../tools/codings-report/deltas');
  const { createDictionaryEngines, sha256 } = require('../../server/dictionaries/dictionary-codings');
  const { appScript } = require('../helpers/dictionary-site');
  const dir = await makeTempDir('negotiate-codings-deltas-');
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  const site = path.join(dir, 'site');
  await fs.mkdir(path.join(site, 'assets'), { recursive: true });
  const versions = ['v1', 'v2', 'v3', 'v4', 'v5'];
  for (const [i, v] of versions.entries()) {
    const file = path.join(site, 'assets', `app.${v}.js`);
    await fs.writeFile(file, appScript(v, 40 * 1024));
    await fs.utimes(file, 1_000_000 + i, 1_000_000 + i);
  }
  await fs.writeFile(path.join(site, 'assets', 'other.js'), compressibleText(5000));
  assert.deepEqual(await measureDeltas(site, { br: 5, zstd: 3 }), [], 'no configuration, no rules');

  await fs.writeFile(path.join(site, 'negotiate.config.json'), JSON.stringify({ dictionaries: [{ match: '/assets/app.*.js' }] }));
  const rows = await measureDeltas(site, { br: 4, zstd: 3 });
  const pairs = versions.slice(-(PAIRS + 1));
  assert.deepEqual(rows.map((r) => [r.dictionary, r.file]), pairs.slice(1).map((v, i) => [`/assets/app.${pairs[i]}.js`, `/assets/app.${v}.js`]));
  const deltaEngines = createDictionaryEngines(createEngines({ levels: { dynamic: { br: 4, zstd: 3 } } }));
  for (const row of rows) {
    const [dictionary, input] = await Promise.all([row.dictionary, row.file].map((rel) => fs.readFile(path.join(site, rel))));
    assert.equal(row.identity, input.length);
    assert.equal(row.br, (await engines.compress('br', input, { level: 4 })).length);
    for (const coding of ['dcb', 'dcz']) {
      assert.equal(row[coding], (await deltaEngines.compress(coding, input, dictionary, sha256(dictionary))).length, coding);
      assert.ok(row[coding] < row.br / 5, `${coding} ${row[coding]} vs br ${row.br}`);
      assert.ok(row[`${coding}Ms`] > 0 && row[`${coding}DecodeMs`] > 0);
    }
  }

  const res = await run(['server', 'codings', site, '--quick', '--out', path.join(dir, 'report')]);
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /\n## Dictionary deltas \(RFC 9842\)\n\n.*\n\n\| file \| dictionary \| size \| br \| zstd \| dcb \| dcz \|/);
  assert.equal(res.stdout.split('\n').filter((l) => l.startsWith('| /assets/app.v')).length, PAIRS);
  assert.match(await fs.readFile(path.join(dir, 'report', 'report.md'), 'utf8'), /## Dictionary deltas \(RFC 9842\)/);

  await fs.writeFile(path.join(site, 'negotiate.config.json'), JSON.stringify({ dictionaries: [{ match: 'no-slash' }] }));
  await assert.rejects(measureDeltas(site, { br: 4, zstd: 3 }), { message: /^negotiate\.config\.json: dictionaries\[0\]\.match: / });
});
