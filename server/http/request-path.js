'use strict';
// A request target's path, parsed once and cached: what URL path a request names under the root,
// refusing anything that could escape it (dot segments above the root, encoded separators, NUL,
// malformed escapes) and every dot name. The filesystem step is files/resolve-path.js.

const { ERR_BACKSLASH, ERR_BAD_ENCODING, ERR_BAD_PATH, ERR_DOTFILE, ERR_ENCODED_SEPARATOR, ERR_NUL, ERR_PATH_TOO_LONG, ERR_TRAVERSAL } = require('../errors');

const MAX_PATH_LENGTH = 8192;
// Parses of recent targets (frozen, so callers share them): a site's requests name few
// targets. Long ones are not kept, so the memo stays small whatever clients send.
const PARSED_LIMIT = 1024;
const PARSED_MAX_TARGET = 256;
const parsedMemo = new Map();

// Returns { rel, pathname, query, trailingSlash } where rel is a normalised '/a/b' path
// without dot segments, or throws RequestError (400/404/414).
function parseRequestPath(target) {
  let parsed = parsedMemo.get(target);
  if (parsed !== undefined) return parsed;
  parsed = Object.freeze(parse(target));
  if (target.length <= PARSED_MAX_TARGET) {
    if (parsedMemo.size >= PARSED_LIMIT) parsedMemo.clear();
    parsedMemo.set(target, parsed);
  }
  return parsed;
}

function parse(target) {
  if (target.length > MAX_PATH_LENGTH) throw ERR_PATH_TOO_LONG();
  const q = target.indexOf('?');
  const pathname = q === -1 ? target : target.slice(0, q);
  const query = q === -1 ? '' : target.slice(q);
  if (pathname.charCodeAt(0) !== 47 /* / */) throw ERR_BAD_PATH();
  if (pathname.includes('\\')) throw ERR_BACKSLASH();

  let decoded = pathname;
  if (pathname.includes('%')) {
    // An encoded separator would let one path segment name two, so refuse it before decoding.
    if (/%(2f|5c)/i.test(pathname)) throw ERR_ENCODED_SEPARATOR();
    try {
      // decodeURIComponent rejects malformed escapes and invalid or overlong UTF-8 (%c0%ae).
      decoded = decodeURIComponent(pathname);
    } catch {
      throw ERR_BAD_ENCODING();
    }
    if (decoded.includes('\\')) throw ERR_BACKSLASH();
  }
  if (decoded.includes('\0')) throw ERR_NUL();

  const out = [];
  const segments = decoded.split('/');
  for (let i = 1; i < segments.length; i++) {
    const seg = segments[i];
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length === 0) throw ERR_TRAVERSAL();
      out.pop();
      continue;
    }
    if (isDotName(seg)) throw ERR_DOTFILE();
    out.push(seg);
  }
  const trailingSlash = decoded.endsWith('/');
  return { rel: '/' + out.join('/'), pathname, query, trailingSlash };
}

/**
 * Whether a file or directory name is a dot name. Dotfiles (.git, .env, .htpasswd, and
 * .well-known too) are never served, listed, precompressed or watched.
 */
function isDotName(name) {
  return name.charCodeAt(0) === 46 /* . */;
}

module.exports = { parseRequestPath, isDotName, MAX_PATH_LENGTH };
