'use strict';
// explanation(): the /_negotiate report from a Selection the core made. Table-driven over a
// file with a precompressed br variant and on-the-fly gzip and zstd (zstd withdrawn in one row).

const test = require('node:test');
const assert = require('node:assert/strict');
const { explanation } = require('../../server/decision/explain');

const PREFERENCE = ['br', 'zstd', 'gzip'];
const INFO = { variants: { br: { size: 300 } } };
const OFFER = { offered: ['br', 'zstd', 'gzip', 'identity'], offeredKey: 'br,zstd,gzip,identity', unavailable: {} };
const WITHDRAWN = {
  offered: ['br', 'gzip', 'identity'], offeredKey: 'br,gzip,identity',
  unavailable: { zstd: 'on-the-fly output (1001 bytes) not smaller than the file (1000 bytes)' },
};
const SIZES = { br: 300, zstd: 280, gzip: 350, identity: 1000 };
const rep = (coding, source) => ({ kind: 'rep', rep: { coding, source } });

const rows = [
  {
    name: 'the client q-values decide',
    ae: 'gzip;q=0.5, br;q=0.8, zstd', offer: OFFER, selection: rep('zstd', 'dynamic'),
    status: 200, chosen: 'zstd', source: 'dynamic',
    q: { br: 0.8, zstd: 1, gzip: 0.5, identity: 0.5 },
    reason: 'zstd (dynamic) has the highest client q-value among the codings available for this file; equal q-values go to the server preference br > zstd > gzip > identity (also acceptable: br, gzip, identity)',
  },
  {
    name: 'no header: identity, and why',
    ae: undefined, offer: OFFER, selection: rep('identity', 'identity'),
    status: 200, chosen: 'identity', source: 'identity',
    q: { br: 1, zstd: 1, gzip: 1, identity: 1 },
    reason: 'no Accept-Encoding header: any coding is acceptable (RFC 9110 12.5.3), but identity is sent because a client that announces no decoder may have none',
  },
  {
    name: 'the first choice needed a compression slot',
    ae: 'gzip', offer: OFFER, selection: rep('identity', 'identity'),
    status: 200, chosen: 'identity', source: 'identity',
    q: { br: 0, zstd: 0, gzip: 1, identity: 1 },
    reason: 'gzip needs on-the-fly compression but all compression slots are busy, so the next best was taken; identity (identity) has the highest client q-value among the codings available for this file; equal q-values go to the server preference br > zstd > gzip > identity (also acceptable: gzip)',
  },
  {
    name: 'a withdrawn coding: unavailable, with its reason, and a 406',
    ae: 'zstd, identity;q=0', offer: WITHDRAWN, selection: { kind: 'none', rep: null },
    status: 406, chosen: null, source: null,
    q: { br: 0, zstd: 1, gzip: 0, identity: 0 },
    reason: 'no acceptable coding is available; this file can be sent as br, gzip, identity; zstd unavailable: on-the-fly output (1001 bytes) not smaller than the file (1000 bytes)',
  },
  {
    name: 'busy: a 503',
    ae: 'gzip;q=abc, zstd, identity;q=0', offer: OFFER, selection: { kind: 'busy', rep: null },
    status: 503, chosen: null, source: null,
    q: { br: 0, zstd: 1, gzip: 'NaN', identity: 0 },
    reason: 'every acceptable coding needs on-the-fly compression and all compression slots are busy',
  },
];

for (const row of rows) {
  test(`explanation: ${row.name}`, () => {
    const report = explanation({ info: INFO, offer: row.offer, preference: PREFERENCE, ae: row.ae, selection: row.selection, sizes: SIZES });
    assert.equal(report.status, row.status);
    assert.equal(report.chosen, row.chosen);
    assert.equal(report.source, row.source);
    assert.equal(report.reason, row.reason);
    assert.deepEqual(report.preference, PREFERENCE);
    assert.equal(report.acceptEncoding, row.ae ?? null);
    assert.deepEqual(Object.fromEntries(report.variants.map((v) => [v.coding, v.q])), row.q);
    for (const v of report.variants) {
      const available = row.offer.offered.includes(v.coding);
      assert.equal(v.available, available, v.coding);
      assert.equal(v.bytes, available ? SIZES[v.coding] : null, v.coding);
      assert.equal(v.source, v.coding === 'identity' ? 'identity' : v.coding === 'br' ? 'precompressed' : 'dynamic');
    }
  });
}
