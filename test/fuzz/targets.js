'use strict';
// The JavaScript fuzz targets: what each runs, which code's coverage guides it, and its seeds.
// Shared by test/integration/h2-fuzz.test.js (a short run in `npm test`) and `npm run fuzz` (longer runs).

const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '..', '..');

const JS_TARGETS = {
  // The native engine's frame reader and connection (server/engines/h2), fed client byte streams.
  'h2-connection': {
    targetModule: path.join(__dirname, 'h2-connection-target.js'),
    covered: path.join(REPO_ROOT, 'server', 'engines', 'h2'),
    // Captured from h2spec, curl, nghttp and Node's client by capture-seeds.js, and the inputs
    // fuzzing once failed on (minimized by hand), which must pass from then on.
    seedDirs: [path.join(REPO_ROOT, 'test', 'fixtures', 'h2-frames'), path.join(REPO_ROOT, 'test', 'fixtures', 'h2-fuzz-regressions')],
    regressionDir: path.join(REPO_ROOT, 'test', 'fixtures', 'h2-fuzz-regressions'),
  },
  // The HTTP/3 engine (server/engines/h3: frames, stream types, request streams, the QPACK
  // decoder's JS side) fed a client's streams (input format: h3-input.js) through the real core.
  'h3-connection': {
    targetModule: path.join(__dirname, 'h3-connection-target.js'),
    mutatorModule: path.join(__dirname, 'h3-mutator.js'),
    covered: path.join(REPO_ROOT, 'server', 'engines', 'h3'),
    // aioquic's streams (h3-capture-seeds.js), valid exchanges built by h3-seeds.js, and the
    // inputs fuzzing once failed on.
    seedDirs: [path.join(REPO_ROOT, 'test', 'fixtures', 'h3-streams'), path.join(REPO_ROOT, 'test', 'fixtures', 'h3-fuzz-regressions')],
    regressionDir: path.join(REPO_ROOT, 'test', 'fixtures', 'h3-fuzz-regressions'),
  },
};

module.exports = { JS_TARGETS };
