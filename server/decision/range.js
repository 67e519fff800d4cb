'use strict';
// Single byte-range parsing (RFC 9110 section 14). Anything this server does not serve as a
// partial response (other units, several ranges, syntax errors) yields null: the whole
// representation is sent with 200, which the RFC allows.

const UNSATISFIABLE = Symbol('unsatisfiable');

function parseRange(header, size) {
  // Range units are case-insensitive (14.1).
  if (header.slice(0, 6).toLowerCase() !== 'bytes=') return null;
  const spec = header.slice(6).trim();
  if (spec.includes(',')) return null;
  const dash = spec.indexOf('-');
  if (dash === -1) return null;
  const first = spec.slice(0, dash).trim();
  const last = spec.slice(dash + 1).trim();
  if (!isDigits(first) && !(first === '' && isDigits(last))) return null;
  if (last !== '' && !isDigits(last)) return null;

  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return UNSATISFIABLE;
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size) return UNSATISFIABLE;
  return { start, end };
}

function isDigits(s) {
  return s.length > 0 && s.length <= 15 && /^\d+$/.test(s);
}

module.exports = { parseRange, UNSATISFIABLE };
