'use strict';
// Schema entries (schema.js) applied to a command line with node:util parseArgs, and to values
// from anywhere: shared by the server's CLI (options.js) and the tools (tool-args.js).

const { parseArgs } = require('node:util');
const { ConfigError } = require('../errors');
const { closest } = require('./did-you-mean');
const { negated } = require('./schema');
const { parseBool } = require('./parsers');

/** node:util parseArgs options for entries with a flag (bool ones are type boolean). */
function parseArgsOptions(entries) {
  return Object.fromEntries(entries.filter((e) => e.flag !== undefined).map((e) => [e.flag, {
    type: e.bool ? 'boolean' : 'string',
    ...(e.multiple ? { multiple: true } : {}),
    ...(e.short !== undefined ? { short: e.short } : {}),
  }]));
}

/**
 * Parses argv against `entries` with parseArgs, checking each option as it was written: an
 * unknown one gets a did-you-mean suggestion, a bool one may not have a value, others need one.
 * @returns {{ raw: Record<string, string|boolean|string[]>, positionals: string[] }} by key
 */
function parseFlags(argv, entries) {
  const withFlag = entries.filter((e) => e.flag !== undefined);
  // Not strict: the tokens let each problem be reported in this file's terms.
  const { tokens } = parseArgs({ args: argv, options: parseArgsOptions(withFlag), strict: false, allowPositionals: true, tokens: true });
  const raw = {};
  const positionals = [];
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    if (token.kind !== 'option') continue;
    // --X sets an entry whose flag is --no-X back to its default (true), e.g. --http3.
    const entry = withFlag.find((e) => e.flag === token.name) ?? withFlag.find((e) => e.bool && negated(e) && e.flag === `no-${token.name}`);
    if (entry === undefined) {
      const hint = token.rawName.startsWith('--') ? closest(token.rawName, withFlag.map((e) => `--${e.flag}`)) : null;
      throw new ConfigError(`unknown option "${token.rawName}"${hint !== null ? `; did you mean ${hint}?` : ' (see --help)'}`);
    }
    if (entry.bool) {
      if (token.value !== undefined) throw new ConfigError(`${token.rawName} takes no value`);
      raw[entry.key] = entry.flag === token.name ? !negated(entry) : true;
    } else {
      if (token.value === undefined) throw new ConfigError(`${token.rawName} needs a value ${entry.arg}`);
      raw[entry.key] = entry.multiple ? [...(raw[entry.key] ?? []), token.value] : token.value;
    }
  }
  return { raw, positionals };
}

/** The entry's value parsed and checked; errors are labelled with `label`. */
function checkValue(entry, value, label) {
  try {
    if (entry.bool) return parseBool(value);
    return entry.parse ? entry.parse(value) : value;
  } catch (err) {
    throw new ConfigError(`${label}: ${err.message}`);
  }
}

/** `raw` parsed by entry, defaults filled; labels[key] names where a value came from. */
function applyEntries(entries, raw, labels) {
  const out = {};
  for (const entry of entries) {
    if (entry.command) continue;
    const value = raw[entry.key];
    if (value === undefined || value === null) {
      if (entry.def !== undefined) out[entry.key] = entry.parse && !entry.bool ? entry.parse(entry.def) : entry.def;
      continue;
    }
    out[entry.key] = checkValue(entry, value, labels[entry.key] ?? `--${entry.flag}`);
  }
  return out;
}

module.exports = { parseFlags, checkValue, applyEntries };
