'use strict';
// The request header object both native engines hand to the core, built as Node builds
// req.headers: lowercase names, a repeated field joined with ', ', cookie with '; ' (RFC 6265
// 5.4; RFC 9113 8.2.3 for split HTTP/2 cookies). It is a plain object, which the core reads
// faster than a null-prototype dictionary; the two lowercase names Object.prototype has become
// own properties without touching the prototype.

const COOKIE_SEPARATOR = '; ';
const LIST_SEPARATOR = ', ';

function addField(headers, name, value) {
  if (name === '__proto__' || name === 'constructor') {
    const previous = Object.hasOwn(headers, name) ? headers[name] : undefined;
    Object.defineProperty(headers, name, { value: previous === undefined ? value : previous + LIST_SEPARATOR + value, enumerable: true, writable: true, configurable: true });
    return;
  }
  const previous = headers[name];
  headers[name] = previous === undefined ? value : previous + (name === 'cookie' ? COOKIE_SEPARATOR : LIST_SEPARATOR) + value;
}

module.exports = { addField };
