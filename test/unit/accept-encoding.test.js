'use strict';
// Accept-Encoding as pure functions: the one parser (server/http/accept-encoding.js), the decision
// built on it (server/decision/negotiate.js), and generated corpora of well-formed and malformed
// headers on which both must give exactly negotiator's acceptability and choice (negotiator, a
// devDependency, is what express and most of Node's ecosystem negotiate with).

const test = require('node:test');
const assert = require('node:assert/strict');
const Negotiator = require('negotiator');
const { parseAcceptEncoding, qualityOf } = require('../../server/http/accept-encoding');
const { negotiate, isAcceptable } = require('../../server/decision/negotiate');
const { createRandom } = require('../fuzz/random');

const ALL = ['br', 'zstd', 'gzip', 'deflate', 'lzma', 'identity'];

// [header (undefined = absent), { coding: q } for ALL]
const WEIGHTS = [
  [undefined, { br: 1, zstd: 1, gzip: 1, deflate: 1, lzma: 1, identity: 1 }],
  ['', { br: 0, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 1 }],
  ['gzip', { br: 0, zstd: 0, gzip: 1, deflate: 0, lzma: 0, identity: 1 }],
  ['gzip;q=0.5', { br: 0, zstd: 0, gzip: 0.5, deflate: 0, lzma: 0, identity: 0.5 }],
  // q=0 counts as 1 in identity's minimum.
  ['gzip;q=0.5, br;q=0', { br: 0, zstd: 0, gzip: 0.5, deflate: 0, lzma: 0, identity: 0.5 }],
  ['br;q=0', { br: 0, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 1 }],
  ['*', { br: 1, zstd: 1, gzip: 1, deflate: 1, lzma: 1, identity: 1 }],
  ['*;q=0', { br: 0, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 0 }],
  ['*;q=0, identity', { br: 0, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 1 }],
  ['br;q=0.2, *;q=0.4', { br: 0.2, zstd: 0.4, gzip: 0.4, deflate: 0.4, lzma: 0.4, identity: 0.4 }],
  // A named coding beats `*` whatever their q.
  ['*;q=0.9, gzip;q=0.1', { br: 0.9, zstd: 0.9, gzip: 0.1, deflate: 0.9, lzma: 0.9, identity: 0.9 }],
  ['BR, Zstd;Q=0.9', { br: 1, zstd: 0.9, gzip: 0, deflate: 0, lzma: 0, identity: 0.9 }],
  ['br;q=0, br', { br: 1, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 1 }],
  ['br, br;q=0.3', { br: 1, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 0.3 }],
  ['gzip ; q=0.7 ;level=9', { br: 0, zstd: 0, gzip: 0.7, deflate: 0, lzma: 0, identity: 0.7 }],
  ['gzip;x="a,b;c", br;q=0.1', { br: 0.1, zstd: 0, gzip: 1, deflate: 0, lzma: 0, identity: 0.1 }],
  ['compress;q=0.3, x-gzip', { br: 0, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 0.3 }],
  // Malformed q: negotiator reads it with parseFloat.
  ['gzip;q=2, br', { br: 1, zstd: 0, gzip: 2, deflate: 0, lzma: 0, identity: 1 }],
  ['gzip;q=-1, br', { br: 1, zstd: 0, gzip: -1, deflate: 0, lzma: 0, identity: -1 }],
  ['gzip;q=0.5x, br', { br: 1, zstd: 0, gzip: 0.5, deflate: 0, lzma: 0, identity: 0.5 }],
  ['gzip;q="0.5", br', { br: 1, zstd: 0, gzip: 0.5, deflate: 0, lzma: 0, identity: 0.5 }],
  ['gzip;q=0.1234', { br: 0, zstd: 0, gzip: 0.1234, deflate: 0, lzma: 0, identity: 0.1234 }],
  ['gzip;q=abc', { br: 0, zstd: 0, gzip: NaN, deflate: 0, lzma: 0, identity: 1 }],
  ['gzip;q=1e999', { br: 0, zstd: 0, gzip: Infinity, deflate: 0, lzma: 0, identity: 1 }],
  ['identity;q=', { br: 0, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 1 }],
  ['gzip;q, br;q=0.5', { br: 0.5, zstd: 0, gzip: 1, deflate: 0, lzma: 0, identity: 0.5 }],
  ['gzip;q=0.1;q=0.9', { br: 0, zstd: 0, gzip: 0.1, deflate: 0, lzma: 0, identity: 0.1 }],
  // `*` below 0 never replaces the 0 a coding starts from.
  ['*;q=-1, br;q=-2', { br: -2, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 0 }],
  // Equal specificity and a NaN comparison: the later entry wins.
  ['gzip;q=abc, gzip;q=0.5', { br: 0, zstd: 0, gzip: 0.5, deflate: 0, lzma: 0, identity: 0.5 }],
  ['gzip;q=0.5, gzip;q=abc', { br: 0, zstd: 0, gzip: NaN, deflate: 0, lzma: 0, identity: 0.5 }],
  // A name is whatever stands before `;` or `,`; empty members are skipped.
  ['g zip, br;q=0.5', { br: 0.5, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 0.5 }],
  [',, ,', { br: 0, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 1 }],
  ['gzip/x, ;q=0.1', { br: 0, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 1 }],
  ['\tGZIP\t;\tQ\t=\t0.3\t', { br: 0, zstd: 0, gzip: 0.3, deflate: 0, lzma: 0, identity: 0.3 }],
];

