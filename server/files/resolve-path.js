'use strict';
// Maps a request target to a file under the root, refusing anything that could escape it.
// Two steps: a pure, cacheable parse of the URL path, and a filesystem step that follows
// symlinks (realpath) and insists the real target is still inside the real root.

const fs = require('node:fs');
const path = require('node:path');
const { RequestError } = require('../errors');

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
  if (target.length > MAX_PATH_LENGTH) throw new RequestError(414, 'ERR_PATH_TOO_LONG', 'request target too long');
  const q = target.indexOf('?');
  const pathname = q === -1 ? target : target.slice(0, q);
  const query = q === -1 ? '' : target.slice(q);
  if (pathname.charCodeAt(0) !== 47 /* / */) throw new RequestError(400, 'ERR_BAD_PATH', 'path must start with /');
  if (pathname.includes('\\')) throw new RequestError(400, 'ERR_BACKSLASH', 'backslash in path');

  let decoded = pathname;
  if (pathname.includes('%')) {
    // An encoded separator would let one path segment name two, so refuse it before decoding.
    if (/%(2f|5c)/i.test(pathname)) throw new RequestError(400, 'ERR_ENCODED_SEPARATOR', 'encoded / or \\ in path');
    try {
      // decodeURIComponent rejects malformed escapes and invalid or overlong UTF-8 (%c0%ae).
      decoded = decodeURIComponent(pathname);
    } catch {
      throw new RequestError(400, 'ERR_BAD_ENCODING', 'malformed percent-encoding');
    }
    if (decoded.includes('\\')) throw new RequestError(400, 'ERR_BACKSLASH', 'backslash in path');
  }
  if (decoded.includes('\0')) throw new RequestError(400, 'ERR_NUL', 'NUL in path');

  const out = [];
  const segments = decoded.split('/');
  for (let i = 1; i < segments.length; i++) {
    const seg = segments[i];
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length === 0) throw new RequestError(400, 'ERR_TRAVERSAL', 'path escapes the root');
      out.pop();
      continue;
    }
    if (isDotName(seg)) throw new RequestError(404, 'ERR_DOTFILE', 'dotfiles are not served');
    out.push(seg);
  }
  const trailingSlash = decoded.endsWith('/');
  return { rel: '/' + out.join('/'), pathname, query, trailingSlash };
}

function isInside(rootReal, real) {
  return real === rootReal || (real.startsWith(rootReal) && real.charCodeAt(rootReal.length) === 47);
}

// ENXIO and ENODEV: a socket or a device without a driver put where a file was expected.
const NOT_FOUND_CODES = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'EACCES', 'EPERM', 'ENXIO', 'ENODEV']);

// Resolves rel under rootReal through symlinks; calls back (err, real).
function realpathInRoot(rootReal, rel, callback) {
  fs.realpath.native(path.join(rootReal, rel), (err, real) => {
    if (err) callback(fsError(err));
    else if (!isInside(rootReal, real)) callback(new RequestError(404, 'ERR_OUTSIDE_ROOT', 'symlink target outside the root'));
    else callback(null, real);
  });
}

function fsError(err) {
  if (NOT_FOUND_CODES.has(err.code)) return new RequestError(404, 'ERR_NOT_FOUND', 'not found');
  if (err.code === 'ENAMETOOLONG') return new RequestError(414, 'ERR_PATH_TOO_LONG', 'path too long');
  return err;
}

/**
 * Whether a file or directory name is a dot name. Dotfiles (.git, .env, .htpasswd, and
 * .well-known too) are never served, listed, precompressed or watched.
 */
function isDotName(name) {
  return name.charCodeAt(0) === 46 /* . */;
}

/** Whether any segment of a relative path (platform separators) is a dot name. */
function hasDotSegment(rel) {
  return rel.split(path.sep).some(isDotName);
}

module.exports = { parseRequestPath, realpathInRoot, isInside, fsError, isDotName, hasDotSegment, MAX_PATH_LENGTH };
