'use strict';
// The site-level settings the core and the file store use, from the normalised options:
// { spa, listing, rootWithoutIndex (the 404 text of / without index.html), cors, headerRules and
// dictionaryRules (compiled), hidden(real) }. The configuration file is hidden wherever it sits
// in the root: it may hold what the site's owner does not publish.

const fs = require('node:fs');
const { variantOf } = require('../compression/compressibility');
const { compileHeaderRules } = require('./header-rules');
const { compileDictionaryRules } = require('./dictionary-rules');
const { rootWithoutIndex } = require('./not-found');
const { switchName } = require('../config/options');

// Synchronous: it belongs with the rest of building the core.
function createSite(options) {
  let configReal = null;
  try {
    if (options.config !== undefined) configReal = fs.realpathSync(options.config);
  } catch {
    // Read a moment ago by normalizeOptions; gone since, there is nothing to hide.
  }
  return {
    spa: options.spa,
    listing: options.listing,
    rootWithoutIndex: rootWithoutIndex(switchName(options, 'listing', true)),
    cors: options.cors,
    headerRules: compileHeaderRules(options.headers),
    dictionaryRules: compileDictionaryRules(options.dictionaries),
    // Its precompressed variants too, should a tool have written any.
    hidden: (real) => configReal !== null && (real === configReal || variantOf(real) === configReal),
  };
}

module.exports = { createSite };
