'use strict';
// The command lines of the tools that take one optional directory and flags (precompress,
// `negotiate-h2 codings`), parsed from schema entries (schema.js) as the server's CLI is.

const { ConfigError } = require('../errors');
const { parseFlags, applyEntries } = require('./flags');

const HELP = { flag: 'help', short: 'h', key: 'help', bool: true, command: true, help: 'show this help' };

/**
 * @param {string[]} argv
 * @param {object[]} entries schema entries; the one with key `dir` (no flag) takes the positional
 * @param {(message: string) => Error} usageError
 * @returns {{ values: object, given: Set<string> }} values by key, defaults filled, plus `help`;
 *   `given`: the keys the command line set
 */
function parseToolArgs(argv, entries, usageError) {
  try {
    const { raw, positionals } = parseFlags(argv, [...entries, HELP]);
    if (positionals.length > 1) throw usageError(`expected at most one directory, got ${positionals.length}`);
    if (positionals.length === 1) raw.dir = positionals[0];
    const values = applyEntries(entries, raw, { dir: 'dir' });
    values.help = raw.help === true;
    return { values, given: new Set(Object.keys(raw)) };
  } catch (err) {
    throw err instanceof ConfigError ? usageError(err.message) : err;
  }
}

/**
 * Usage text: the command, then a line for the directory and each flag with its default.
 * dirRequired: the command refuses to run without a directory, so its default is not shown.
 */
function usageText(command, entries, { dirRequired = false } = {}) {
  const dirName = dirRequired ? 'DIR' : 'dir';
  const rows = [...entries, HELP].map((e) => {
    const isDir = e.flag === undefined && e.key === 'dir';
    const left = e.flag === undefined ? (isDir ? dirName : null) : `--${e.flag}${e.arg ? ` ${e.arg}` : ''}${e.multiple ? ' ...' : ''}`;
    if (left === null) return null;
    const def = e.def !== undefined && !e.bool ? (isDir && dirRequired ? ' (required)' : ` (default: ${e.def})`) : '';
    return `  ${left.padEnd(20)} ${e.help}${def}`;
  }).filter((row) => row !== null);
  return `usage: ${command} ${dirRequired ? dirName : `[${dirName}]`} [options]\n${rows.join('\n')}\n`;
}

module.exports = { parseToolArgs, usageText };
