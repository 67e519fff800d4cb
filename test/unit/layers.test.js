'use strict';
// The package's code imports one way only, from the entry points down (docs/design.md): every
// import between two layers goes from a higher one to a lower one, so no layer depends, even
// indirectly, on one above it; and nothing the package ships loads the benchmarks, the scripts,
// the tests or the docs' generators, which are not in the tarball.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
// Highest first; each entry a folder or a file, relative to the package's root. A file belongs
// to the longest entry that contains it.
const LAYERS = [
  ['index.mjs'], // the ESM entry point
  ['server/index.js'], // `node server`: the CLI when run, the API when required
  ['server/cli.js'],
  ['tools/precompress', 'tools/codings-report'], // the CLI's subcommands, over the server's layers
  ['server/engines'], // listeners, HTTP/2 and HTTP/1.1 engines, Node's modules, handler()
  ['server/metrics'], // the counters the engines record into, their exposition and listener
  ['server/tls'],
  ['server/site'], // the site's behaviours around the decision: 404 page, listing, background variants
  ['server/decision'], // negotiation, representations, preconditions, ranges
  ['server/dictionaries'], // RFC 9842: the dictionaries held, the deltas made, kept and budgeted
  ['server/files'], // paths, opening inside the root, the metadata store, bodies, tree walks
  ['server/config'], // the settings' schema, the configuration file and its rules, limits
  ['server/compression'],
  ['server/http', 'server/log'], // HTTP grammar and rules every layer may use; log lines
  ['server/errors.js'],
  ['tools/report'], // Markdown tables and SVG charts (the codings report and the benchmarks)
  ['native'], // the C core's binding: HPACK, QPACK, dictionary brotli
];
// What the package ships of its own JavaScript (package.json "files").
const SHIPPED = ['index.mjs', 'server', 'tools', 'native/index.js', 'native/qpack.js', 'native/transport.js', 'native/js'];
const rankOf = new Map(LAYERS.flatMap((names, rank) => names.map((name) => [name, rank])));

function sourceFiles(rel) {
  const full = path.join(ROOT, rel);
  if (!fs.statSync(full).isDirectory()) return [rel];
  return fs.readdirSync(full, { withFileTypes: true }).flatMap((e) => {
    const child = path.posix.join(rel, e.name);
    if (e.isDirectory()) return sourceFiles(child);
    return /\.[cm]?js$/.test(e.name) ? [child] : [];
  });
}

/** The layer entry a package-relative path belongs to, or null. */
function layerOf(rel) {
  let best = null;
  for (const name of rankOf.keys()) {
    if ((rel === name || rel.startsWith(`${name}/`)) && (best === null || name.length > best.length)) best = name;
  }
  return best;
}

/** The file a relative specifier names, as require() finds it: itself, with .js, or a folder's index.js. */
function resolveFile(full) {
  const found = [full, `${full}.js`, path.join(full, 'index.js')].find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
  return found ?? full;
}

/** The package-relative paths of the files the relative require()s and imports of `rel` load. */
function imports(rel) {
  // Comments may name a require() they do not make.
  const text = fs.readFileSync(path.join(ROOT, rel), 'utf8').replace(/^\s*\/\/.*$/gm, '');
  return [...text.matchAll(/(?:require\(|\bfrom\s+)'(\.{1,2}\/[^']*)'/g)]
    .map((m) => path.relative(ROOT, resolveFile(path.resolve(ROOT, path.dirname(rel), m[1]))).split(path.sep).join('/'));
}

const shippedFiles = () => SHIPPED.flatMap(sourceFiles);

test('every shipped file and every folder of server/ and tools/ has a layer', () => {
  const folders = ['server', 'tools'].flatMap((dir) => fs.readdirSync(path.join(ROOT, dir)).map((name) => `${dir}/${name}`));
  assert.deepEqual([...folders, ...shippedFiles()].filter((rel) => layerOf(rel) === null), []);
});

test('the package imports only downwards between layers', () => {
  const upward = [];
  for (const file of shippedFiles()) {
    const from = layerOf(file);
    for (const target of imports(file)) {
      const to = layerOf(target);
      if (to === null || to === from) continue;
      if (!(rankOf.get(from) < rankOf.get(to))) upward.push(`${file} -> ${target}`);
    }
  }
  assert.deepEqual(upward, []);
});

test('nothing shipped loads what the package does not ship', () => {
  const outside = shippedFiles().flatMap((file) => imports(file)
    .filter((target) => layerOf(target) === null && !['package.json', 'negotiate.config.schema.json'].includes(target))
    .map((target) => `${file} -> ${target}`));
  assert.deepEqual(outside, []);
});
