'use strict';
// The compiled addon: HPACK and QPACK classes, Huffman functions, the static table. node-gyp-build
// loads build/Release (a local compile: `npm install` in a clone, or node-gyp on a platform
// without a prebuild) before prebuilds/PLATFORM-ARCH (the N-API binary the package ships), and
// throws when neither exists or loads.
const path = require('node:path');

module.exports = require('node-gyp-build')(path.join(__dirname, '..', '..'));
