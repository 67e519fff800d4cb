'use strict';
// The HPACK core for Node: option checks and header normalisation around the
// addon, which does all parsing and encoding in C.
//
// Header names and values are latin1 strings (one byte per character), as in
// Node's http2 module. huffman.* take bytes; a string there means its UTF-8 bytes.

const path = require('node:path');
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

const huffman = {
  encode: (input) => addon.huffman.encode(toBytes(input)),
  decode: (input) => addon.huffman.decode(toBytes(input)),
  encodedLength: (input) => addon.huffman.encodedLength(toBytes(input)),
};

// [[name, value], ...] or { name: value | [values] } -> flat [name, value, ...] with lower-case names.
function flatten(headers) {
  const flat = [];
  const push = (name, value) => {
    if (typeof name !== 'string') throw invalid(TypeError, 'header names must be strings');
    if (value === undefined || value === null) throw invalid(TypeError, `header ${name} has no value`);
    flat.push(name.toLowerCase(), typeof value === 'string' ? value : String(value));
  };
  if (Array.isArray(headers)) {
    for (const pair of headers) {
      if (!Array.isArray(pair) || pair.length !== 2) throw invalid(TypeError, 'each header must be a [name, value] pair');
      push(pair[0], pair[1]);
    }
  } else if (headers !== null && typeof headers === 'object') {
    for (const name of Object.keys(headers)) {
      const value = headers[name];
      if (Array.isArray(value)) for (const v of value) push(name, v);
      else push(name, value);
    }
  } else {
    throw invalid(TypeError, 'headers must be an array of [name, value] pairs or an object');
  }
  return flat;
}

class Encoder {
  #native;
  #sensitive;

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

  // One header block as a Buffer.
  encode(headers) {
    const flat = flatten(headers);
    let flags;
    if (this.#sensitive.size) {
      flags = new Uint8Array(flat.length / 2);
      for (let i = 0; i < flags.length; i++) if (this.#sensitive.has(flat[2 * i])) flags[i] = NEVER_INDEXED;
    }
    return this.#native.encode(flat, flags);
  }

  // Our dynamic table size (at most the peer's SETTINGS_HEADER_TABLE_SIZE); signalled in the next block.
  setTableSize(size) {
    this.#native.setTableSize(checkSize(size, 'tableSize', MAX_TABLE_SIZE));
  }
}

class Decoder {
  #native;

  constructor(options) {
    const { tableSize = 4096, maxHeaderListSize = 65536, maxStringLength = maxHeaderListSize } = checkOptions(options);
    this.#native = new addon.Decoder(
      checkSize(tableSize, 'tableSize', MAX_TABLE_SIZE),
      checkSize(maxHeaderListSize, 'maxHeaderListSize', 0xffffffff),
      checkSize(maxStringLength, 'maxStringLength', 0xffffffff),
    );
  }

  // One complete header block -> [[name, value], ...]. Throws an Error with an
  // ERR_HPACK_* code on malformed input, and ERR_HPACK_POISONED on every call after that.
  decode(block) {
    if (!(block instanceof Uint8Array)) throw invalid(TypeError, 'block must be a Buffer or Uint8Array');
    return this.#native.decode(block);
  }

  // The protocol limit: our SETTINGS_HEADER_TABLE_SIZE once the peer acknowledged it.
  setTableSize(size) {
    this.#native.setTableSize(checkSize(size, 'tableSize', MAX_TABLE_SIZE));
  }
}

module.exports = { huffman, Encoder, Decoder };
