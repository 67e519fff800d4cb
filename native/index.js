'use strict';
// The HPACK core for Node: option checks and header normalisation around the
// addon, which does all parsing and encoding in C. QPACK is in qpack.js.
//
// Header names and values are latin1 strings (one byte per character), as in
// Node's http2 module. huffman.* take bytes; a string there means its UTF-8 bytes.

const { MAX_STRING_LENGTH } = require('node:buffer').constants;
const addon = require('./js/addon');
const { argumentChecks } = require('./js/args');
const { encoderFlags, FieldPacker } = require('./js/fields');
const { intoSlab } = require('./js/slab');
const { QpackEncoder, QpackDecoder } = require('./qpack');

const { invalid, checkSize, checkOptions, checkBytes } = argumentChecks('ERR_HPACK_INVALID_ARGUMENT');
const INDEXING = { none: 0, static: 1, linear: 2 };
const MAX_TABLE_SIZE = addon.maxTableSize; // HPACK_MAX_TABLE_SIZE

function toBytes(input) {
  if (typeof input === 'string') return Buffer.from(input, 'utf8');
  if (input instanceof Uint8Array) return input;
  throw invalid(TypeError, 'input must be a string, Buffer or Uint8Array');
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

// What the encoders read of a PackedHeaders: { text (its bytes), fields, count }.
let listText;

// A header list packed once for encoding many times, by any Encoder: the server's responses
// to one file are the same list on every connection, each with its own dynamic table. Names in
// options.sensitive go out never indexed, as with an Encoder's own option. Its bytes are its
// own and never change, which is what lets an encoder send a list's block again.
class PackedHeaders {
  #bytes;
  #fields;
  #count;

  static {
    listText = (list) => ({ text: list.#bytes, fields: list.#fields, count: list.#count });
  }

  constructor(headers, options) {
    const { sensitive = [] } = checkOptions(options);
    const { text, fields, count } = new FieldPacker(sensitive, invalid, 'header').pack(headers);
    const wide = /[^\x00-\xff]/.exec(text);
    if (wide !== null) {
      throw invalid(TypeError, `header ${fieldAt(fields, wide.index)} has U+${wide[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}:`
        + ' header names and values must be latin1 strings (no code unit above 0xFF)');
    }
    this.#bytes = Buffer.from(text, 'latin1');
    this.#fields = fields.slice(0, 3 * count);
    this.#count = count;
  }

  /** The number of fields. */
  get count() {
    return this.#count;
  }
}

// "N name" or "N value": where character `at` of a packed text lies.
function fieldAt(fields, at) {
  let start = 0;
  for (let i = 0; ; i++) {
    const nameEnd = start + fields[3 * i];
    start = nameEnd + fields[3 * i + 1];
    if (at < start) return `${i} ${at < nameEnd ? 'name' : 'value'}`;
  }
}

class Encoder {
  #native;
  #packer;
  // [hpack_encoder_changes()], kept current by the addon after every call.
  #changes = new Float64Array(1);
  // Per PackedHeaders: { bytes, changes } of its last block that changed nothing, sent again
  // as long as nothing changed since (see hpack_encoder_changes in native/include/hpack.h).
  #repeats = new WeakMap();
  #closed = false;

  constructor(options) {
    const opts = checkOptions(options);
    const { tableSize = 4096, indexing = 'linear', sensitive = [] } = opts;
    if (!Object.hasOwn(INDEXING, indexing)) {
      throw invalid(RangeError, `indexing must be 'linear', 'static' or 'none', got ${indexing}`);
    }
    this.#packer = new FieldPacker(sensitive, invalid, 'header');
    checkSize(tableSize, 'tableSize', MAX_TABLE_SIZE);
    this.#native = new addon.Encoder(tableSize, INDEXING[indexing], encoderFlags(opts), this.#changes);
  }

  // One header block as a Buffer, from [[name, value], ...] or { name: value | [values] }.
  // Header names and values are latin1 strings: a character above U+00FF is an
  // ERR_HPACK_INVALID_ARGUMENT TypeError, never silently cut to a byte.
  // A PackedHeaders is encoded as it was packed (its own sensitive names).
  encode(headers) {
    const { text, fields, count } = headers instanceof PackedHeaders ? listText(headers) : this.#packer.pack(headers);
    return intoSlab((out, offset) => this.#native.encode(text, fields, count, out, offset));
  }

  // The block of a PackedHeaders written into out at offset, for a caller that frames it in place:
  // returns its length, or, when out may not have room for it from offset, writes nothing,
  // leaves the encoder as it was and returns the room it needs (more than there is). A list
  // whose last block changed nothing is copied from it while nothing else changed either: a
  // response repeated on a connection costs a copy of a few indexed fields, not an encoding.
  encodeInto(list, out, offset) {
    if (!(list instanceof PackedHeaders) || this.#closed) {
      throw invalid(TypeError, this.#closed ? 'the encoder is closed' : 'list must be a PackedHeaders');
    }
    const changes = this.#changes[0];
    const repeat = this.#repeats.get(list);
    // (Arguments the addon would refuse go to it, for its error.)
    if (repeat !== undefined && repeat.changes === changes && out instanceof Uint8Array && Number.isInteger(offset) && offset >= 0 && offset <= out.length) {
      const bytes = repeat.bytes;
      if (out.length - offset < bytes.length) return bytes.length;
      return bytes.copy(out, offset);
    }
    const { text, fields, count } = listText(list);
    const n = this.#native.encode(text, fields, count, out, offset);
    if (this.#changes[0] === changes && n <= out.length - offset) {
      this.#repeats.set(list, { bytes: Buffer.from(out.subarray(offset, offset + n)), changes });
    }
    return n;
  }

  // Frees the dynamic table now rather than at garbage collection; any later call throws.
  close() {
    this.#closed = true;
    this.#native.close();
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
    checkBytes(block, 'block');
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

// glibc's malloc_trim(0) (native/binding/release_memory.cc): true when memory went back to the
// system; false where there was none to give, or off glibc.
const releaseFreeMemory = () => addon.releaseFreeMemory();

module.exports = { huffman, Encoder, PackedHeaders, Decoder, QpackEncoder, QpackDecoder, releaseFreeMemory };
