'use strict';
// The zstd settings both backends (zstd.js) apply, so that they make the same frames.

// RFC 9659 3: encoders of the "zstd" content coding must not need windows over 8 MB (2^23,
// the limit browsers decode to), so a variant that needs more is not servable; the limit also
// bounds the decoder's window buffer.
const WINDOW_LOG_MAX = 23;
// dcz with a large dictionary: the levels whose default tables hold at most 2^20 entries, and
// the largest tables (log2 of entries) given them.
const FAST_LEVEL_MAX = 9;
const DICT_TABLE_LOG_MAX = 22;

/**
 * hashLog and chainLog for a frame of `inputLength` bytes at `level` against a raw dictionary of
 * `dictionaryLength` bytes, or null to keep the level's own tables.
 * The fast levels' match-finder tables stop growing at 2^17 to 2^20 entries whatever the
 * input: past a megabyte of dictionary and input most dictionary positions are lost to
 * collisions (a 4 MB bundle a release apart against its previous release: 216 KB at level 3,
 * 2.6 KB with tables of 2^20 entries, 2.5x the time). There the tables get an entry per 8
 * bytes, from 2^20 (no smaller than those levels' own) to 2^22; the strong levels keep theirs.
 */
function dictionaryTableLog(level, dictionaryLength, inputLength) {
  const tableLog = Math.ceil(Math.log2(dictionaryLength + inputLength)) - 3;
  if (level > FAST_LEVEL_MAX || tableLog <= 17) return null;
  return Math.min(Math.max(tableLog, 20), DICT_TABLE_LOG_MAX);
}

module.exports = { WINDOW_LOG_MAX, dictionaryTableLog };
