'use strict';
// The starter negotiate.config.json of `negotiate-h2 init` (server/config/starter-config.js): its
// "$schema" is the path from the folder it is written in to the package's schema.

const test = require('node:test');
const assert = require('node:assert/strict');
const { schemaPath, starterConfig } = require('../../server/config/starter-config');

const SCHEMA = '/app/node_modules/negotiate-h2/negotiate.config.schema.json';
// [the folder written in, the $schema expected]
const CASES = [
  ['/app', './node_modules/negotiate-h2/negotiate.config.schema.json'],
  ['/app/public', '../node_modules/negotiate-h2/negotiate.config.schema.json'],
  ['/app/site/dist/', '../../node_modules/negotiate-h2/negotiate.config.schema.json'],
  ['/app/node_modules/negotiate-h2', './negotiate.config.schema.json'],
  ['/srv/www', '../../app/node_modules/negotiate-h2/negotiate.config.schema.json'],
];

for (const [dir, expected] of CASES) {
  test(`written in ${dir}: "$schema": "${expected}"`, () => {
    assert.equal(schemaPath(dir, SCHEMA), expected);
  });
}

test('the starter file: the schema and two settings at their defaults, as JSON', () => {
  assert.equal(starterConfig('/app/public', SCHEMA),
    '{\n  "$schema": "../node_modules/negotiate-h2/negotiate.config.schema.json",\n  "spa": false,\n  "listing": false\n}\n');
});
