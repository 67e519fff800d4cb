'use strict';
// The dictionary index (dictionaries/dictionary-index.js) over a stand-in file store: a hash leads to
// its file only while the store holds those bytes there; each rule keeps its MAX_PER_RULE most
// recent hashes; files another rule covers, hidden or streamed files are never dictionaries.

const test = require('node:test');
const assert = require('node:assert/strict');
const { DictionaryIndex, MAX_PER_RULE, RETIRED_MAX_ENTRIES, RETIRED_MAX_BYTES, RETIRED_MAX_AGE_MS, AHEAD_FILES, AHEAD_DICTIONARIES } = require('../../server/dictionaries/dictionary-index');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { compileDictionaryRules, ruleFor } = require('../../server/config/dictionary-rules');
const { sha256 } = require('../../server/dictionaries/dictionary-codings');
const { saveRetired } = require('../../server/dictionaries/retired-dictionaries');

const RULES = compileDictionaryRules([{ match: '/a/*' }, { match: '/b/*' }]);

// files: rel → FileInfo-like { kind, rel, real, bytes, dictionaryRule }
function fixture(hidden = () => false, retiredDir = null) {
  const files = new Map();
  const store = {
    rootReal: '/root',
    current: (rel) => files.get(rel),
    lookup: async (rel) => {
      if (!files.has(rel)) throw Object.assign(new Error('not found'), { status: 404 });
      return files.get(rel);
    },
  };
  const put = (rel, text, rule = RULES[rel.startsWith('/a/') ? 0 : 1]) => {
    const info = { kind: 'file', rel, real: `/root${rel}`, bytes: text === null ? null : Buffer.from(text), dictionaryRule: rule };
    files.set(rel, info);
    return info;
  };
  return { files, put, index: new DictionaryIndex({ store, rules: RULES, hidden, retiredDir, log: { warn() {}, debug() {} } }) };
}

test('a noted file is found by its hash, and only in its own rule', async () => {
  const { put, index } = fixture();
  index.note(put('/a/v1.js', 'one'));
  assert.equal((await index.find(RULES[0], sha256('one'))).rel, '/a/v1.js');
  assert.equal(await index.find(RULES[1], sha256('one')), null);
  assert.equal(await index.find(RULES[0], sha256('two')), null);
});

test('a file that changed or vanished is forgotten', async () => {
  const { put, files, index } = fixture();
  index.note(put('/a/v1.js', 'one'));
  put('/a/v1.js', 'rebuilt');
  assert.equal(await index.find(RULES[0], sha256('one')), null);
  assert.equal(index.size, 1, 'the new content is noted instead');
  assert.equal((await index.find(RULES[0], sha256('rebuilt'))).rel, '/a/v1.js');
  files.delete('/a/v1.js');
  assert.equal(await index.find(RULES[0], sha256('rebuilt')), null);
  assert.equal(index.size, 0);
});

test('hidden, streamed and uncovered files are never dictionaries', async () => {
  const { put, index } = fixture((real) => real === '/root/a/secret.js');
  index.note(put('/a/secret.js', 'secret'));
  assert.equal(await index.find(RULES[0], sha256('secret')), null);
  assert.equal(index.size, 0, 'find() dropped the hidden file');
  index.note(put('/a/big.js', null));
  index.note(put('/c/x.js', 'x', null));
  assert.equal(index.size, 0);
});

test(`each rule keeps its ${MAX_PER_RULE} most recent hashes`, async () => {
  const { put, index } = fixture();
  for (let i = 0; i <= MAX_PER_RULE; i++) index.note(put(`/a/v${i}.js`, `version ${i}`));
  assert.equal(index.size, MAX_PER_RULE);
  assert.equal(await index.find(RULES[0], sha256('version 0')), null);
  assert.equal((await index.find(RULES[0], sha256(`version ${MAX_PER_RULE}`))).rel, `/a/v${MAX_PER_RULE}.js`);
});

