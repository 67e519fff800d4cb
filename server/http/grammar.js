'use strict';
// The field grammar of RFC 9110, written once for every layer: tokens (methods, field names)
// and what a field value may hold. HTTP/1.1 and HTTP/2 differ only where their RFCs do:
// - names: a token in both; HTTP/2 also refuses uppercase (RFC 9113 8.2.1).
// - values: RFC 9110 5.5 allows VCHAR, obs-text, SP and HTAB. The HTTP/1.1 parser, the
//   response writers and the configuration's header rules refuse every other control byte and
//   DEL. RFC 9113 8.2.1 asks HTTP/2 to refuse only NUL, CR, LF and whitespace at either end, and
//   that is what the native HTTP/2 engine refuses, as nghttp2 does for the node engine, so both
//   HTTP/2 engines accept the same requests (what the core is then given reaches the access log
//   only escaped).

// RFC 9110 5.6.2 tchar, by octet: 1 for a token character, 2 for an uppercase letter (a token
// character HTTP/2 field names may not hold).
const TCHAR = new Uint8Array(256);
for (const c of "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyz") TCHAR[c.charCodeAt(0)] = 1;
for (let c = 0x41; c <= 0x5a; c++) TCHAR[c] = 2;

/** Whether text is a token (RFC 9110 5.6.2): a method, or an HTTP/1.1 field name in any case. */
function isToken(text) {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0xff || TCHAR[c] === 0) return false;
  }
  return true;
}

/** Whether text is a token without uppercase: an HTTP/2 field name (RFC 9113 8.2.1). */
function isLowercaseToken(text) {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0xff || TCHAR[c] !== 1) return false;
  }
  return true;
}

// Control bytes a field value may not hold (RFC 9110 5.5): every CTL but HTAB, and DEL.
// eslint-disable-next-line no-control-regex
const VALUE_CONTROL = /[\0-\x08\x0a-\x1f\x7f]/;
// The same bytes in a whole HTTP/1.1 head, less CR and LF, which end its lines and are checked
// as such by the parser (global: the parser starts it after the request line).
// eslint-disable-next-line no-control-regex
const HEAD_VALUE_CONTROL = /[\0-\x08\x0b\x0c\x0e-\x1f\x7f]/g;
// What RFC 9113 8.2.1 makes a malformed HTTP/2 field value.
const H2_BAD_VALUE = /[\0\r\n]|^[ \t]|[ \t]$/;

/** Whether value holds a control byte RFC 9110 5.5 does not allow (any CTL but HTAB, or DEL). */
function hasValueControl(value) {
  return VALUE_CONTROL.test(value);
}

/** Whether an HTTP/2 field value is one RFC 9113 8.2.1 makes malformed. */
function isMalformedH2Value(value) {
  return H2_BAD_VALUE.test(value);
}

module.exports = { TCHAR, HEAD_VALUE_CONTROL, isToken, isLowercaseToken, hasValueControl, isMalformedH2Value };
