'use strict';
// negotiate.config.json: the site's own settings, read from the served folder (or the file
// --config names). Its keys are startServer's option keys (camelCase: "cacheControl",
// "spa") plus "headers" (see header-rules.js). It sits below flags and environment variables.

const fs = require('node:fs');
const path = require('node:path');
const { ConfigError } = require('../errors');
const { closest } = require('../config/did-you-mean');

const CONFIG_NAME = 'negotiate.config.json';
// Options that choose the folder or the file itself cannot come from inside them.
const NOT_IN_FILE = new Set(['root', 'config', 'help']);

// Returns { file (absolute, or null when there is none), label, values: { key: raw value } }.
// `explicit`: the --config value, or undefined to look for CONFIG_NAME in root. `options`:
// the OPTIONS table; values of its DIR and FILE options are resolved against the file's folder.
function readConfigFile(root, explicit, options) {
  const file = explicit !== undefined ? path.resolve(explicit) : path.join(root, CONFIG_NAME);
  const label = explicit !== undefined ? String(explicit) : CONFIG_NAME;
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if (explicit === undefined && (err.code === 'ENOENT' || err.code === 'ENOTDIR')) return { file: null, label, values: {} };
    throw new ConfigError(`${explicit !== undefined ? '--config' : label}: cannot read ${file} (${err.code || err.message})`);
  }
  let json;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${label}: not valid JSON (${err.message})`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new ConfigError(`${label}: expected a JSON object of options`);
  const byKey = new Map(options.filter((o) => !NOT_IN_FILE.has(o.key)).map((o) => [o.key, o]));
  const known = [...byKey.keys(), 'headers'];
  const values = {};
  for (const [key, value] of Object.entries(json)) {
    if (NOT_IN_FILE.has(key)) throw new ConfigError(`${label}: "${key}" cannot be set in the configuration file (use the flag)`);
    if (!known.includes(key)) {
      const hint = closest(key, known);
      throw new ConfigError(`${label}: unknown key "${key}"${hint !== null ? ` (did you mean ${hint}?)` : ''}`);
    }
    const opt = byKey.get(key);
    values[key] = opt !== undefined && (opt.arg === 'DIR' || opt.arg === 'FILE') && typeof value === 'string'
      ? path.resolve(path.dirname(file), value) : value;
  }
  return { file, label, values };
}

module.exports = { readConfigFile, CONFIG_NAME };