test(`the start-up scan reads only the ${MAX_PER_RULE} newest files of each rule, in sub-folders too`, async (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dictionary-scan-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.mkdirSync(path.join(root, 'a', 'deep'), { recursive: true });
  fs.mkdirSync(path.join(root, 'c'));
  const count = MAX_PER_RULE + 2;
  for (let i = 0; i < count; i++) {
    const rel = i === count - 1 ? '/a/deep/newest.js' : `/a/v${i}.js`;
    fs.writeFileSync(path.join(root, rel), `version ${i}`);
    fs.utimesSync(path.join(root, rel), 1_000_000 + i, 1_000_000 + i);
  }
  fs.writeFileSync(path.join(root, 'c', 'x.js'), 'not covered');
  const read = [];
  const store = {
    rootReal: root,
    current: () => undefined,
    lookup: async (rel) => {
      read.push(rel);
      return { kind: 'file', rel, real: path.join(root, rel), bytes: fs.readFileSync(path.join(root, rel)), dictionaryRule: ruleFor(RULES, rel) };
    },
  };
  const index = new DictionaryIndex({ store, rules: RULES, hidden: () => false, log: { warn() {}, debug() {} } });
  await index.scan();
  assert.equal(read.length, MAX_PER_RULE);
  assert.equal(index.size, MAX_PER_RULE);
  assert.equal(await index.find(RULES[0], sha256('version 0')), null, 'the oldest is not read');
  assert.equal(await index.find(RULES[0], sha256('version 1')), null);
  assert.equal((await index.find(RULES[0], sha256(`version ${count - 1}`))).rel, '/a/deep/newest.js');
});

test('a file rewritten in place leaves its previous content as a dictionary, bounded in count, bytes and age', async () => {
  let clock = 0;
  const { put, index } = fixture();
  index.now = () => clock;
  const v1 = put('/a/lib.js', 'first build');
  index.note(v1);
  const v2 = put('/a/lib.js', 'second build');
  index.retire(v1, v2);
  const previous = await index.find(RULES[0], sha256('first build'));
  assert.deepEqual({ kind: previous.kind, rel: previous.rel, bytes: previous.bytes }, { kind: 'previous', rel: '/a/lib.js', bytes: Buffer.from('first build') });
  assert.equal(await index.find(RULES[1], sha256('first build')), null, 'only for its own rule');
  // The same bytes again (a touch) retire nothing; a file no rule covers neither.
  index.retire(v2, put('/a/lib.js', 'second build'));
  index.retire(put('/c/x.js', 'x', null), put('/c/x.js', 'y', null));
  assert.equal(index.retired.size, 1);

  clock += RETIRED_MAX_AGE_MS + 1;
  assert.equal(await index.find(RULES[0], sha256('first build')), null, 'too old');
  assert.equal(index.retired.size, 0);

  for (let i = 0; i <= RETIRED_MAX_ENTRIES; i++) index.retire(put('/a/lib.js', `build ${i}`), put('/a/lib.js', `build ${i + 1}`));
  assert.equal(index.retired.size, RETIRED_MAX_ENTRIES);
  assert.equal(await index.find(RULES[0], sha256('build 0')), null, 'the oldest went first');
  assert.equal((await index.find(RULES[0], sha256(`build ${RETIRED_MAX_ENTRIES}`))).kind, 'previous');

  const big = 'x'.repeat(RETIRED_MAX_BYTES / 5);
  for (let i = 0; i < 6; i++) index.retire(put('/a/big.js', big + i), put('/a/big.js', big + (i + 1)));
  assert.ok(index.retiredBytes <= RETIRED_MAX_BYTES, `${index.retiredBytes} bytes`);
  assert.equal(await index.find(RULES[0], sha256(big + 0)), null);
  assert.equal((await index.find(RULES[0], sha256(big + 5))).kind, 'previous');
});