test('qualityOf: the weight that governs each coding', () => {
  for (const [header, expected] of WEIGHTS) {
    const parsed = parseAcceptEncoding(header);
    const got = Object.fromEntries(ALL.map((c) => [c, qualityOf(parsed, c)]));
    assert.deepEqual(got, expected, String(header));
  }
});

// [header, offered (server preference order, identity last), chosen or null (406)]
const DECISIONS = [
  [undefined, ALL, 'identity'],
  [undefined, ['br', 'gzip'], 'br'],
  ['', ALL, 'identity'],
  ['', ['gzip'], null],
  ['gzip, br', ALL, 'br'],
  ['gzip, br', ['gzip', 'br', 'identity'], 'gzip'],
  ['br;q=0.5, gzip', ALL, 'gzip'],
  ['*', ALL, 'br'],
  ['*;q=0', ALL, null],
  ['br;q=0, *', ALL, 'zstd'],
  ['identity;q=0, *;q=0.1, gzip;q=0.1', ALL, 'br'],
  ['gzip;q=0.5', ['br', 'identity'], 'identity'],
  ['gzip;q=0.5', ['gzip', 'identity'], 'gzip'],
  ['gzip;q=1.0, br;q=0.999', ALL, 'gzip'],
  ['unknown, identity;q=0', ALL, null],
  // Malformed q as negotiator reads it: 2 outweighs 1, -1 excludes (identity too, being the
  // lowest), NaN excludes.
  ['gzip;q=2, br', ALL, 'gzip'],
  ['gzip;q=-1', ALL, null],
  ['gzip;q=abc', ALL, 'identity'],
  ['br;q=0.5x, gzip;q=0.4', ALL, 'br'],
];

test('negotiate: highest q, ties to the server preference', () => {
  for (const [header, offered, chosen] of DECISIONS) {
    assert.equal(negotiate(header, offered, offered.join()), chosen, `${header} over ${offered}`);
    for (const coding of offered) {
      assert.equal(isAcceptable(header, coding), qualityOf(parseAcceptEncoding(header), coding) > 0, `${header}: ${coding}`);
    }
  }
});


// Headers inside the RFC 9110 grammar, with the variations real clients and proxies produce:
// case, OWS, empty members, duplicates, `*`, every spelling of a qvalue, unknown codings and
// other parameters.
const WELL_FORMED = {
  names: ['br', 'BR', 'Br', 'zstd', 'ZSTD', 'gzip', 'GZip', 'deflate', 'lzma', 'identity', 'Identity', '*', 'compress', 'x-gzip', 'unknown'],
  params: [';q=', ';Q=', '; q=', ' ;q=', ' ; q=', '\t;\tq=', ';level=9;q='].flatMap((form) =>
    ['1', '1.', '1.0', '1.00', '1.000', '0', '0.', '0.0', '0.000', '0.001', '0.1', '0.25', '0.250', '0.5', '0.50', '0.9', '0.999'].map((q) => form + q)),
  separators: [',', ', ', ' ,', ' , ', ',,', ', ,', ',\t'],
};

