#!/usr/bin/env node
'use strict';
// QPACK Offline Interop Format tool:
//   node native/tools/qif.js encode|decode --table-size N --max-blocked N [--immediate-ack] [--force] IN OUT
// encode reads text (name<TAB>value lines, a blank line after each field
// section, # comments) and writes records (stream id: 8 bytes big-endian,
// length: 4 bytes big-endian, bytes; stream 0 is the encoder stream); field
// section k goes on stream k, counting from 1. decode does the reverse and
// writes the sections in stream order. Names and values are raw bytes.
// OUT is never overwritten unless --force.

const fs = require('node:fs');
const { QpackEncoder, QpackDecoder } = require('../qpack');

const USAGE =
  'usage: node native/tools/qif.js encode|decode --table-size N --max-blocked N [--immediate-ack] [--force] IN OUT';
const ENCODER_STREAM = 0;
const RECORD_HEADER = 12;
const MAX_STREAM_ID = 0xffffffff;
// The decoder takes whatever one section of the corpus needs; the offline run is not a peer to distrust.
const DECODER_LIMIT = 1 << 26;

class UsageError extends Error {}

function parseArgs(argv) {
  const [mode, ...rest] = argv;
  if (mode !== 'encode' && mode !== 'decode') throw new UsageError(`unknown mode ${JSON.stringify(mode)}`);
  const opts = { mode, immediateAck: false, force: false, files: [] };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === '--immediate-ack') opts.immediateAck = true;
    else if (arg === '--force') opts.force = true;
    else if (arg === '--table-size' || arg === '--max-blocked') {
      const value = rest[++i];
      if (value === undefined || !/^\d+$/.test(value) || Number(value) > 0xffffffff) {
        throw new UsageError(`${arg} needs an integer from 0 to 4294967295`);
      }
      opts[arg === '--table-size' ? 'tableSize' : 'maxBlocked'] = Number(value);
    } else if (arg.startsWith('--')) throw new UsageError(`unknown option ${arg}`);
    else opts.files.push(arg);
  }
  if (opts.tableSize === undefined || opts.maxBlocked === undefined) throw new UsageError('--table-size and --max-blocked are required');
  if (opts.files.length !== 2) throw new UsageError('need IN and OUT');
  return opts;
}

// Text -> [[[name, value], ...], ...] with names and values as latin1 strings (bytes).
function parseText(buf) {
  const sections = [];
  let current = [];
  const lines = buf.toString('latin1').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  lines.forEach((line, i) => {
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.startsWith('#')) return;
    if (line === '') {
      if (current.length) sections.push(current);
      current = [];
      return;
    }
    const tab = line.indexOf('\t');
    if (tab <= 0) throw new Error(`line ${i + 1}: expected name<TAB>value`);
    const name = line.slice(0, tab);
    // The encoder lower-cases names; refusing others keeps the round trip byte for byte.
    if (/[A-Z]/.test(name)) throw new Error(`line ${i + 1}: field names must be lower case (RFC 9114 4.2)`);
    current.push([name, line.slice(tab + 1)]);
  });
  if (current.length) sections.push(current);
  return sections;
}

function record(streamId, bytes) {
  const head = Buffer.alloc(RECORD_HEADER);
  head.writeBigUInt64BE(BigInt(streamId), 0);
  head.writeUInt32BE(bytes.length, 8);
  return [head, bytes];
}

function encode(input, opts) {
  const encoder = new QpackEncoder({ maxTableCapacity: opts.tableSize, maxBlockedStreams: opts.maxBlocked });
  const out = [];
  parseText(input).forEach((fields, i) => {
    const streamId = i + 1;
    if (streamId > MAX_STREAM_ID) throw new Error('too many field sections');
    const { section, encoderStream } = encoder.encode(streamId, fields);
    // The decoder must see the inserts no later than the section that needs them.
    if (encoderStream.length) out.push(...record(ENCODER_STREAM, encoderStream));
    out.push(...record(streamId, section));
    if (opts.immediateAck) encoder.assumeAcknowledged();
  });
  return Buffer.concat(out);
}

function* records(buf) {
  for (let pos = 0; pos < buf.length; ) {
    if (buf.length - pos < RECORD_HEADER) throw new Error(`record at byte ${pos}: truncated header`);
    const streamId = buf.readBigUInt64BE(pos);
    const len = buf.readUInt32BE(pos + 8);
    pos += RECORD_HEADER;
    if (buf.length - pos < len) throw new Error(`record at byte ${pos - RECORD_HEADER}: ${len} bytes announced, ${buf.length - pos} left`);
    if (streamId > BigInt(MAX_STREAM_ID)) throw new Error(`record at byte ${pos - RECORD_HEADER}: stream id ${streamId} too large`);
    yield { streamId: Number(streamId), bytes: buf.subarray(pos, pos + len), at: pos - RECORD_HEADER };
    pos += len;
  }
}

function decode(input, opts) {
  const decoder = new QpackDecoder({
    maxTableCapacity: opts.tableSize,
    maxBlockedStreams: opts.maxBlocked,
    maxFieldSectionSize: DECODER_LIMIT,
    maxBlockedBytes: DECODER_LIMIT,
  });
  const sections = new Map();
  const pending = new Set();
  const keep = (streamId, headers, at) => {
    if (sections.has(streamId)) throw new Error(`record at byte ${at}: a second field section on stream ${streamId}`);
    sections.set(streamId, headers);
  };
  for (const { streamId, bytes, at } of records(input)) {
    try {
      if (streamId === ENCODER_STREAM) {
        for (const s of decoder.feedEncoder(bytes)) {
          pending.delete(s.streamId);
          keep(s.streamId, s.headers, at);
        }
      } else {
        if (sections.has(streamId) || pending.has(streamId)) throw new Error(`a second field section on stream ${streamId}`);
        const headers = decoder.decode(streamId, bytes);
        if (headers) keep(streamId, headers, at);
        else pending.add(streamId);
      }
    } catch (err) {
      throw new Error(`record at byte ${at} (stream ${streamId}): ${err.message}${err.code ? ` [${err.code}]` : ''}`);
    }
  }
  if (pending.size) throw new Error(`streams still blocked at the end of input: ${[...pending].join(', ')}`);
  const text = [];
  for (const id of [...sections.keys()].sort((a, b) => a - b)) {
    for (const [name, value] of sections.get(id)) text.push(`${name}\t${value}\n`);
    text.push('\n');
  }
  return Buffer.from(text.join(''), 'latin1');
}

function main(argv) {
  let opts;
  try {
    opts = parseArgs(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`qif: ${err.message}\n${USAGE}\n`);
    return 2;
  }
  const [inPath, outPath] = opts.files;
  try {
    const input = fs.readFileSync(inPath);
    const output = opts.mode === 'encode' ? encode(input, opts) : decode(input, opts);
    // 'wx' refuses an existing file in the same system call that creates ours.
    fs.writeFileSync(outPath, output, { flag: opts.force ? 'w' : 'wx' });
  } catch (err) {
    const message = err.code === 'EEXIST' ? `${outPath} exists; not overwriting it without --force` : err.message;
    process.stderr.write(`qif: ${message}\n`);
    return 1;
  }
  return 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));

module.exports = { parseText, encode, decode, records };