test('with a cache folder, previous contents outlive the index: the next one loads them for the rule that covers them now', async (t) => {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dictionary-retired-')), 'dictionaries');
  t.after(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));
  const first = fixture(() => false, dir);
  for (const [rel, from, to] of [['/a/lib.js', 'a one', 'a two'], ['/b/lib.js', 'b one', 'b two'], ['/a/secret.js', 'secret one', 'secret two']]) {
    first.index.retire(first.put(rel, from), first.put(rel, to));
  }
  await first.index.flushed();
  assert.equal(fs.readdirSync(dir).length, 6);
  // Kept a minute ago, in this order.
  for (const [i, text] of ['a one', 'b one', 'secret one'].entries()) {
    const at = Date.now() / 1000 - 60 + i;
    fs.utimesSync(path.join(dir, sha256(text).toString('hex')), at, at);
  }

  const next = fixture((real) => real === '/root/a/secret.js', dir);
  next.index.retire(next.put('/a/lib.js', 'a two'), next.put('/a/lib.js', 'a three'));
  await next.index.load();
  assert.equal((await next.index.find(RULES[0], sha256('a one'))).rel, '/a/lib.js');
  assert.equal((await next.index.find(RULES[1], sha256('b one'))).rel, '/b/lib.js');
  assert.equal(await next.index.find(RULES[0], sha256('secret one')), null, 'hidden now');
  assert.deepEqual([...next.index.retired.values()].map((e) => e.bytes.toString()), ['a one', 'b one', 'a two'], 'retired meanwhile counts as newest');
  await next.index.flushed();
  assert.equal(fs.readdirSync(dir).length, 6, 'the hidden one deleted, a two written');

  next.index.now = () => performance.now() + RETIRED_MAX_AGE_MS + 1;
  assert.equal(await next.index.find(RULES[0], sha256('a one')), null, 'too old');
  await next.index.flushed();
  assert.equal(fs.readdirSync(dir).length, 4, 'and gone from the disk');
});

test(`deltas ahead of time: the ${AHEAD_FILES} newest files of a rule, each against its ${AHEAD_DICTIONARIES} predecessors, its own previous contents first`, () => {
  const { put, index } = fixture();
  for (const v of [0, 1, 2, 3]) index.note(put(`/a/app.v${v}.js`, `app ${v}`));
  index.note(put('/b/other.js', 'other'));
  const lib = put('/a/lib.js', 'lib old');
  index.retire(lib, put('/a/lib.js', 'lib new'));
  index.note(put('/a/lib.js', 'lib new'));
  const pairs = index.aheadPairs(RULES[0]).map(({ rel, hash }) => `${rel} < ${hash.toString('hex')}`);
  const of = (rel, text) => `${rel} < ${sha256(text).toString('hex')}`;
  assert.deepEqual(pairs, [of('/a/lib.js', 'lib old'), of('/a/lib.js', 'app 3'), of('/a/app.v3.js', 'app 2'), of('/a/app.v3.js', 'app 1')]);
  assert.deepEqual(index.aheadPairs(RULES[1]), [], 'a lone file has no predecessor');
});

