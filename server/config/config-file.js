'use strict';
// negotiate.config.json: the site's own settings, read from the served folder (or the file
// --config names). Its keys are startServer's option keys (camelCase: "cacheControl",
// "spa") plus "headers" (see header-rules.js). It sits below flags and environment variables.
// "$schema" (for editors: negotiate.config.schema.json, scripts/gen-types.js) is accepted and ignored.

const fs = require('node:fs');
const path = require('node:path');
const { ConfigError } = require('../errors');
const { closest } = require('./did-you-mean');

const CONFIG_NAME = 'negotiate.config.json';

// Returns { file (absolute, or null when there is none), label, values: { key: raw value } }.
// `explicit`: the --config value, or undefined to look for CONFIG_NAME in root. `entries`: the
// settings of server/config/schema.js; values of its DIR and FILE settings are resolved against
// the file's folder. Settings with `file: false` choose the folder or the file itself, or are
// objects only a program can pass: they cannot come from the file. `explicitLabel`: how the
// user named `explicit` (--config, or the option key config).
function readConfigFile(root, explicit, entries, explicitLabel) {
  const file = explicit !== undefined ? path.resolve(explicit) : path.join(root, CONFIG_NAME);
  const label = explicit !== undefined ? String(explicit) : CONFIG_NAME;
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if (explicit === undefined && (err.code === 'ENOENT' || err.code === 'ENOTDIR')) return { file: null, label, values: {} };
    throw new ConfigError(`${explicit !== undefined ? explicitLabel : label}: cannot read ${file} (${err.code || err.message})`);
  }
  let json;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${label}: not valid JSON (${err.message})`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new ConfigError(`${label}: expected a JSON object of options`);
  const byKey = new Map(entries.filter((e) => e.file !== false).map((e) => [e.key, e]));
  const known = [...byKey.keys()];
  const values = {};
  for (const [key, value] of Object.entries(json)) {
    if (key === '$schema') {
      if (typeof value !== 'string') throw new ConfigError(`${label}: "$schema" must be a string (the schema's URL or path)`);
      continue;
    }
    if (entries.some((e) => e.key === key && e.file === false && e.flag !== undefined)) throw new ConfigError(`${label}: "${key}" cannot be set in the configuration file (use the flag)`);
    if (!known.includes(key)) {
      const hint = closest(key, known);
      throw new ConfigError(`${label}: unknown key "${key}"${hint !== null ? ` (did you mean ${hint}?)` : ''}`);
    }
    const entry = byKey.get(key);
    values[key] = (entry.arg === 'DIR' || entry.arg === 'FILE') && typeof value === 'string'
      ? path.resolve(path.dirname(file), value) : value;
  }
  return { file, label, values };
}

module.exports = { readConfigFile, CONFIG_NAME };