// And what the grammar forbids but arrives anyway: q out of range, signed, with trailing junk,
// empty, quoted (also unterminated), repeated, as exponent or hex or a word; names with inner
// space, slash, quote, non-ASCII; parameters without a value; quoted commas and semicolons;
// stray OWS, commas and semicolons.
const MALFORMED = {
  names: [...WELL_FORMED.names, '', ' ', 'g zip', 'gzip/x', '"gzip"', 'gzip"', 'İdentity', 'GZİP', 'ıdentity', 'identity ', ' \t*'],
  params: [
    ...WELL_FORMED.params.filter((_, i) => i % 7 === 0),
    ';q=2', ';q=-1', ';q=-0', ';q=0.5x', ';q=', ';q= ', ';Q =\t0.3', ';q="0.5"', ';q="0.5', ';q="1,0"', ';q=""',
    ';q=abc', ';q=NaN', ';q=1e-3', ';q=1e999', ';q=-1e999', ';q=.5', ';q=+0.2', ';q=0x1', ';q=0.1;q=0.9', ';q',
    ';', ';;q=0.4', ';x="a,b;q=0"', ';x="\\"";q=0.7', '; level = 9 ', ';q=0.3 ,',
  ],
  separators: [...WELL_FORMED.separators, ',,,', ' ', '\t,\t', ';,', ', ;,'],
};

const OFFERS = [ALL, ['br', 'gzip', 'identity'], ['gzip', 'br', 'identity'], ['zstd', 'deflate', 'identity'], ['identity'], ['gzip', 'lzma']];

function generateHeader(random, { names, params, separators }) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  let header = random() < 0.1 ? pick([' ', '\t', ',']) : '';
  const count = Math.floor(random() * 6);
  for (let i = 0; i < count; i++) {
    if (i > 0) header += pick(separators);
    header += pick(names);
    if (random() < 0.7) header += pick(params);
    if (random() < 0.15) header += pick(params);
  }
  if (random() < 0.1) header += pick(separators);
  return header;
}

// The report's q ranks as negotiator ranks: acceptable exactly when q > 0, and the acceptable
// codings of every offer set in negotiator's order when sorted by q, ties to the preference.
function assertSameAsNegotiator(header) {
  const theirs = new Negotiator({ headers: { 'accept-encoding': header } });
  const parsed = parseAcceptEncoding(header);
  const where = JSON.stringify(header);
  for (const coding of ALL) {
    const acceptable = theirs.encodings([coding]).length > 0;
    assert.equal(qualityOf(parsed, coding) > 0, acceptable, `${where}: ${coding} acceptable`);
    assert.equal(isAcceptable(header, coding), acceptable, `${where}: ${coding} isAcceptable`);
  }
  for (const offered of OFFERS) {
    const expected = theirs.encodings(offered, { preferred: offered });
    const ours = offered
      .map((coding, rank) => ({ coding, rank, q: qualityOf(parsed, coding) }))
      .filter((c) => c.q > 0)
      .sort((a, b) => b.q - a.q || a.rank - b.rank)
      .map((c) => c.coding);
    assert.deepEqual(ours, expected, `${where} over ${offered}: ranking`);
    assert.equal(negotiate(header, offered, offered.join()), expected[0] ?? null, `${where} over ${offered}: decision`);
  }
}

for (const [kind, grammar, seed] of [['well-formed', WELL_FORMED, 0x5eed], ['malformed', MALFORMED, 0xbad]]) {
  test(`20000 generated ${kind} headers: the reported q ranks and excludes as negotiator`, () => {
    const random = createRandom(seed).next;
    for (let i = 0; i < 20000; i++) assertSameAsNegotiator(generateHeader(random, grammar));
  });
}

test('the weight and decision tables agree with negotiator too', () => {
  for (const [header] of [...WEIGHTS, ...DECISIONS]) if (header !== undefined) assertSameAsNegotiator(header);
});
