'use strict';
// `negotiate-h2 init [DIR]`: a starter negotiate.config.json in DIR whose "$schema" is the path
// from DIR to this package's negotiate.config.schema.json, so editors find the schema wherever
// the package is installed and wherever DIR is. An existing file is never overwritten.

const fs = require('node:fs');
const path = require('node:path');
const { ConfigError } = require('../errors');
const { CONFIG_NAME } = require('./config-file');

const SCHEMA_FILE = path.resolve(__dirname, '..', '..', 'negotiate.config.schema.json');

/** The "$schema" value for a file in `dir`: a relative URL reference (forward slashes, ./ or ../ first). */
function schemaPath(dir, schemaFile = SCHEMA_FILE) {
  const rel = path.relative(path.resolve(dir), schemaFile).split(path.sep).join('/');
  return rel.startsWith('../') ? rel : `./${rel}`;
}

/** The starter file's text: the schema and two settings to show the form (their defaults). */
function starterConfig(dir, schemaFile = SCHEMA_FILE) {
  return `${JSON.stringify({ $schema: schemaPath(dir, schemaFile), spa: false, listing: false }, null, 2)}\n`;
}

/**
 * Writes the starter file into `dir` (which must exist) and returns its path.
 * @throws {ConfigError} when dir is no folder, or the file exists (left as it is)
 */
function writeStarterConfig(dir) {
  const file = path.join(path.resolve(dir), CONFIG_NAME);
  try {
    fs.writeFileSync(file, starterConfig(dir), { flag: 'wx' });
  } catch (err) {
    if (err.code === 'EEXIST') throw new ConfigError(`${file} exists; not overwritten (edit it, or move it away first)`);
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') throw new ConfigError(`${path.resolve(dir)} is not a directory`);
    throw new ConfigError(`cannot write ${file} (${err.code || err.message})`);
  }
  return file;
}

module.exports = { schemaPath, starterConfig, writeStarterConfig };
