'use strict';
// The layers of server/ import one way only, from the entry points down (docs/design.md): every
// require between two of its folders goes from a higher layer to a lower one, so no folder
// depends, even indirectly, on one above it.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const SERVER = path.resolve(__dirname, '..', '..', 'server');
// Highest first. Files directly in server/ are named by file.
const LAYERS = [
  ['index.js'], // `node server`: the CLI when run, the API when required
  ['cli.js'],
  ['engines'], // listeners, HTTP/2 and HTTP/1.1 engines, Node's modules, handler()
  ['metrics'], // the counters the engines record into, their exposition and listener
  ['tls'],
  ['site'], // the site's behaviours around the decision: 404 page, listing, background variants
  ['decision'], // negotiation, representations, preconditions, ranges
  ['files'], // paths, opening inside the root, the metadata store, bodies
  ['config'], // the settings' schema, the configuration file and its rules, limits
  ['compression'],
  ['http', 'log'], // HTTP grammar and rules every layer may use; log lines
  ['errors.js'],
];
const rankOf = new Map(LAYERS.flatMap((names, rank) => names.map((name) => [name, rank])));

function sourceFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.js') ? [full] : [];
  });
}

// The layer a path under server/ belongs to: its first folder, or its file name at the top.
const layerOf = (file) => path.relative(SERVER, file).split(path.sep)[0];

function imports(file) {
  // Comments may name a require() they do not make.
  const text = fs.readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '');
  return [...text.matchAll(/require\('(\.{1,2}\/[^']*)'\)/g)]
    .map((m) => path.resolve(path.dirname(file), m[1]))
    .filter((target) => target.startsWith(SERVER + path.sep) || target === SERVER);
}

test('every folder and top-level file of server/ has a layer', () => {
  const unplaced = fs.readdirSync(SERVER).filter((name) => !rankOf.has(name));
  assert.deepEqual(unplaced, []);
});

test('server/ imports only downwards between layers', () => {
  const upward = [];
  for (const file of sourceFiles(SERVER)) {
    const from = layerOf(file);
    for (const target of imports(file)) {
      const to = target === SERVER ? 'index.js' : layerOf(target.endsWith('.js') || fs.existsSync(target + '.js') ? target : path.join(target, 'index.js'));
      const toName = rankOf.has(to) ? to : `${to}.js`;
      if (from === toName) continue;
      if (!(rankOf.get(from) < rankOf.get(toName))) upward.push(`${path.relative(SERVER, file)} -> ${path.relative(SERVER, target)}`);
    }
  }
  assert.deepEqual(upward, []);
});