// A hidden file must never answer for its hash (a confirmation oracle for its content), whatever
// way it would reach the index: the scan, a rule's link, a rewrite, the cache folder.
test('dot files and dot folders are never dictionaries: scanned, linked, retired or loaded', async (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dictionary-dot-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.mkdirSync(path.join(root, 'a', '.git'), { recursive: true });
  const files = { '/a/.env.js': 'SECRET=1', '/a/.git/config.js': 'token', '/a/app.js': 'app', '/a/.link.dict': 'linked secret' };
  for (const [rel, text] of Object.entries(files)) fs.writeFileSync(path.join(root, rel), text);
  const rules = compileDictionaryRules([{ match: '/a/*', link: '/a/.link.dict', linkFrom: '/*.html' }]);
  // Like the file store, lookup() opens any path inside the root it is given.
  const store = {
    rootReal: root,
    current: () => undefined,
    lookup: async (rel) => ({ kind: 'file', rel, real: path.join(root, rel), bytes: fs.readFileSync(path.join(root, rel)), dictionaryRule: rules[0] }),
  };
  const retiredDir = path.join(root, 'cache', 'dictionaries');
  const index = new DictionaryIndex({ store, rules, hidden: () => false, retiredDir, log: { warn() {}, debug() {} } });
  await index.scan();
  for (const text of ['SECRET=1', 'token', 'linked secret']) assert.equal(await index.find(rules[0], sha256(text)), null, text);
  assert.equal((await index.find(rules[0], sha256('app'))).rel, '/a/app.js');
  assert.equal(index.size, 1);

  const before = await store.lookup('/a/.env.js');
  index.retire(before, { ...before, bytes: Buffer.from('SECRET=2') });
  assert.equal(index.retired.size, 0, 'a rewritten dot file leaves nothing behind');

  await saveRetired(retiredDir, sha256('SECRET=0').toString('hex'), '/a/.env.js', Buffer.from('SECRET=0'));
  await index.load();
  assert.equal(await index.find(rules[0], sha256('SECRET=0')), null);
  await index.flushed();
  assert.deepEqual(fs.readdirSync(retiredDir), [], 'and deleted from the cache folder');
});

test(`plain requests for other files never push out what the scan found (${MAX_PER_RULE} per rule)`, async (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dictionary-pinned-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.mkdirSync(path.join(root, 'a'));
  for (let i = 0; i < MAX_PER_RULE; i++) fs.writeFileSync(path.join(root, 'a', `v${i}.js`), `scanned ${i}`);
  const made = new Map();
  const store = {
    rootReal: root,
    current: (rel) => made.get(rel),
    lookup: async (rel) => made.get(rel) ?? { kind: 'file', rel, real: path.join(root, rel), bytes: fs.readFileSync(path.join(root, rel)), dictionaryRule: RULES[0] },
  };
  const index = new DictionaryIndex({ store, rules: RULES, hidden: () => false, log: { warn() {}, debug() {} } });
  await index.scan();
  assert.equal(index.size, MAX_PER_RULE);
  // Files the scan did not find (added since), each served once.
  for (let i = 0; i < 2 * MAX_PER_RULE; i++) {
    const info = { kind: 'file', rel: `/a/new${i}.js`, real: path.join(root, `a/new${i}.js`), bytes: Buffer.from(`new ${i}`), dictionaryRule: RULES[0] };
    made.set(info.rel, info);
    index.note(info);
  }
  for (let i = 0; i < MAX_PER_RULE; i++) assert.equal((await index.find(RULES[0], sha256(`scanned ${i}`)))?.rel, `/a/v${i}.js`, `v${i}`);
  assert.equal(index.size, 2 * MAX_PER_RULE, `the scanned ones and the ${MAX_PER_RULE} most recent others`);
  assert.equal(await index.find(RULES[0], sha256('new 0')), null);
  assert.equal((await index.find(RULES[0], sha256(`new ${2 * MAX_PER_RULE - 1}`))).rel, `/a/new${2 * MAX_PER_RULE - 1}.js`);

  // A scanned file rebuilt keeps its place, under its new hash only.
  const rebuilt = { kind: 'file', rel: '/a/v0.js', real: path.join(root, 'a/v0.js'), bytes: Buffer.from('rebuilt 0'), dictionaryRule: RULES[0] };
  made.set(rebuilt.rel, rebuilt);
  index.note(rebuilt);
  assert.equal(index.size, 2 * MAX_PER_RULE);
  for (let i = 0; i < MAX_PER_RULE; i++) index.note({ ...made.get(`/a/new${MAX_PER_RULE + i}.js`), rel: `/a/again${i}.js`, bytes: Buffer.from(`again ${i}`) });
  assert.equal((await index.find(RULES[0], sha256('rebuilt 0'))).rel, '/a/v0.js');
});
