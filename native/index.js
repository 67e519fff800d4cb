'use strict';
// The HPACK core for Node: option checks and header normalisation around the
// addon, which does all parsing and encoding in C.
//
// Header names and values are latin1 strings (one byte per character), as in
// Node's http2 module. huffman.* take bytes; a string there means its UTF-8 bytes.

const path = require('node:path');
const { MAX_STRING_LENGTH } = require('node:buffer').constants;
const addon = require(path.join(__dirname, '..', 'build', 'Release', 'hpack.node'));

const INDEXING = { none: 0, static: 1, linear: 2 };
const NEVER_INDEXED = 1; // HPACK_HEADER_NEVER_INDEXED
const ENCODER_HUFFMAN = 1; // HPACK_ENCODER_HUFFMAN
const ENCODER_INDEX_SHORT_COOKIES = 2; // HPACK_ENCODER_INDEX_SHORT_COOKIES
const ENCODER_INDEX_VOLATILE = 4; // HPACK_ENCODER_INDEX_VOLATILE
const MAX_TABLE_SIZE = 1 << 24;

function invalid(ErrorType, message) {
  const err = new ErrorType(message);
  err.code = 'ERR_HPACK_INVALID_ARGUMENT';
  return err;
}

function checkSize(value, name, max) {
  if (typeof value !== 'number') throw invalid(TypeError, `${name} must be a number`);
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw invalid(RangeError, `${name} must be an integer from 0 to ${max}, got ${value}`);
  }
  return value;
}

function checkOptions(options) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') throw invalid(TypeError, 'options must be an object');
  return options;
}

function toBytes(input) {
  if (typeof input === 'string') return Buffer.from(input, 'utf8');
  if (input instanceof Uint8Array) return input;
  throw invalid(TypeError, 'input must be a string, Buffer or Uint8Array');
}

// Results are carved from a shared slab, as Buffer.allocUnsafe carves its pool:
// a Buffer made by the addon costs a backing store each, several times the
// coding itself. The addon's ...Into functions write at (slab, offset) and
// return the byte count, or the room they need when it is larger than what is
// left, having written nothing.
const SLAB_SIZE = 8192;
let slab = Buffer.allocUnsafeSlow(SLAB_SIZE);
let slabUsed = 0;

function intoSlab(write) {
  let n = write(slab, slabUsed);
  if (n > slab.length - slabUsed) {
    // As in Node's pool, a result over half a slab gets memory of its own: a
    // slab sized for it would be kept alive by every small result after it.
    if (n > SLAB_SIZE >>> 1) return intoOwnBuffer(write, n);
    slab = Buffer.allocUnsafeSlow(SLAB_SIZE);
    slabUsed = 0;
    n = write(slab, 0);
  }
  const out = slab.subarray(slabUsed, slabUsed + n);
  // 8-byte aligned, as in Node's pool (SLAB_SIZE is a multiple of 8).
  slabUsed = Math.ceil((slabUsed + n) / 8) * 8;
  return out;
}

function intoOwnBuffer(write, room) {
  const own = Buffer.allocUnsafeSlow(room);
  const n = write(own, 0);
  // The room asked for is a bound (a Huffman string decodes to at most 8/5 of
  // its length); the rest would stay allocated as long as the result.
  return n === room ? own : Buffer.from(own.subarray(0, n));
}

const huffman = {
  encode(input) {
    const bytes = toBytes(input);
    return intoSlab((out, offset) => addon.huffman.encodeInto(bytes, out, offset));
  },
  decode(input) {
    const bytes = toBytes(input);
    return intoSlab((out, offset) => addon.huffman.decodeInto(bytes, out, offset));
  },
  encodedLength: (input) => addon.huffman.encodedLength(toBytes(input)),
};

// Decoded fields whose name or value is a static table entry's come back as
// refs to these strings (see native/binding/decoder_wrap.cc).
const STATIC_TABLE = addon.staticTable;
// A field costs at least this much of maxHeaderListSize (RFC 7540 6.5.2).
const FIELD_OVERHEAD = 32;

// A block being gathered: names and values concatenated, and per field its
// name length, value length and flags (see native/binding/encoder_wrap.cc).
function newBlock() {
  return { text: '', count: 0, fields: new Int32Array(3 * 64) };
}

class Encoder {
  #native;
  #sensitive;
  // Reused across blocks; null while encode is gathering into it.
  #block = newBlock();

  constructor(options) {
    const {
      tableSize = 4096,
      huffman: useHuffman = true,
      indexing = 'linear',
      sensitive = [],
      // Cookies under 20 bytes are never indexed (they could be guessed through
      // the compression ratio); false reproduces the paper's strategies exactly.
      neverIndexShortCookies = true,
      // :path, content-length, content-location, etag, set-cookie and age values
      // rarely repeat, so 'linear' does not index them unless this is true.
      indexVolatileFields = false,
    } = checkOptions(options);
    if (!Object.hasOwn(INDEXING, indexing)) {
      throw invalid(RangeError, `indexing must be 'linear', 'static' or 'none', got ${indexing}`);
    }
    if (!Array.isArray(sensitive) || !sensitive.every((n) => typeof n === 'string')) {
      throw invalid(TypeError, 'sensitive must be an array of header names');
    }
    const flags =
      (useHuffman ? ENCODER_HUFFMAN : 0) |
      (neverIndexShortCookies ? 0 : ENCODER_INDEX_SHORT_COOKIES) |
      (indexVolatileFields ? ENCODER_INDEX_VOLATILE : 0);
    this.#native = new addon.Encoder(checkSize(tableSize, 'tableSize', MAX_TABLE_SIZE), INDEXING[indexing], flags);
    this.#sensitive = new Set(sensitive.map((n) => n.toLowerCase()));
  }

