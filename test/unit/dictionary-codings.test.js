'use strict';
// The dcb and dcz framing of RFC 9842 4 and their round trip through the engines: the header
// bytes, the dictionary's hash after them, and decoding that refuses a body made with another
// dictionary or with a broken header.

const test = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const { frame, unframe, createDictionaryEngines, sha256, deltaOrder } = require('../../server/dictionaries/dictionary-codings');
const { createEngines } = require('../../server/compression/codings');

const HASH = crypto.createHash('sha256').update('dictionary').digest();

test('frame and unframe', () => {
  const dcb = frame('dcb', HASH, Buffer.from('payload'));
  assert.equal(dcb.subarray(0, 4).toString('hex'), 'ff444342');
  assert.deepEqual(unframe('dcb', dcb), { hash: HASH, payload: Buffer.from('payload') });
  const dcz = frame('dcz', HASH, Buffer.from('payload'));
  assert.equal(dcz.subarray(0, 8).toString('hex'), '5e2a4d1820000000');
  assert.deepEqual(unframe('dcz', dcz), { hash: HASH, payload: Buffer.from('payload') });
  for (const [coding, body] of [['dcb', dcz], ['dcz', dcb], ['dcb', dcb.subarray(0, 35)], ['dcz', Buffer.alloc(0)]]) {
    assert.throws(() => unframe(coding, body), { code: 'ERR_DICTIONARY_FRAME' });
  }
});

test('dcb and dcz round trips, and what they refuse', async () => {
  const engines = createDictionaryEngines(createEngines());
  assert.deepEqual(engines.available, ['dcb', 'dcz']);
  const dictionary = Buffer.from('export function render(state) { return state.items.map((item) => item.name); }\n'.repeat(40));
  const input = Buffer.concat([dictionary, Buffer.from('export const version = 2;\n')]);
  for (const coding of engines.available) {
    const body = await engines.compress(coding, input, dictionary, sha256(dictionary));
    assert.ok(body.length < 80, `${coding}: ${body.length} bytes`);
    assert.deepEqual(await engines.decompress(coding, body, dictionary), input);
    await assert.rejects(engines.decompress(coding, body, Buffer.from('another dictionary')), { code: 'ERR_DICTIONARY_MISMATCH' });
    await assert.rejects(engines.decompress(coding, body, dictionary, { maxOutputLength: 100 }), { code: 'ERR_BUFFER_TOO_LARGE' });
  }
  // zstd reads a dictionary that starts with its magic number as a formatted one, not as the raw
  // content RFC 9842 requires: such a dictionary gets no dcz.
  const magic = Buffer.from([0x37, 0xa4, 0x30, 0xec, 1, 2, 3]);
  assert.equal(engines.accepts('dcz', magic), false);
  assert.equal(engines.accepts('dcb', magic), true);
  assert.equal(engines.accepts('dcz', dictionary), true);
});

test('a large dictionary keeps dcz small: the fast levels get tables sized to it', async () => {
  const { appScript } = require('../helpers/dictionary-site');
  const engines = createDictionaryEngines(createEngines());
  const dictionary = Buffer.from(appScript('v1', 2 * 1024 * 1024));
  const input = Buffer.from(appScript('v2', 2 * 1024 * 1024));
  const body = await engines.compress('dcz', input, dictionary, sha256(dictionary));
  assert.ok(body.length < input.length / 500, `dcz ${body.length} bytes for ${input.length}`);
  assert.deepEqual(await engines.decompress('dcz', body, dictionary), input);
});

test('dcb compresses at quality 5 at least: below, Brotli 1.1 does not search the dictionary', async () => {
  const { appScript } = require('../helpers/dictionary-site');
  const engines = createDictionaryEngines(createEngines({ levels: { dynamic: { br: 2 } } }));
  const dictionary = Buffer.from(appScript('v1', 40 * 1024));
  const input = Buffer.from(appScript('v2', 40 * 1024));
  const body = await engines.compress('dcb', input, dictionary, sha256(dictionary));
  assert.ok(body.length < 200, `dcb ${body.length} bytes`);
  assert.equal(engines.settingsTag('dcb'), '5w22');
  assert.deepEqual(await engines.decompress('dcb', body, dictionary), input);
});

test('dcz compresses at level 3 at least: levels 1 and 2 match a dictionary poorly', async () => {
  const { appScript } = require('../helpers/dictionary-site');
  const engines = createDictionaryEngines(createEngines({ levels: { dynamic: { zstd: 1 } } }));
  const dictionary = Buffer.from(appScript('v1'));
  const input = Buffer.from(appScript('v2'));
  const body = await engines.compress('dcz', input, dictionary, sha256(dictionary));
  assert.ok(body.length < 500, `dcz ${body.length} bytes`);
  assert.equal(engines.settingsTag('dcz'), '3');
  assert.deepEqual(await engines.decompress('dcz', body, dictionary), input);
});

test('deltaOrder: the dictionary codings whose base coding --encodings names, in its order', () => {
  const cases = [
    [['br', 'zstd', 'gzip'], ['dcb', 'dcz'], ['dcb', 'dcz']],
    [['zstd', 'br'], ['dcb', 'dcz'], ['dcz', 'dcb']],
    [['gzip', 'zstd'], ['dcb', 'dcz'], ['dcz']],
    [['br', 'zstd'], ['dcz'], ['dcz']],
    [['gzip'], ['dcb', 'dcz'], []],
  ];
  for (const [encodings, available, expected] of cases) assert.deepEqual(deltaOrder(encodings, available), expected, encodings.join(','));
});

test('the Brotli dictionary binding: argument errors thrown, corrupt or truncated input rejected', async () => {
  const { brotliDictionary } = require('../../native/js/addon');
  assert.equal(brotliDictionary.available, true, brotliDictionary.unavailableReason);
  assert.ok(brotliDictionary.version >= 0x1001000, brotliDictionary.version.toString(16));
  const d = Buffer.from('dictionary ');
  const bad = [
    [() => brotliDictionary.compress('text', d, 5, 22), TypeError, /^input must be/],
    [() => brotliDictionary.compress(d, null, 5, 22), TypeError, /^dictionary must be/],
    [() => brotliDictionary.compress(d, d, 12, 22), RangeError, /^quality must be an integer from 0 to 11$/],
    [() => brotliDictionary.compress(d, d, 5, 25), RangeError, /^lgwin must be an integer from 10 to 24$/],
    [() => brotliDictionary.decompress(d, d, 0), RangeError, /^maxOutput must be a number >= 1$/],
  ];
  for (const [call, name, message] of bad) assert.throws(call, { name: name.name, code: 'ERR_BROTLI_INVALID_ARGUMENT', message });
  const body = await brotliDictionary.compress(Buffer.from('dictionary text'), d, 5, 22);
  await assert.rejects(brotliDictionary.decompress(body.subarray(0, body.length - 1), d, 1000), { code: 'ERR_BROTLI_TRUNCATED' });
  await assert.rejects(brotliDictionary.decompress(Buffer.concat([body, Buffer.from('x')]), d, 1000), { code: 'ERR_BROTLI_TRAILING' });
  await assert.rejects(brotliDictionary.decompress(Buffer.from([0xff, 0xff, 0xff]), d, 1000), { code: 'ERR_BROTLI_DECODE' });
});
