'use strict';
// Maps a request's path (parsed by http/request-path.js) to a file under the root, refusing
// anything that could escape it: the filesystem step follows symlinks (realpath) and insists the
// real target is still inside the real root.

const fs = require('node:fs');
const path = require('node:path');
const { ERR_NOT_FOUND, ERR_OUTSIDE_ROOT, ERR_PATH_TOO_LONG } = require('../errors');
const { isDotName } = require('../http/request-path');

function isInside(rootReal, real) {
  return real === rootReal || (real.startsWith(rootReal) && real.charCodeAt(rootReal.length) === 47);
}

// ENXIO and ENODEV: a socket or a device without a driver put where a file was expected.
const NOT_FOUND_CODES = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'EACCES', 'EPERM', 'ENXIO', 'ENODEV']);

// Resolves rel under rootReal through symlinks; calls back (err, real).
function realpathInRoot(rootReal, rel, callback) {
  fs.realpath.native(path.join(rootReal, rel), (err, real) => {
    if (err) callback(fsError(err));
    else if (!isInside(rootReal, real)) callback(ERR_OUTSIDE_ROOT('symlink target outside the root'));
    else callback(null, real);
  });
}

function fsError(err) {
  if (NOT_FOUND_CODES.has(err.code)) return ERR_NOT_FOUND();
  if (err.code === 'ENAMETOOLONG') return ERR_PATH_TOO_LONG('path too long');
  return err;
}

/** Whether any segment of a relative path (platform separators) is a dot name. */
function hasDotSegment(rel) {
  return rel.split(path.sep).some(isDotName);
}

module.exports = { realpathInRoot, isInside, fsError, hasDotSegment };
