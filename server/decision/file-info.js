'use strict';
// A file's FileInfo: its representations (identity and each usable precompressed variant, with
// every header computed once: type, ETag per coding, Vary, Cache-Control, the site's header
// rules, Use-As-Dictionary) and the codings it can be offered in, from what the file store found
// on disk. The decision layer builds it; the store (files/file-store.js) calls the builder it is
// given, so files/ holds no HTTP header and no site rule.

const mime = require('mime-types');
const { createRepresentation, VARY, VARY_DICTIONARY } = require('./representation');
const { typeOfName, whyNotCompressible, savesBytes } = require('../compression/compressibility');
const { headersFor } = require('../config/header-rules');
const { ruleFor, linksFor } = require('../config/dictionary-rules');
const { statTag } = require('../files/read-file');

/**
 * buildFileInfo(rel, real, identity ({ stat, bytes }), found (coding -> variant read, with its
 * age, mismatch and, once checked by content, digest), cachedPaths) -> { info, stale:
 * [{ variant, reason }] }, for: encodings (the server's, in order), dynamicReasons ({ coding:
 * null when it can be compressed on the fly, else why not }), minCompressBytes, cacheControl,
 * headerRules and dictionaryRules (compiled: config/header-rules.js, config/dictionary-rules.js).
 */
// A page that announces standalone dictionaries (RFC 9842 3.2) adds them to the Link field a
// header rule may set.
function withLinks(headers, links) {
  if (links === null) return headers;
  return { ...headers, link: headers?.link ? `${headers.link}, ${links}` : links };
}

function createFileInfoBuilder({ encodings, dynamicReasons, minCompressBytes, cacheControl, headerRules = [], dictionaryRules = [] }) {
  return function buildFileInfo(rel, real, identity, found, cachedPaths) {
    const { stat, bytes } = identity;
    const type = typeOfName(real);
    const contentType = mime.contentType(type) || type;
    const notCompressible = whyNotCompressible(real, type);
    const lastModifiedMs = Math.floor(stat.mtimeMs / 1000) * 1000;
    // A file a dictionary rule covers is a dictionary for later requests (Use-As-Dictionary)
    // and may itself be answered as a delta, so caches must key it by Available-Dictionary.
    const dictionaryRule = ruleFor(dictionaryRules, rel);
    const extraHeaders = withLinks(headersFor(headerRules, rel), linksFor(dictionaryRules, rel));
    const base = {
      contentType,
      cacheControl,
      extraHeaders: dictionaryRule === null ? extraHeaders : { ...extraHeaders, 'use-as-dictionary': dictionaryRule.header },
      vary: dictionaryRule === null ? VARY : VARY_DICTIONARY,
      lastModified: new Date(lastModifiedMs).toUTCString(),
      lastModifiedMs,
      identitySize: stat.size,
    };
    const identityTag = statTag(stat);
    const info = {
      kind: 'file',
      rel,
      real,
      stat,
      bytes,
      found,
      cachedPaths,
      base,
      identityTag,
      compressible: notCompressible === null,
      dictionaryRule,
      cacheKeyPrefix: `${real}\0${stat.size}\0${stat.mtimeMs}\0${stat.ino}\0`,
      identity: createRepresentation({
        ...base, coding: 'identity', source: 'identity', size: stat.size, etag: `"${identityTag}"`,
        bytes, path: real, stat, rangeable: true,
      }),
      variants: {},
      unavailable: {},
      offered: [],
      offeredKey: '',
      staticOffered: [],
      staticOfferedKey: '',
    };

    const staleVariants = [];
    for (const coding of encodings) {
      const variant = found[coding];
      const stale = variant ? staleReason(variant, stat) : null;
      const usable = variant && stale === null && savesBytes(variant.stat.size, stat.size);
      if (usable) {
        info.variants[coding] = createRepresentation({
          ...base, coding, source: 'precompressed', size: variant.stat.size,
          etag: variantTag(variant, identityTag, coding), bytes: variant.bytes, path: variant.path,
          stat: variant.stat, rangeable: true,
        });
        info.offered.push(coding);
        info.staticOffered.push(coding);
        continue;
      }
      if (stale !== null) staleVariants.push({ variant, reason: stale });
      const why = dynamicReasons[coding] || notCompressible ||
        (stat.size < minCompressBytes ? `below ${minCompressBytes} bytes` : null);
      if (why === null) info.offered.push(coding);
      else if (!variant) info.unavailable[coding] = why;
      else info.unavailable[coding] = `${stale !== null ? `variant stale (${stale})` : 'variant not smaller than the file'}; ${why}`;
    }
    info.offered.push('identity');
    info.staticOffered.push('identity');
    info.offeredKey = info.offered.join(',');
    info.staticOfferedKey = info.staticOffered.join(',');
    return { info, stale: staleVariants };
  };
}

// A precompressed variant's strong ETag, which changes whenever its bytes may, and only then.
// A variant next to the file is the user's: its own identity (size, mtime, inode) names it. One
// in the variant cache is touched at every start and may be written again by another server:
// its source's identity and the hash of its bytes name it (found when it was checked by
// content), so a restart keeps it and a variant made at other settings gets another.
function variantTag(variant, identityTag, coding) {
  return variant.cached ? `"${identityTag}-${coding}-${variant.digest}"` : `"${statTag(variant.stat)}-${coding}"`;
}

// Null when the variant may be served, else why it is stale (see variantAge).
function staleReason(variant, stat) {
  if (variant.age === 'fresh') return null;
  if (variant.age === 'same-second' || variant.age === 'cached') return variant.mismatch;
  return `older than the whole second of the file it encodes (variant ${new Date(variant.stat.mtimeMs).toISOString()}, file ${new Date(stat.mtimeMs).toISOString()})`;
}

module.exports = { createFileInfoBuilder };
