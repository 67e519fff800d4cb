'use strict';
// The site configuration's `dictionaries` rules: what is refused at start-up (naming the rule),
// the Use-As-Dictionary field each rule sends (RFC 9651 serialisation), and which paths a
// pattern matches (the literal-and-`*` subset of URLPattern pathnames).

const test = require('node:test');
const assert = require('node:assert/strict');
const { compileDictionaryRules, ruleFor, linksFor } = require('../../server/config/dictionary-rules');

// [rules, header of the first rule]
const HEADERS = [
  [[{ match: '/assets/app.*.js' }], 'match="/assets/app.*.js"'],
  [[{ match: '/assets/app.*.js', matchDest: ['script'], id: 'app-bundle' }], 'match="/assets/app.*.js", match-dest=("script"), id="app-bundle"'],
  [[{ match: '/*', matchDest: ['style', 'script'] }], 'match="/*", match-dest=("style" "script")'],
  [[{ match: '/a', id: 'say "hi" \\o/' }], 'match="/a", id="say \\"hi\\" \\\\o/"'],
  [[{ match: '/a', matchDest: [] }], 'match="/a"'],
];

test('each rule serialises its Use-As-Dictionary field', () => {
  for (const [rules, header] of HEADERS) assert.equal(compileDictionaryRules(rules)[0].header, header, JSON.stringify(rules));
});

