'use strict';
// The user documentation: README.md short enough to read, every docs/ page reachable from it,
// and every relative link of README.md and docs/*.md (and of the pages they lead to) resolving
// to a file and, for #anchors, to a heading (docs/tools/check-links.js).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { slug, anchors, relativeLinks, brokenLinks, userDocs } = require('../../docs/tools/check-links');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const README_MAX_LINES = 300;

test('README.md has at most 300 lines', () => {
  const lines = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  assert.ok(lines.length <= README_MAX_LINES, `README.md has ${lines.length} lines`);
});

test('every relative link of README.md and docs/*.md resolves', () => {
  assert.deepEqual(brokenLinks(userDocs()), []);
});

test('every docs/ page is linked from README.md', () => {
  const linked = new Set(relativeLinks(fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8')).map((t) => t.split('#')[0]));
  assert.deepEqual(userDocs().filter((page) => page !== 'README.md' && !linked.has(page)), []);
});

test('slug: anchors as GitHub makes them', () => {
  for (const [heading, expected] of [
    ['Negotiation rules', 'negotiation-rules'],
    ['HTTP/1.1 engine', 'http11-engine'],
    ['From code: startServer()', 'from-code-startserver'],
    ['The explainer: /_negotiate', 'the-explainer-_negotiate'],
    ['Middleware: express, fastify, node:http2', 'middleware-express-fastify-nodehttp2'],
    ['Keeping variants current: --watch', 'keeping-variants-current---watch'],
    ['See [TLS](tls.md) here', 'see-tls-here'],
    ['Größe ändern', 'größe-ändern'],
  ]) assert.equal(slug(heading), expected, heading);
});

test('anchors: repeated headings are numbered, headings inside code blocks are not headings', () => {
  const page = '# A\n## Same\ntext\n## Same\n```sh\n# comment\n```\n### Same ##\n';
  assert.deepEqual([...anchors(page)], ['a', 'same', 'same-1', 'same-2']);
});

test('relativeLinks: code and external links are skipped', () => {
  const page = '[a](docs/a.md) ![img](x.png) [b](https://example.com/) [m](mailto:x@y) `[c](no.md)`\n```\n[d](no.md)\n```\n[e](#here "title")\n';
  assert.deepEqual(relativeLinks(page), ['docs/a.md', 'x.png', '#here']);
});

test('brokenLinks: a missing file, a missing anchor and a link out of the repository are each reported', (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-links-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.mkdirSync(path.join(root, 'docs'));
  fs.writeFileSync(path.join(root, 'README.md'), '# Top\n[ok](docs/a.md#part) [gone](docs/none.md) [bad](docs/a.md#nope) [self](#top) [out](../x.md)\n');
  fs.writeFileSync(path.join(root, 'docs', 'a.md'), '## Part\n[back](../README.md#missing)\n');
  assert.deepEqual(brokenLinks(['README.md'], root), [
    'README.md: docs/none.md (no such file)',
    'README.md: docs/a.md#nope (no heading for #nope in docs/a.md)',
    'README.md: ../x.md (outside the repository)',
    'docs/a.md: ../README.md#missing (no heading for #missing in README.md)',
  ]);
});
