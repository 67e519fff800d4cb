'use strict';
// server/decision/file-info.js: the strong ETag of a precompressed variant changes when its
// bytes may have changed and only then. A variant in the cache folder is named by its source
// and the hash of its bytes (touching or rewriting it alike keeps the tag; other bytes, say
// another level, get another); the user's own variant by its own stat; no two kinds share one.

const test = require('node:test');
const assert = require('node:assert/strict');
const { createFileInfoBuilder } = require('../../server/decision/file-info');

const build = createFileInfoBuilder({ encodings: ['br', 'gzip'], dynamicReasons: { br: null, gzip: null }, minCompressBytes: 1024, cacheControl: 'public, max-age=0' });
const SOURCE = { dev: 1, ino: 0x10, size: 0x4000, mtimeMs: 1000.5, ctimeMs: 1000.5 };
const stat = (over) => ({ dev: 1, ino: 0x20, size: 0x100, mtimeMs: 2000, ctimeMs: 2000, ...over });

// The ETag of `coding` for a source with variant `variant` ({ stat, cached, digest }).
function etagOf(variant, source = SOURCE, coding = 'br') {
  const found = { [coding]: { bytes: null, path: '/v', age: variant.cached ? 'cached' : 'fresh', mismatch: null, ...variant } };
  return build('/a.js', '/r/a.js', { stat: source, bytes: null }, found, null).info.variants[coding].etag;
}

test('a cached variant is named by its source and its bytes, never by its own stat', () => {
  const cached = { stat: stat(), cached: true, digest: '0123456789abcdef' };
  const tag = etagOf(cached);
  assert.equal(tag, '"4000-f4434-10-br-0123456789abcdef"');
  const cases = [
    // [what changed, variant, source, coding, same tag?]
    ['the variant touched', { ...cached, stat: stat({ mtimeMs: 9000, ctimeMs: 9000 }) }, SOURCE, 'br', true],
    ['the variant written again alike', { ...cached, stat: stat({ ino: 0x99, mtimeMs: 9000 }) }, SOURCE, 'br', true],
    ['other bytes (another level)', { ...cached, digest: 'fedcba9876543210' }, SOURCE, 'br', false],
    ['the source', cached, { ...SOURCE, mtimeMs: 1001 }, 'br', false],
    ['the coding', cached, SOURCE, 'gzip', false],
    ['the user\'s own variant with the same stat', { stat: stat(), cached: false }, SOURCE, 'br', false],
  ];
  for (const [what, variant, source, coding, same] of cases) assert.equal(etagOf(variant, source, coding) === tag, same, what);
});

test('the user\'s own variant is named by its own stat: replacing it changes the tag', () => {
  const own = { stat: stat(), cached: false };
  assert.equal(etagOf(own), '"100-1e8480-20-br"');
  for (const over of [{ size: 0x101 }, { mtimeMs: 2000.001 }, { ino: 0x21 }]) assert.notEqual(etagOf({ ...own, stat: stat(over) }), etagOf(own), JSON.stringify(over));
});
