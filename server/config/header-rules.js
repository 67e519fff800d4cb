'use strict';
// The site configuration's `headers` rules: [{ match: GLOB, headers: { name: value } }], applied
// in order to each file's path relative to the root, a later rule winning per header name. The
// headers of a file are computed once, when its metadata is built (file-store.js), and go out
// on its 200, 206, 304 and HEAD responses.

const { compileGlob } = require('./glob');
const { isLowercaseToken, hasValueControl } = require('../http/grammar');

// Headers the server computes per representation or per connection: a rule setting one would
// contradict the body sent (content-length, content-encoding, content-range), break
// revalidation (etag) or negotiation (vary), or is connection-specific and forbidden in HTTP/2
// (RFC 9113 8.2.2).
const OWNED = new Set([
  'content-length', 'content-encoding', 'content-range', 'etag', 'vary', 'transfer-encoding',
  'connection', 'keep-alive', 'proxy-connection', 'upgrade', 'te', 'trailer', 'date',
]);
// Beyond RFC 9110 5.5's control bytes (http/grammar.js): a value is sent one octet a
// character, and whitespace at either end would not survive a recipient's trimming.
const NOT_AN_OCTET_OR_SURROUNDING_SPACE = /[^\x00-\xff]|^[ \t]|[ \t]$/;

// Returns the rules compiled ({ regex, headers }), or throws an Error naming the rule.
function compileHeaderRules(rules) {
  if (!Array.isArray(rules)) throw new Error('headers: expected an array of { "match": GLOB, "headers": { NAME: VALUE } }');
  return rules.map((rule, i) => {
    const label = `headers[${i}]`;
    if (rule === null || typeof rule !== 'object' || Array.isArray(rule)) throw new Error(`${label}: expected { "match": GLOB, "headers": { NAME: VALUE } }`);
    for (const key of Object.keys(rule)) {
      if (key !== 'match' && key !== 'headers') throw new Error(`${label}: unknown key "${key}" (expected match and headers)`);
    }
    let regex;
    try {
      regex = compileGlob(rule.match);
    } catch (err) {
      throw new Error(`${label}.match: ${err.message}`);
    }
    const h = rule.headers;
    if (h === null || typeof h !== 'object' || Array.isArray(h)) throw new Error(`${label}.headers: expected an object of header names and string values`);
    const headers = {};
    for (const [name, value] of Object.entries(h)) {
      if (name !== name.toLowerCase()) throw new Error(`${label}: header name "${name}" must be lowercase`);
      if (!isLowercaseToken(name)) throw new Error(`${label}: "${name}" is not a valid header name`);
      if (OWNED.has(name)) throw new Error(`${label}: "${name}" is set by the server and cannot be configured`);
      if (typeof value !== 'string' || value === '' || hasValueControl(value) || NOT_AN_OCTET_OR_SURROUNDING_SPACE.test(value)) {
        throw new Error(`${label}: the value of "${name}" must be a non-empty string of visible characters, spaces and tabs (no CR, LF, NUL, no other control characters, nothing beyond U+00FF) without surrounding spaces`);
      }
      headers[name] = value;
    }
    return { regex, headers };
  });
}

// The headers the rules give the file at rel ("/assets/app.js"), or null when none match.
function headersFor(compiled, rel) {
  let out = null;
  const subject = rel.slice(1);
  for (const rule of compiled) {
    if (rule.regex.test(subject)) out = { ...out, ...rule.headers };
  }
  return out;
}

module.exports = { compileHeaderRules, headersFor };
