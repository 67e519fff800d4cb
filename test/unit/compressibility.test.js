'use strict';
// The one rule for what is worth compressing (server/compression/compressibility.js), used by the server
// and by precompress, and the demo page's table generated from it (static/js/compressible-types.js).

const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { typeOfName, isCompressibleType, whyNotCompressible, savesBytes } = require('../../server/compression/compressibility');
const { isCompressibleName } = require('../../server/files/tree-walk');
const { isStale } = require('../../docs/tools/compressible-types');

const NAMES = [
  // [name, compressed?]
  ['app.js', true],
  ['style.css', true],
  ['index.html', true],
  ['logo.svg', true],
  ['data.json', true],
  ['notes.txt', true],
  ['module.wasm', true],
  ['font.ttf', true],
  ['random.bin', false],
  ['no-extension', false],
  ['file.unknownext', false],
  ['app.js.br', false],
  ['APP.JS.BR', false],
  ['app.js.zst', false],
  ['app.js.gz', false],
  ['app.js.lzma', false],
  ['bundle.zip', false],
  ['font.woff2', false],
  ['font.woff', false],
  ['photo.jpg', false],
  ['icon.png', false],
  ['pic.webp', false],
  ['clip.mp4', false],
  ['archive.7z', false],
];

for (const [name, expected] of NAMES) {
  test(`${name}: ${expected ? 'compressed' : 'left alone'} by the server and by precompress`, () => {
    assert.equal(whyNotCompressible(name, typeOfName(name)) === null, expected);
    assert.equal(isCompressibleName(name), expected);
  });
}

test('unknown names are served as application/octet-stream, which is not compressible', () => {
  assert.equal(typeOfName('x.unknownext'), 'application/octet-stream');
  assert.equal(isCompressibleType('application/octet-stream'), false);
  assert.equal(isCompressibleType('Application/Octet-Stream; x=1'), false);
  assert.equal(isCompressibleType('text/html; charset=utf-8'), true);
});

test('a compressed form must be strictly smaller than identity', () => {
  assert.deepEqual([[99, 100], [100, 100], [101, 100]].map(([c, i]) => savesBytes(c, i)), [true, false, false]);
});

test('the demo page\'s table of compressible types is what docs/tools/compressible-types.js generates today', () => {
  assert.equal(isStale(), false, 'stale: run node docs/tools/compressible-types.js');
});

test('the demo page decides every mime-db type as the server does (its table is generated from this rule)', async () => {
  const { describeContentType } = await import(pathToFileURL(path.join(__dirname, '..', '..', 'static', 'js', 'mime.js')));
  const types = Object.keys(require('mime-db'));
  const differ = types.filter((type) => describeContentType(`${type}; charset=utf-8`).compressible !== isCompressibleType(type));
  assert.deepEqual(differ, []);
  assert.equal(types.length > 2000, true);
  assert.deepEqual(describeContentType('Text/HTML'), { essence: 'text/html', compressible: true });
  assert.equal(describeContentType(''), null);
});
