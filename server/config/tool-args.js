'use strict';
// Argument parsing shared by the tools that take one optional directory and flags
// (precompress.js, `negotiate-h2 codings`).

const { parseArgs } = require('node:util');

/**
 * @param {string[]} argv
 * @param {object} options node:util parseArgs options; -h/--help is added
 * @param {(message: string) => Error} usageError
 * @returns {{ values: object, dir: string|undefined }}
 */
function parseDirArgs(argv, options, usageError) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { ...options, help: { type: 'boolean', short: 'h', default: false } } });
  } catch (err) {
    throw usageError(err.message);
  }
  if (parsed.positionals.length > 1) throw usageError(`expected at most one directory, got ${parsed.positionals.length}`);
  return { values: parsed.values, dir: parsed.positionals[0] };
}

module.exports = { parseDirArgs };
