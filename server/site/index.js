'use strict';
// The site-level settings the core and the file store use, from the normalised options:
// { spa, listing, rootWithoutIndex (the 404 text of / without index.html), cors, headerRules and
// dictionaryRules (compiled), hidden(real) }, and the decision's hooks for what a site answers
// where it has no file: notFound (the 404 page, --spa) and listDirectory (--listing). The
// configuration file is hidden wherever it sits in the root: it may hold what the site's owner
// does not publish.

const fs = require('node:fs');
const { variantOf } = require('../compression/compressibility');
const { compileHeaderRules } = require('../config/header-rules');
const { compileDictionaryRules } = require('../config/dictionary-rules');
const { notFound, rootWithoutIndex } = require('./not-found');
const { listDirectory } = require('./listing');
const { switchName } = require('../config/options');

// Synchronous: it belongs with the rest of building the core.
function createSite(options) {
  let configReal = null;
  try {
    if (options.config !== undefined) configReal = fs.realpathSync(options.config);
  } catch {
    // Read a moment ago by normalizeOptions; gone since, there is nothing to hide.
  }
  const hidden = (real) => configReal !== null && (real === configReal || variantOf(real) === configReal);
  return {
    spa: options.spa,
    listing: options.listing,
    rootWithoutIndex: rootWithoutIndex(switchName(options, 'listing', true)),
    cors: options.cors,
    headerRules: compileHeaderRules(options.headers),
    dictionaryRules: compileDictionaryRules(options.dictionaries),
    // Its precompressed variants too, should a tool have written any.
    hidden,
    notFound: (core, err, isHead, headers) => notFound(core, err, isHead, headers, options.spa),
    listDirectory: (rootReal, dir, rel, isHead) => listDirectory(rootReal, dir, rel, isHead, hidden),
  };
}

module.exports = { createSite };
