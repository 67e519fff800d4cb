'use strict';
// A deterministic JavaScript "bundle" of about `bytes` bytes in two releases that differ by a
// few lines, for the compression dictionary tests: app.v1.js is the dictionary, app.v2.js the
// file sent as a delta. Running it sets window.app (or returns it, in Node) to
// { version, checksum }, the checksum computed over every module, so a page that got a wrong or
// truncated v2 cannot report v2's expected result.

const MODULES_PER_KB = 4.28;

function modules(version, bytes) {
  const out = [];
  const count = Math.ceil((bytes / 1024) * MODULES_PER_KB);
  for (let i = 0; i < count; i++) {
    // v2 changes one module in a hundred: a typical release of a bundle.
    const k = version !== 'v1' && i % 100 === 7 ? i * 31 + 1 : i * 31;
    out.push(`  function module${i}(input) {\n    const table = [${k}, ${k + 3}, ${(k * 7) % 251}, ${i}];\n    let acc = input;\n    for (const n of table) acc = (acc * 33 + n) % 1000003;\n    return acc; // module ${i} of the ${i % 2 ? 'render' : 'state'} layer\n  }\n  registry.push(module${i});\n`);
  }
  return out.join('');
}

function appScript(version, bytes = 280 * 1024) {
  return `(function () {\n  'use strict';\n  const registry = [];\n${modules(version, bytes)}  let checksum = 1;\n  for (const fn of registry) checksum = fn(checksum);\n  const app = { version: ${JSON.stringify(version)}, checksum };\n  if (typeof window !== 'undefined') window.app = app;\n  return app;\n})();\n`;
}

// What appScript(version) computes when it runs.
function expectedApp(version, bytes) {
  // eslint-disable-next-line no-new-func
  return new Function(`return ${appScript(version, bytes)}`)();
}

module.exports = { appScript, expectedApp };
