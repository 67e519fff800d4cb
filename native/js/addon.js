'use strict';
// The compiled addon: HPACK and QPACK classes, Huffman functions, the static table.
const path = require('node:path');

module.exports = require(path.join(__dirname, '..', '..', 'build', 'Release', 'hpack.node'));
