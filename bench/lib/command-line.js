'use strict';
// Benchmark command lines: node:util's parseArgs whose errors carry the benchmark's usage text
// (code EUSAGE: the runners exit 2 on it), and whole-number options (wrk, h2load and the
// aioquic clients take whole seconds).
const { parseArgs } = require('node:util');

function usageError(message, usage) {
  return Object.assign(new Error(`${message}\n${usage}`), { code: 'EUSAGE' });
}

// options: parseArgs's option table -> the values.
function parseCommandLine(argv, options, usage) {
  try {
    return parseArgs({ args: argv, options }).values;
  } catch (err) {
    throw usageError(err.message, usage);
  }
}

function wholeNumber(value, name, min, usage) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw usageError(`--${name} must be a whole number of at least ${min}`, usage);
  return n;
}

module.exports = { parseCommandLine, wholeNumber, usageError };
