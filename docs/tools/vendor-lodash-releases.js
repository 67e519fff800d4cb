#!/usr/bin/env node
'use strict';
// Writes the demo's dictionary pair: lodash.min.js of two consecutive releases (the lodash pair
// of `npm run bench:dictionary`, bench/dictionary/releases.js), as the npm registry has them,
// licence header included, to static/vendor/lodash-<version>.min.js. static/negotiate.config.json
// makes the older one a dictionary for the newer one, and the demo page loads one, then the other.
//   node docs/tools/vendor-lodash-releases.js   (fetches with `npm pack` the first time)
const fs = require('node:fs/promises');
const path = require('node:path');
const { RELEASES } = require('../../bench/dictionary/releases');
const { releaseFile } = require('../../bench/dictionary/fetch');

const VENDOR = path.resolve(__dirname, '..', '..', 'static', 'vendor');

async function main() {
  const lodash = RELEASES.find((r) => r.pkg === 'lodash');
  for (const version of [lodash.from, lodash.to]) {
    const file = path.join(VENDOR, `lodash-${version}.min.js`);
    await fs.writeFile(file, await releaseFile(lodash.pkg, version, lodash.file));
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
  }
}

main().catch((err) => {
  console.error(err.message);
  process.exit(1);
});
