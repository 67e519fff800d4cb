'use strict';
// A target with a known bug, for checking that the fuzzer finds bugs at all: the tests' own
// frame splitter (helpers/h2-frames.js) throws on a CONTINUATION that follows no HEADERS, or
// on a frame inside a header block, which a client byte stream can easily contain.

const { FrameReader } = require('../helpers/h2-frames');

async function runInput(input) {
  new FrameReader({ expectPreface: false }).push(input);
  return null;
}

module.exports = { runInput };
