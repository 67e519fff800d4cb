'use strict';
// Replays saved inputs (a crash file from a fuzz run, or seeds) through a JS fuzz target and
// prints each outcome, with the engine's debug log:
//   node test/fuzz/replay.js [--target h2-connection] FILE...

const fs = require('node:fs');
const { parseArgs } = require('node:util');
const { JS_TARGETS } = require('./targets');

async function main() {
  const { values, positionals } = parseArgs({ options: { target: { type: 'string', default: 'h2-connection' } }, allowPositionals: true });
  const target = JS_TARGETS[values.target];
  if (!target || positionals.length === 0) {
    console.error(`usage: node test/fuzz/replay.js [--target ${Object.keys(JS_TARGETS).join('|')}] FILE...`);
    process.exit(2);
  }
  process.env.FUZZ_DEBUG ??= '1';
  const { runInput } = require(target.targetModule);
  let failed = 0;
  for (const file of positionals) {
    const outcome = await runInput(fs.readFileSync(file)).catch((err) => `threw: ${err.stack || err}`);
    if (outcome) failed++;
    console.log(`${file}: ${outcome ?? 'ok'}`);
  }
  process.exitCode = failed ? 1 : 0;
}

main();