// [rules, error message pattern]
const INVALID = [
  [{}, /^dictionaries: expected an array/],
  [[null], /^dictionaries\[0\]: expected \{/],
  [[{ match: '/a' }, { match: '/b', dest: [] }], /^dictionaries\[1\]: unknown key "dest"/],
  [[{}], /^dictionaries\[0\]\.match: expected a path/],
  [[{ match: 'assets/*.js' }], /^dictionaries\[0\]\.match: /],
  [[{ match: '/assets/:name.js' }], /^dictionaries\[0\]\.match: /],
  [[{ match: '/assets/(.*).js' }], /^dictionaries\[0\]\.match: /],
  [[{ match: '/assets/{a,b}.js' }], /^dictionaries\[0\]\.match: /],
  [[{ match: '/assets/app?.js' }], /^dictionaries\[0\]\.match: /],
  [[{ match: '/assets/a+.js' }], /^dictionaries\[0\]\.match: /],
  [[{ match: '/a%20b' }], /^dictionaries\[0\]\.match: /],
  [[{ match: '/a b' }], /^dictionaries\[0\]\.match: /],
  [[{ match: '/a/../b' }], /^dictionaries\[0\]\.match: /],
  [[{ match: '/a/./b' }], /^dictionaries\[0\]\.match: /],
  [[{ match: '/a/..' }], /^dictionaries\[0\]\.match: /],
  [[{ match: 'https://other.example/a' }], /^dictionaries\[0\]\.match: /],
  [[{ match: '/a', matchDest: 'script' }], /^dictionaries\[0\]\.matchDest: /],
  [[{ match: '/a', matchDest: ['scripts'] }], /^dictionaries\[0\]\.matchDest: /],
  [[{ match: '/a', matchDest: ['script', 'script'] }], /^dictionaries\[0\]\.matchDest: /],
  [[{ match: '/a', id: '' }], /^dictionaries\[0\]\.id: /],
  [[{ match: '/a', id: 'x'.repeat(1025) }], /^dictionaries\[0\]\.id: /],
  [[{ match: '/a', id: 'caf\u00e9' }], /^dictionaries\[0\]\.id: /],
  [[{ match: '/a', id: 7 }], /^dictionaries\[0\]\.id: /],
  [[{ match: '/a', link: '/d.dict' }], /^dictionaries\[0\]: "link" and "linkFrom" go together/],
  [[{ match: '/a', linkFrom: '/*.html' }], /^dictionaries\[0\]: "link" and "linkFrom" go together/],
  [[{ match: '/a', link: '/dict/*.dict', linkFrom: '/*' }], /^dictionaries\[0\]\.link: expected the path of one file/],
  [[{ match: '/a', link: 'https://cdn.example/d.dict', linkFrom: '/*' }], /^dictionaries\[0\]\.link: expected a path/],
  [[{ match: '/a', link: '/d.dict', linkFrom: 7 }], /^dictionaries\[0\]\.linkFrom: expected a path/],
];

test('invalid rules are refused, naming the rule', () => {
  for (const [rules, message] of INVALID) assert.throws(() => compileDictionaryRules(rules), { message }, JSON.stringify(rules));
});

// [pattern, path, matches]
const MATCHES = [
  ['/assets/app.*.js', '/assets/app.v1.js', true],
  ['/assets/app.*.js', '/assets/app..js', true],
  ['/assets/app.*.js', '/assets/app.v1/x.js', true], // URLPattern's "*" crosses "/"
  ['/assets/app.*.js', '/assets/app.v1.js.map', false],
  ['/assets/app.*.js', '/assets/appXv1.js', false], // "." is literal
  ['/assets/app.*.js', '/other/assets/app.v1.js', false],
  ['/assets/*', '/assets/', true],
  ['/assets/*', '/assets', false],
  ['/a', '/a', true],
  ['/a', '/ab', false],
  ['/*/*.css', '/x/y.css', true],
  ['/*/*.css', '/y.css', false],
  ['/$v1;x=1', '/$v1;x=1', true],
];

test('patterns match like URLPattern pathnames with literals and "*"', () => {
  for (const [pattern, rel, expected] of MATCHES) {
    const compiled = compileDictionaryRules([{ match: pattern }]);
    assert.equal(ruleFor(compiled, rel) !== null, expected, `${pattern} vs ${rel}`);
  }
});

test('the first matching rule wins', () => {
  const compiled = compileDictionaryRules([{ match: '/a/*.js', id: 'one' }, { match: '/a/*', id: 'two' }]);
  assert.equal(ruleFor(compiled, '/a/x.js').index, 0);
  assert.equal(ruleFor(compiled, '/a/x.css').index, 1);
  assert.equal(ruleFor(compiled, '/b/x.css'), null);
});

test('an invalid rule in negotiate.config.json stops the start, naming the file and the rule', (t) => {
  const fs = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  const { normalizeOptions } = require('../../server/config/options');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dictionary-rules-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.writeFileSync(path.join(root, 'negotiate.config.json'), JSON.stringify({ dictionaries: [{ match: '/ok/*' }, { match: '/a/:id' }] }));
  assert.throws(() => normalizeOptions({ root }), { name: 'ConfigError', message: /^negotiate\.config\.json: dictionaries\[1\]\.match: / });
  fs.writeFileSync(path.join(root, 'negotiate.config.json'), JSON.stringify({ dictionaries: [{ match: '/x/*' }] }));
  assert.deepEqual(normalizeOptions({ root }).dictionaries, [{ match: '/x/*' }]);
});

test('a rule\'s standalone dictionary (RFC 9842 3.2) is announced on the pages linkFrom matches and is itself a dictionary of the rule', () => {
  const rules = compileDictionaryRules([
    { match: '/assets/*.js', link: '/dict/app.dict', linkFrom: '/*.html' },
    { match: '/css/*.css', link: '/dict/css.dict', linkFrom: '/index.html' },
    { match: '/other/*' },
  ]);
  // [path, Link, rule index or null]
  for (const [rel, link, rule] of [
    ['/index.html', '</dict/app.dict>; rel="compression-dictionary", </dict/css.dict>; rel="compression-dictionary"', null],
    ['/docs/page.html', '</dict/app.dict>; rel="compression-dictionary"', null],
    ['/dict/app.dict', null, 0],
    ['/dict/css.dict', null, 1],
    ['/dict/other.dict', null, null],
    ['/assets/a.js', null, 0],
  ]) {
    assert.equal(linksFor(rules, rel), link, rel);
    assert.equal(ruleFor(rules, rel)?.index ?? null, rule, rel);
  }
});
