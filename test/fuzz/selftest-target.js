'use strict';
// A target with a planted bug, to check that the fuzzer finds bugs at all: it throws once the
// byte stream holds, in this order, a PING, a WINDOW_UPDATE on a stream other than 0 and a
// RST_STREAM with code CANCEL. Each step is a branch of its own, so coverage feedback keeps the
// inputs that reach one and the fuzzer climbs to the next.

const { splitFrames } = require('./frame-mutator');

const PING = 0x6;
const WINDOW_UPDATE = 0x8;
const RST_STREAM = 0x3;
const CANCEL = 0x8;

async function runInput(input) {
  let step = 0;
  for (const f of splitFrames(input).frames) {
    const type = f[3];
    if (step === 0 && type === PING) {
      step = 1;
    } else if (step === 1 && type === WINDOW_UPDATE && (f.readUInt32BE(5) & 0x7fffffff) !== 0) {
      step = 2;
    } else if (step === 2 && type === RST_STREAM && f.length === 13 && f.readUInt32BE(9) === CANCEL) {
      throw new Error('planted bug reached');
    }
  }
  return null;
}

module.exports = { runInput };
