'use strict';
// docs/tools/demo-packages.js: the demo's copies of other projects' files, made from the packages
// package.json declares, written where they are missing or stale and nowhere else, never over a
// file the script did not write.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { generate, staleOutputs, NAMES, ALIASES, RECORD } = require('../../docs/tools/demo-packages');
const { RELEASES } = require('../../bench/dictionary/releases');

const MANIFEST = require('../../package.json');
const LODASH = RELEASES.find((r) => r.pkg === 'lodash');
const sha256 = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');

function tempDir(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-packages-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const listing = (dir) => fs.readdirSync(dir).sort();

test('the copies are the lodash pair of bench:dictionary and mime-db, from devDependencies package.json declares', () => {
  assert.deepEqual(NAMES, [`lodash-${LODASH.from}.min.js`, `lodash-${LODASH.to}.min.js`, 'mime-db.js']);
  assert.deepEqual(ALIASES, { [`lodash-${LODASH.from}`]: `npm:lodash@${LODASH.from}`, [`lodash-${LODASH.to}`]: `npm:lodash@${LODASH.to}` });
  for (const [name, spec] of Object.entries(ALIASES)) assert.equal(MANIFEST.devDependencies[name], spec, name);
  assert.equal(typeof MANIFEST.devDependencies['mime-db'], 'string');
  // The tarball carries the copies (prepack), never as packages installed with it.
  for (const name of [...Object.keys(ALIASES), 'mime-db']) assert.equal(MANIFEST.dependencies[name], undefined, name);
});

test('writes each copy once: lodash byte for byte, mime-db as an ES module with its licence', async (t) => {
  const dir = path.join(tempDir(t), 'vendor');
  assert.deepEqual(staleOutputs(dir), NAMES);
  assert.deepEqual(await generate(dir), NAMES);
  assert.deepEqual(listing(dir), [RECORD, ...NAMES].sort());
  for (const version of [LODASH.from, LODASH.to]) {
    assert.deepEqual(fs.readFileSync(path.join(dir, `lodash-${version}.min.js`)), fs.readFileSync(require.resolve(`lodash-${version}/${LODASH.file}`)));
  }
  const mimeDb = fs.readFileSync(path.join(dir, 'mime-db.js'), 'utf8');
  assert.match(mimeDb, new RegExp(`^/\\*!\n \\* mime-db ${require('mime-db/package.json').version.replace(/\./g, '\\.')} `));
  assert.match(mimeDb, /\n \* Permission is hereby granted, free of charge/);
  const body = mimeDb.slice(mimeDb.indexOf('\nexport default ') + '\nexport default '.length, -';\n'.length);
  assert.deepEqual(JSON.parse(body), require('mime-db'));
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(dir, RECORD), 'utf8')),
    Object.fromEntries(NAMES.map((name) => [name, sha256(fs.readFileSync(path.join(dir, name)))])));
  assert.deepEqual(staleOutputs(dir), []);

  const mtimes = NAMES.map((name) => fs.statSync(path.join(dir, name)).mtimeMs);
  assert.deepEqual(await generate(dir), []);
  assert.deepEqual(NAMES.map((name) => fs.statSync(path.join(dir, name)).mtimeMs), mtimes);
});

test('replaces its own stale copy and removes its former ones; leaves every other file alone', async (t) => {
  const dir = path.join(tempDir(t), 'vendor');
  fs.mkdirSync(dir);
  const outside = path.join(dir, '..', 'outside.js');
  fs.writeFileSync(outside, 'outside');
  const stale = Buffer.from('an older mime-db.js');
  const former = Buffer.from('lodash 4.17.19');
  fs.writeFileSync(path.join(dir, 'mime-db.js'), stale);
  fs.writeFileSync(path.join(dir, 'lodash-4.17.19.min.js'), former);
  fs.writeFileSync(path.join(dir, 'edited-former.js'), 'edited since');
  fs.writeFileSync(path.join(dir, 'mine.js'), 'not the script\'s');
  fs.writeFileSync(path.join(dir, RECORD), JSON.stringify({
    'mime-db.js': sha256(stale), 'lodash-4.17.19.min.js': sha256(former), 'edited-former.js': sha256('as written'),
    '../outside.js': sha256('outside'), [RECORD]: sha256(''),
  }));
  assert.deepEqual(staleOutputs(dir), NAMES);
  const lines = [];
  assert.deepEqual(await generate(dir, (line) => lines.push(line)), NAMES);
  assert.deepEqual(listing(dir), [RECORD, 'edited-former.js', ...NAMES, 'mine.js'].sort());
  assert.equal(fs.readFileSync(path.join(dir, 'mine.js'), 'utf8'), 'not the script\'s');
  assert.equal(fs.readFileSync(outside, 'utf8'), 'outside');
  assert.equal(fs.readFileSync(path.join(dir, 'edited-former.js'), 'utf8'), 'edited since');
  assert.deepEqual(Object.keys(JSON.parse(fs.readFileSync(path.join(dir, RECORD), 'utf8'))), NAMES);
  assert.deepEqual(lines.filter((line) => !line.startsWith('wrote ')), [
    `removed ${path.relative(process.cwd(), path.join(dir, 'lodash-4.17.19.min.js'))}, no longer a copy`,
    `left ${path.relative(process.cwd(), path.join(dir, 'edited-former.js'))}: edited since docs/tools/demo-packages.js wrote it`,
  ]);
});

test('a file in the way that it did not write, or that was edited since, stops it before it writes anything', async (t) => {
  for (const record of [null, { 'mime-db.js': sha256('as written') }]) {
    const dir = tempDir(t);
    fs.writeFileSync(path.join(dir, 'mime-db.js'), 'someone else\'s');
    if (record !== null) fs.writeFileSync(path.join(dir, RECORD), JSON.stringify(record));
    await assert.rejects(generate(dir), {
      message: `${path.relative(process.cwd(), path.join(dir, 'mime-db.js'))} was not written by docs/tools/demo-packages.js, or was edited since: move it away, then run it again`,
    });
    assert.equal(fs.readFileSync(path.join(dir, 'mime-db.js'), 'utf8'), 'someone else\'s');
    assert.deepEqual(listing(dir), record === null ? ['mime-db.js'] : [RECORD, 'mime-db.js']);
  }
});

test('a record it cannot read is a clear error, and the file stays', async (t) => {
  for (const [text, why] of [['not json', /Unexpected token/], ['[]', /not an object/], ['null', /not an object/]]) {
    const dir = tempDir(t);
    fs.writeFileSync(path.join(dir, RECORD), text);
    await assert.rejects(generate(dir), (err) => {
      const [head, tail] = [`${path.relative(process.cwd(), path.join(dir, RECORD))}: not the record this script writes (`, '): move it away, then run it again'];
      assert.ok(err.message.startsWith(head) && err.message.endsWith(tail), err.message);
      assert.match(err.message.slice(head.length, -tail.length), why);
      return true;
    });
    assert.deepEqual(listing(dir), [RECORD]);
    assert.equal(fs.readFileSync(path.join(dir, RECORD), 'utf8'), text);
  }
});
