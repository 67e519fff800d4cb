'use strict';
// The encoders' side of a block or section: options shared by the HPACK and
// QPACK encoders, and the fields gathered as the addon takes them, names and
// values concatenated in one latin1 string plus, per field, its name length,
// value length and flags (see native/binding/field_text.h).

const NEVER_INDEXED = 1; // HPACK_HEADER_NEVER_INDEXED
const ENCODER_HUFFMAN = 1; // HPACK_ENCODER_HUFFMAN
const ENCODER_INDEX_SHORT_COOKIES = 2; // HPACK_ENCODER_INDEX_SHORT_COOKIES
const ENCODER_INDEX_VOLATILE = 4; // HPACK_ENCODER_INDEX_VOLATILE
const ENCODER_FIXED_RULES = 8; // HPACK_ENCODER_FIXED_RULES

// The addon's HPACK_ENCODER_* flags for an encoder's options.
function encoderFlags({
  huffman = true,
  // Cookies under 20 bytes are never indexed (they could be guessed through
  // the compression ratio); false reproduces the paper's strategies exactly.
  neverIndexShortCookies = true,
  // Fields unlikely to repeat are not indexed unless this is true: see
  // learnRepeats.
  indexVolatileFields = false,
  // The HPACK linear encoder learns which names' entries get reused and stops
  // inserting fields of the others unless they came recently; false uses the
  // paper's fixed list instead (:path, content-length, content-location,
  // etag, set-cookie and age values are never indexed).
  learnRepeats = true,
}) {
  return (
    (huffman ? ENCODER_HUFFMAN : 0) |
    (neverIndexShortCookies ? 0 : ENCODER_INDEX_SHORT_COOKIES) |
    (indexVolatileFields ? ENCODER_INDEX_VOLATILE : 0) |
    (learnRepeats ? 0 : ENCODER_FIXED_RULES)
  );
}

function newBlock() {
  return { text: '', count: 0, fields: new Int32Array(3 * 64) };
}

// Gathers [[name, value], ...] or { name: value | [values] } for one encoder;
// names are lower-cased, and those in sensitive go out never indexed. noun
// ('header', 'field') names them in errors made by invalid (see args.js).
class FieldPacker {
  #sensitive;
  #invalid;
  #noun;
  // Reused across blocks; null while pack is gathering into it.
  #block = newBlock();

  constructor(sensitive, invalid, noun) {
    if (!Array.isArray(sensitive) || !sensitive.every((n) => typeof n === 'string')) {
      throw invalid(TypeError, `sensitive must be an array of ${noun} names`);
    }
    this.#sensitive = new Set(sensitive.map((n) => n.toLowerCase()));
    this.#invalid = invalid;
    this.#noun = noun;
  }

  // { text, fields, count } for the addon, valid until the next pack: the
  // caller hands them to the addon at once.
  pack(headers) {
    // Reading headers can run the caller's code (getters, iterators, toString),
    // which may encode another block on this encoder. So the block is gathered
    // into a scratch no other call shares, and the encoder's state changes only
    // in the one native call after pack: nested blocks come out whole, in the
    // order they were made, and a throw while gathering changes nothing.
    const block = this.#block ?? newBlock();
    this.#block = null; // a throw while gathering drops it; the next call makes another
    block.text = '';
    block.count = 0;
    if (Array.isArray(headers)) {
      for (const pair of headers) {
        if (!Array.isArray(pair) || pair.length !== 2) {
          throw this.#invalid(TypeError, `each ${this.#noun} must be a [name, value] pair`);
        }
        this.#add(block, pair[0], pair[1]);
      }
    } else if (headers !== null && typeof headers === 'object') {
      for (const name of Object.keys(headers)) {
        const value = headers[name];
        if (Array.isArray(value)) for (const v of value) this.#add(block, name, v);
        else this.#add(block, name, value);
      }
    } else {
      throw this.#invalid(TypeError, 'headers must be an array of [name, value] pairs or an object');
    }
    // No caller code runs from here on.
    const { text, fields, count } = block;
    block.text = ''; // not kept alive until the next block
    this.#block = block;
    return { text, fields, count };
  }

  #add(block, name, value) {
    if (typeof name !== 'string') throw this.#invalid(TypeError, `${this.#noun} names must be strings`);
    if (value === undefined || value === null) throw this.#invalid(TypeError, `${this.#noun} ${name} has no value`);
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
}

module.exports = { encoderFlags, FieldPacker };
