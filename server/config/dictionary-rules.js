'use strict';
// The site configuration's `dictionaries` rules (RFC 9842 Compression Dictionary Transport):
//   [{ "match": "/assets/app.*.js", "matchDest": ["script"], "id": "app-bundle" }]
// A file whose path a rule's `match` matches is served with
//   Use-As-Dictionary: match="/assets/app.*.js", match-dest=("script"), id="app-bundle"
// so a browser keeps it as a dictionary for later requests that match, and a request for such
// a path may be answered as a delta (dcb, dcz) against a dictionary of the same rule.
//
// `match` is a URLPattern pathname (RFC 9842 2.1.1), of which this server implements the
// subset of literal characters and `*` (any run of characters, "/" included, as URLPattern's
// full wildcard). The server must decide exactly what the browser decides, and Node 20 has no
// URLPattern: rather than approximate the rest of the syntax (named groups, regular
// expressions, modifiers, escapes), a pattern that uses it is refused at start-up. Literal
// characters are limited to those URLPattern and the URL parser leave as they are in a
// pathname, so the same string matches on both sides; "." and ".." segments, which the URL
// parser would remove, are refused too.
//
// A rule may also name a standalone dictionary file (RFC 9842 3.2): with
//   "link": "/dict/app.dict", "linkFrom": "/*.html"
// the responses of the pages `linkFrom` matches carry
//   Link: </dict/app.dict>; rel="compression-dictionary"
// so the browser fetches that file when idle, and the file is served with the rule's
// Use-As-Dictionary and becomes a dictionary of the rule, as the files `match` matches are.

const { serializeDictionary } = require('structured-headers');

// Fetch's request destinations (https://fetch.spec.whatwg.org/#concept-request-destination),
// the values match-dest may name; "" (no destination, fetch()) is matched by an empty list.
const DESTINATIONS = new Set([
  'audio', 'audioworklet', 'document', 'embed', 'font', 'frame', 'iframe', 'image', 'json',
  'manifest', 'object', 'paintworklet', 'report', 'script', 'serviceworker', 'sharedworker',
  'style', 'track', 'video', 'webidentity', 'worker', 'xslt',
]);
// Unreserved characters and the sub-delimiters URLPattern gives no meaning, plus "/", "*",
// "@", "=", ",", ";", "!", "~", "'" and "$"; not ":", "(", ")", "{", "}", "?", "+", "\\" (the
// pattern syntax), "%" (escapes would be compared decoded here and encoded by the browser),
// "&" and "#" (URL syntax).
const PATTERN = /^\/[A-Za-z0-9\-._~!$',;=@/*]*$/;
const DOT_SEGMENT = /(^|\/)\.{1,2}(\/|$)/;
// RFC 9842 2.1.3: the id is a string of up to 1024 characters.
const MAX_ID = 1024;
const KEYS = ['match', 'matchDest', 'id', 'link', 'linkFrom'];

// Returns the rules compiled ({ index, label, match, regex, header }) or throws an Error
// naming the rule.
function compileDictionaryRules(rules) {
  if (!Array.isArray(rules)) throw new Error('dictionaries: expected an array of { "match": PATTERN, "matchDest": [DEST], "id": STRING }');
  return rules.map((rule, index) => {
    const label = `dictionaries[${index}]`;
    if (rule === null || typeof rule !== 'object' || Array.isArray(rule)) throw new Error(`${label}: expected { "match": PATTERN, "matchDest": [DEST], "id": STRING }`);
    for (const key of Object.keys(rule)) {
      if (!KEYS.includes(key)) throw new Error(`${label}: unknown key "${key}" (expected ${KEYS.join(', ')})`);
    }
    const { match, matchDest = [], id, link, linkFrom } = rule;
    checkPattern(`${label}.match`, match);
    if (!Array.isArray(matchDest) || matchDest.some((d) => !DESTINATIONS.has(d)) || new Set(matchDest).size !== matchDest.length) {
      throw new Error(`${label}.matchDest: expected an array of distinct request destinations (${[...DESTINATIONS].join(', ')}), got ${JSON.stringify(matchDest)}`);
    }
    if (id !== undefined && (typeof id !== 'string' || id === '' || id.length > MAX_ID || !/^[\x20-\x7e]*$/.test(id))) {
      throw new Error(`${label}.id: expected a string of 1 to ${MAX_ID} printable ASCII characters, got ${JSON.stringify(id)}`);
    }
    if ((link === undefined) !== (linkFrom === undefined)) throw new Error(`${label}: "link" and "linkFrom" go together`);
    if (link !== undefined) {
      checkPattern(`${label}.link`, link);
      if (link.includes('*')) throw new Error(`${label}.link: expected the path of one file, without "*", got ${JSON.stringify(link)}`);
      checkPattern(`${label}.linkFrom`, linkFrom);
    }
    const fields = new Map([['match', match]]);
    if (matchDest.length > 0) fields.set('match-dest', [matchDest, new Map()]);
    if (id !== undefined) fields.set('id', id);
    return {
      index, label, match, regex: patternRegex(match), header: serializeDictionary(fields),
      link: link ?? null,
      linkFrom: link === undefined ? null : patternRegex(linkFrom),
      // RFC 8288's link-value; the path has no character that needs escaping in a URI-Reference.
      linkHeader: link === undefined ? null : `<${link}>; rel="compression-dictionary"`,
    };
  });
}

function checkPattern(label, value) {
  if (typeof value !== 'string' || !PATTERN.test(value) || DOT_SEGMENT.test(value)) {
    throw new Error(`${label}: expected a path starting with "/" made of letters, digits, "-._~!$',;=@/" and "*" wildcards, without "." or ".." segments (named groups, regular expressions and escapes are not supported), got ${JSON.stringify(value)}`);
  }
}

// `*` is URLPattern's full wildcard: any characters, "/" included. A match is anchored at both
// ends, like URLPattern's.
function patternRegex(match) {
  const source = match.split('*').map((part) => part.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')).join('.*');
  return new RegExp(`^${source}$`, 's');
}

// The first rule whose pattern matches the path `rel` ("/assets/app.v2.js"), or that links to
// it as its standalone dictionary, or null. Called when a file's metadata is built
// (file-store.js), never per request.
function ruleFor(compiled, rel) {
  for (const rule of compiled) if (rule.regex.test(rel) || rule.link === rel) return rule;
  return null;
}

// The Link field value announcing the standalone dictionaries of the rules whose `linkFrom`
// matches `rel`, or null.
function linksFor(compiled, rel) {
  const links = compiled.filter((rule) => rule.linkFrom !== null && rule.linkFrom.test(rel)).map((rule) => rule.linkHeader);
  return links.length === 0 ? null : links.join(', ');
}

module.exports = { compileDictionaryRules, ruleFor, linksFor };
