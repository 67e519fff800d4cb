'use strict';
// The /_negotiate report (Core#explain): every coding the server knows, with the client's
// q-value for it, whether it is acceptable and available for this file and its size, then the
// choice and why, in words. Built from the Selection the core made, never a second decision.

const { negotiate, isAcceptable } = require('./negotiate');
const { parseAcceptEncoding, qualityOf } = require('../http/accept-encoding');

// info: the FileInfo; offer: the core's current offer for it ({ offered, offeredKey,
// unavailable }); preference: the server's codings in order; ae: the Accept-Encoding (undefined
// when absent); selection: settled; sizes: { coding: bytes | null } for each offered coding.
function explanation({ info, offer, preference, ae, selection, sizes }) {
  const chosen = selection.kind === 'rep' ? selection.rep : null;
  const parsed = parseAcceptEncoding(ae);
  const variants = [...preference, 'identity'].map((coding) => {
    const available = offer.offered.includes(coding);
    const q = qualityOf(parsed, coding);
    return {
      coding,
      // the client's weight for it; JSON has no NaN (q=abc) or Infinity (q=1e999): as strings.
      q: Number.isFinite(q) ? q : String(q),
      acceptable: isAcceptable(ae, coding),
      available,
      source: sourceOf(info, coding),
      bytes: available ? sizes[coding] ?? null : null,
    };
  });
  return {
    acceptEncoding: ae === undefined ? null : ae,
    status: chosen ? 200 : (selection.kind === 'none' ? 406 : 503),
    chosen: chosen ? chosen.coding : null,
    source: chosen ? chosen.source : null,
    reason: reasonFor(offer, ae, chosen, variants, preference),
    preference,
    variants,
  };
}

function sourceOf(info, coding) {
  if (coding === 'identity') return 'identity';
  return info.variants[coding] ? 'precompressed' : 'dynamic';
}

function reasonFor(offer, ae, chosen, variants, preference) {
  const parts = [];
  if (ae === undefined) {
    parts.push('no Accept-Encoding header: any coding is acceptable (RFC 9110 12.5.3), but identity is sent because a client that announces no decoder may have none');
  } else if (ae.trim() === '') {
    parts.push('empty Accept-Encoding: only identity is acceptable');
  }
  const usable = variants.filter((v) => v.acceptable && v.available).map((v) => v.coding);
  if (!chosen) {
    parts.push(usable.length === 0
      ? `no acceptable coding is available; this file can be sent as ${offer.offered.join(', ')}`
      : 'every acceptable coding needs on-the-fly compression and all compression slots are busy');
  } else if (chosen.source === 'dictionary') {
    parts.push(`${chosen.coding} is a delta against a dictionary the client holds (Available-Dictionary); at equal q-values the dictionary codings come before every other (RFC 9842)`);
  } else if (ae !== undefined) {
    const first = negotiate(ae, offer.offered, offer.offeredKey);
    if (first !== chosen.coding) {
      parts.push(`${first} needs on-the-fly compression but all compression slots are busy, so the next best was taken`);
    }
    const others = usable.filter((c) => c !== chosen.coding);
    parts.push(`${chosen.coding} (${chosen.source}) has the highest client q-value among the codings available for this file` +
      (others.length ? `; equal q-values go to the server preference ${preference.join(' > ')} > identity (also acceptable: ${others.join(', ')})` : ''));
  }
  for (const coding of preference) {
    if (offer.unavailable[coding]) parts.push(`${coding} unavailable: ${offer.unavailable[coding]}`);
  }
  return parts.join('; ');
}

module.exports = { explanation };
