'use strict';
// What the measured server can do, read from its --help: which protocol
// engines (--engine) it offers. A server without the option runs Node's
// http2/https code, which the benchmark calls the node engine.
const path = require('node:path');
const { runToCompletion } = require('../lib/process-group');

// Pure: engines named on the --engine line of a help text.
function enginesFromHelp(help) {
  const line = help.split('\n').find((l) => /^\s*--engine\b/.test(l));
  if (!line) return { engineOption: false, engines: ['node'] };
  return { engineOption: true, engines: ['node', 'native'].filter((e) => new RegExp(`\\b${e}\\b`).test(line)) };
}

async function serverCapabilities(serverDir) {
  const { stdout } = await runToCompletion(process.execPath, [path.join(serverDir, 'index.js'), '--help'],
    { timeoutMs: 15000, name: 'server --help' });
  return enginesFromHelp(stdout);
}

module.exports = { serverCapabilities, enginesFromHelp };
