'use strict';
// The Accept-Encoding parser and negotiation as pure functions: a table of weights, a table of
// decisions, and a generated corpus on which the decisions must equal negotiator 1.x's, the
// parser the server used before (and that `accepts`, hence Express, uses).

const test = require('node:test');
const assert = require('node:assert/strict');
const Negotiator = require('negotiator');
const { parseAcceptEncoding, qualityOf } = require('../server/accept-encoding');
const { negotiate } = require('../server/negotiate');

const ALL = ['br', 'zstd', 'gzip', 'deflate', 'lzma', 'identity'];

// [header (undefined = absent), { coding: q } for ALL]
const WEIGHTS = [
  [undefined, { br: 1, zstd: 1, gzip: 1, deflate: 1, lzma: 1, identity: 1 }],
  ['', { br: 0, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 1 }],
  ['gzip', { br: 0, zstd: 0, gzip: 1, deflate: 0, lzma: 0, identity: 1 }],
  ['gzip;q=0.5', { br: 0, zstd: 0, gzip: 0.5, deflate: 0, lzma: 0, identity: 0.5 }],
  ['gzip;q=0.5, br;q=0', { br: 0, zstd: 0, gzip: 0.5, deflate: 0, lzma: 0, identity: 0.5 }],
  ['*', { br: 1, zstd: 1, gzip: 1, deflate: 1, lzma: 1, identity: 1 }],
  ['*;q=0', { br: 0, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 0 }],
  ['*;q=0, identity', { br: 0, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 1 }],
  ['br;q=0.2, *;q=0.4', { br: 0.2, zstd: 0.4, gzip: 0.4, deflate: 0.4, lzma: 0.4, identity: 0.4 }],
  ['BR, Zstd;Q=0.9', { br: 1, zstd: 0.9, gzip: 0, deflate: 0, lzma: 0, identity: 0.9 }],
  ['br;q=0, br', { br: 1, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 1 }],
  ['gzip ; q=0.7 ;level=9', { br: 0, zstd: 0, gzip: 0.7, deflate: 0, lzma: 0, identity: 0.7 }],
  ['gzip;x="a,b;c", br;q=0.1', { br: 0.1, zstd: 0, gzip: 1, deflate: 0, lzma: 0, identity: 0.1 }],
  ['compress;q=0.3, x-gzip', { br: 0, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 0.3 }],
  // Not qvalues (RFC 9110 12.4.2): the coding becomes unacceptable. negotiator read the first
  // four as 2, -1, 0.5 and 0.5.
  ['gzip;q=2, br', { br: 1, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 1 }],
  ['gzip;q=-1, br', { br: 1, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 1 }],
  ['gzip;q=0.5x, br', { br: 1, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 1 }],
  ['gzip;q="0.5", br', { br: 1, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 1 }],
  ['gzip;q=0.1234', { br: 0, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 1 }],
  ['gzip;q=abc', { br: 0, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 1 }],
  ['identity;q=', { br: 0, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 0 }],
  // Members that are not a coding are ignored.
  ['g zip, br;q=0.5', { br: 0.5, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 0.5 }],
  [',, ,', { br: 0, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 1 }],
  ['gzip/x, ;q=0.1', { br: 0, zstd: 0, gzip: 0, deflate: 0, lzma: 0, identity: 1 }],
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
  ['gzip;q=2, br;q=0.5', ALL, 'br'],
];

test('negotiate: highest q, ties to the server preference', () => {
  for (const [header, offered, chosen] of DECISIONS) {
    assert.equal(negotiate(header, offered, offered.join()), chosen, `${header} over ${offered}`);
  }
});

// Deterministic generator (mulberry32) of headers inside the RFC 9110 grammar, with the
// variations real clients and proxies produce: case, OWS, empty members, duplicates, `*`,
// every spelling of a qvalue, unknown codings and other parameters.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = ['br', 'BR', 'Br', 'zstd', 'ZSTD', 'gzip', 'GZip', 'deflate', 'lzma', 'identity', 'Identity', '*', 'compress', 'x-gzip', 'unknown'];
const QVALUES = ['1', '1.', '1.0', '1.00', '1.000', '0', '0.', '0.0', '0.000', '0.001', '0.1', '0.25', '0.250', '0.5', '0.50', '0.9', '0.999'];
const WEIGHT_FORMS = [';q=', ';Q=', '; q=', ' ;q=', ' ; q=', '\t;\tq='];
const SEPARATORS = [',', ', ', ' ,', ' , ', ',,', ', ,', ',\t'];
const OFFERS = [ALL, ['br', 'gzip', 'identity'], ['gzip', 'br', 'identity'], ['zstd', 'deflate', 'identity'], ['identity'], ['gzip', 'lzma']];

function generateHeader(random) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const members = [];
  const count = Math.floor(random() * 6);
  for (let i = 0; i < count; i++) {
    let member = pick(NAMES);
    const r = random();
    if (r < 0.6) member += pick(WEIGHT_FORMS) + pick(QVALUES);
    else if (r < 0.7) member += ';level=9' + pick(WEIGHT_FORMS) + pick(QVALUES);
    members.push(member);
  }
  let header = '';
  for (const member of members) header += (header === '' ? (random() < 0.1 ? ' ' : '') : pick(SEPARATORS)) + member;
  if (random() < 0.1) header += pick(SEPARATORS);
  return header;
}

test('a generated corpus of 20000 headers: the same decisions as negotiator', () => {
  const random = rng(0x5eed);
  let compared = 0;
  for (let i = 0; i < 20000; i++) {
    const header = generateHeader(random);
    const theirs = new Negotiator({ headers: { 'accept-encoding': header } });
    const parsed = parseAcceptEncoding(header);
    for (const coding of ALL) {
      const acceptable = theirs.encodings([coding]).length > 0;
      assert.equal(qualityOf(parsed, coding) > 0, acceptable, `${JSON.stringify(header)}: ${coding} acceptable`);
    }
    for (const offered of OFFERS) {
      const expected = theirs.encodings(offered, { preferred: offered })[0] ?? null;
      assert.equal(negotiate(header, offered, offered.join()), expected, `${JSON.stringify(header)} over ${offered}`);
      compared++;
    }
  }
  assert.equal(compared, 20000 * OFFERS.length);
});
