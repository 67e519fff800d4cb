'use strict';
// The performance targets, evaluated against one run. A target whose
// inputs were not measured (a --filter run, or no --callgrind for instruction
// counts) has pass: null rather than a guess.
const { indexResults } = require('./summarize');

const DECODE = 'nghttp2-wire';
const ENCODE = 'raw-data';
const DEFAULT_ENCODER = 'ours-linear-huffman';
const MEDIUM_AND_LONG = ['medium-set-cookie', 'medium-backslash', 'long-prose'];

const speedup = (slow, fast) => (slow && fast ? slow.nsPerCall.median / fast.nsPerCall.median : null);
const instr = (r) => r?.instrPerByte ?? null;

function definitions(get, ratio) {
  const c = (group, workload, impl) => get('c', group, workload, impl);
  return [
    ...MEDIUM_AND_LONG.map((w) => ({
      id: `huffman-decode-vs-4bit/${w}`,
      what: `Huffman decode of ${w}: big-table speed over the 4-bit decoder`,
      op: '>=', limit: 1.5, unit: 'x',
      measured: speedup(c('huffman-decode', w, '4bit'), c('huffman-decode', w, 'big-table')),
    })),
    {
      id: 'decode-vs-nghttp2',
      what: 'Full corpus decode: speed over libnghttp2',
      op: '>=', limit: 1.5, unit: 'x',
      measured: speedup(c('decode', DECODE, 'nghttp2'), c('decode', DECODE, 'ours')),
    },
    {
      id: 'encode-vs-nghttp2',
      what: 'Full corpus encode (linear+Huffman): speed over libnghttp2',
      op: '>=', limit: 1.5, unit: 'x',
      measured: speedup(c('encode', ENCODE, 'nghttp2'), c('encode', ENCODE, DEFAULT_ENCODER)),
    },
    {
      id: 'decode-instructions',
      what: 'Full corpus decode: instructions per header byte',
      op: '<=', limit: 10, unit: '',
      measured: instr(c('decode', DECODE, 'ours')),
      reference: { what: 'libnghttp2', value: instr(c('decode', DECODE, 'nghttp2')) },
    },
    {
      id: 'encode-instructions',
      what: 'Full corpus encode: instructions per header byte',
      op: '<=', limit: 14, unit: '',
      measured: instr(c('encode', ENCODE, DEFAULT_ENCODER)),
      reference: { what: 'libnghttp2', value: instr(c('encode', ENCODE, 'nghttp2')) },
    },
    {
      id: 'compression-ratio',
      what: 'Compression ratio of linear+Huffman (wire / name+value bytes)',
      op: '<=', limit: 0.3, unit: '', digits: 4,
      measured: ratio(DEFAULT_ENCODER),
      reference: { what: 'libnghttp2', value: ratio('nghttp2') },
    },
    {
      id: 'huffman-decode-instructions/long-prose',
      what: 'Huffman decode of long-prose: instructions per Huffman-coded byte (ls-hpack: 18.7)',
      op: '<=', limit: 10, unit: '',
      measured: instr(c('huffman-decode', 'long-prose', 'big-table')),
    },
    {
      id: 'huffman-encode-instructions/long-prose',
      what: 'Huffman encode of long-prose: instructions per plain byte (ls-hpack: 7.1)',
      op: '<=', limit: 5, unit: '',
      measured: instr(c('huffman-encode', 'long-prose', 'big-table')),
    },
  ];
}

const COMPARE = { '>=': (a, b) => a >= b, '<': (a, b) => a < b, '<=': (a, b) => a <= b };

// [{ id, what, op, limit, unit, measured, reference?, pass }]
function evaluateTargets({ results, ratios }) {
  const get = indexResults(results);
  const ratio = (impl) => ratios.find((r) => r.source === 'c' && r.workload === ENCODE && r.impl === impl)?.ratio ?? null;
  return definitions(get, ratio).map((t) => ({
    ...t,
    pass: t.measured === null || t.limit === null ? null : COMPARE[t.op](t.measured, t.limit),
  }));
}

module.exports = { evaluateTargets, DECODE, ENCODE, DEFAULT_ENCODER };