  // One header block as a Buffer, from [[name, value], ...] or { name: value | [values] }.
  // Header names and values are latin1 strings: a character above U+00FF is an
  // ERR_HPACK_INVALID_ARGUMENT TypeError, never silently cut to a byte.
  encode(headers) {
    // Reading headers can run the caller's code (getters, iterators, toString),
    // which may encode another block on this encoder. So the block is gathered
    // into a scratch no other call shares, and the encoder's state changes only
    // in the one native call at the end: nested blocks come out whole, in the
    // order they were made, and a throw while gathering changes nothing.
    const block = this.#block ?? newBlock();
    this.#block = null; // a throw while gathering drops it; the next call makes another
    block.text = '';
    block.count = 0;
    if (Array.isArray(headers)) {
      for (const pair of headers) {
        if (!Array.isArray(pair) || pair.length !== 2) throw invalid(TypeError, 'each header must be a [name, value] pair');
        this.#add(block, pair[0], pair[1]);
      }
    } else if (headers !== null && typeof headers === 'object') {
      for (const name of Object.keys(headers)) {
        const value = headers[name];
        if (Array.isArray(value)) for (const v of value) this.#add(block, name, v);
        else this.#add(block, name, value);
      }
    } else {
      throw invalid(TypeError, 'headers must be an array of [name, value] pairs or an object');
    }
    // No caller code runs from here on.
    const { text, fields, count } = block;
    block.text = ''; // not kept alive until the next block
    this.#block = block;
    return intoSlab((out, offset) => this.#native.encode(text, fields, count, out, offset));
  }

  #add(block, name, value) {
    if (typeof name !== 'string') throw invalid(TypeError, 'header names must be strings');
    if (value === undefined || value === null) throw invalid(TypeError, `header ${name} has no value`);
    const lower = name.toLowerCase();
    const str = typeof value === 'string' ? value : String(value);
    let fields = block.fields;
    const at = 3 * block.count++;
    if (at + 3 > fields.length) {
      fields = new Int32Array(2 * fields.length);
      fields.set(block.fields);
      block.fields = fields;
    }
    fields[at] = lower.length;
    fields[at + 1] = str.length;
    fields[at + 2] = this.#sensitive.has(lower) ? NEVER_INDEXED : 0;
    block.text += lower + str;
  }

  // Our dynamic table size (at most the peer's SETTINGS_HEADER_TABLE_SIZE); signalled in the next block.
  setTableSize(size) {
    this.#native.setTableSize(checkSize(size, 'tableSize', MAX_TABLE_SIZE));
  }
}

class Decoder {
  #native;
  #maxFields;
  // Filled by the addon with the field count and two refs per field.
  #refs = new Int32Array(1 + 2 * 64);

  constructor(options) {
    const { tableSize = 4096, maxHeaderListSize = 65536, maxStringLength = maxHeaderListSize } = checkOptions(options);
    // A decoded list crosses as one string, which V8 cannot make longer than
    // MAX_STRING_LENGTH (2^29 - 24 on 64-bit), and its strings are no longer
    // than its size: limits above (up to 2^32 - 1, the largest SETTINGS value) act as that.
    const listLimit = Math.min(checkSize(maxHeaderListSize, 'maxHeaderListSize', 0xffffffff), MAX_STRING_LENGTH);
    this.#native = new addon.Decoder(
      checkSize(tableSize, 'tableSize', MAX_TABLE_SIZE),
      listLimit,
      checkSize(maxStringLength, 'maxStringLength', 0xffffffff),
    );
    this.#maxFields = Math.floor(listLimit / FIELD_OVERHEAD);
  }

  // One complete header block -> [[name, value], ...]. Throws an Error with an
  // ERR_HPACK_* code on malformed input, and ERR_HPACK_POISONED on every call after that.
  decode(block) {
    if (!(block instanceof Uint8Array)) throw invalid(TypeError, 'block must be a Buffer or Uint8Array');
    // Every field takes at least one byte of the block.
    const room = 1 + 2 * Math.min(block.length, this.#maxFields);
    if (room > this.#refs.length) this.#refs = new Int32Array(Math.max(room, 2 * this.#refs.length));
    const text = this.#native.decode(block, this.#refs);
    const refs = this.#refs;
    const fields = new Array(refs[0]);
    let pos = 0;
    for (let i = 0, r = 1; i < fields.length; i++, r += 2) {
      let name, value;
      const nameRef = refs[r];
      const valueRef = refs[r + 1];
      if (nameRef < 0) name = STATIC_TABLE[2 * ~nameRef - 1];
      else name = text.slice(pos, (pos = nameRef));
      if (valueRef < 0) value = STATIC_TABLE[2 * ~valueRef];
      else value = text.slice(pos, (pos = valueRef));
      fields[i] = [name, value];
    }
    return fields;
  }

  // The protocol limit: our SETTINGS_HEADER_TABLE_SIZE once the peer acknowledged it.
  setTableSize(size) {
    this.#native.setTableSize(checkSize(size, 'tableSize', MAX_TABLE_SIZE));
  }
}

module.exports = { huffman, Encoder, Decoder };
