'use strict';
// The characters of a request target, one rule for every engine: the HTTP/1.1 request-target
// (RFC 9112 3.2) and the HTTP/2 :path (RFC 9113 8.3.1) are URI references (RFC 3986), which are
// visible ASCII only (VCHAR, 0x21-0x7E). So no control byte (0x00-0x1F), no space, no DEL, and no
// byte from 0x80 up: a URI carries any other character percent-encoded (RFC 3986 2.1; browsers
// send them so). llhttp refuses exactly these bytes, --insecure-http-parser or not; nghttp2
// refuses all but those from 0x80 up. Which VCHAR may stand where is the decision's business
// (server/decision parses the path); this rule keeps raw control bytes out of everything after
// the engine, the access log among them.

// The index of the first character at or after `start` that a request target may not hold, or
// text.length.
function requestTargetEnd(text, start) {
  let i = start;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f) break;
  }
  return i;
}

// Whether `text` is a non-empty string of the characters a request target may hold.
function isRequestTarget(text) {
  return text.length > 0 && requestTargetEnd(text, 0) === text.length;
}

module.exports = { requestTargetEnd, isRequestTarget };
