'use strict';
// Response header blocks (HPACK, RFC 7541) for one connection. Two strategies:
// - 'encoder': one Encoder per connection with a dynamic table, so repeated responses shrink
//   to a few indexed fields;
// - 'cached': blocks of the core's prebuilt descriptors are encoded once per process with
//   static-table references only, which no connection's table state can invalidate.
// The Date field changes once a second and is appended to every block as a literal that
// never touches the dynamic table.

const { Encoder, huffman } = require('../hpack-addon').hpack();
const { currentDate } = require('../../http/date-clock');

const DEFAULT_TABLE_SIZE = 4096;
// Literal without indexing, name from static index 33 (date): 0000 1111, then 33 - 15.
const DATE_PREFIX = [0x0f, 33 - 15];

let dateOf = null;
let dateField = null;

function currentDateField() {
  const date = currentDate();
  if (date !== dateOf) {
    dateOf = date;
    const value = huffman.encode(date.text);
    dateField = Buffer.from([...DATE_PREFIX, 0x80 | value.length, ...value]);
  }
  return dateField;
}

// Dynamic table size update (RFC 7541 6.3) with a 5-bit prefix integer.
function sizeUpdate(size) {
  const bytes = [];
  if (size < 31) {
    bytes.push(0x20 | size);
  } else {
    bytes.push(0x3f);
    let rest = size - 31;
    while (rest >= 128) {
      bytes.push((rest & 0x7f) | 0x80);
      rest >>>= 7;
    }
    bytes.push(rest);
  }
  return Buffer.from(bytes);
}

const staticEncoder = new Encoder({ indexing: 'static' });
const cachedBlocks = new WeakMap();

function fieldsOf(d) {
  return d.h2 || { ':status': d.status, ...d.headers };
}

class ResponseHeaders {
  #encoder = null;
  #pendingUpdate = null;
  #parts = [null, null]; // reused: the caller copies the parts out before the next call

  // mode: 'cached' or 'encoder' (the responseHeaders setting, server/config/schema.js).
  constructor(mode) {
    if (mode === 'encoder') this.#encoder = new Encoder({ tableSize: DEFAULT_TABLE_SIZE });
  }

  // The peer's SETTINGS_HEADER_TABLE_SIZE: our table never exceeds it, and the next block
  // starts with a size update (RFC 7541 4.2).
  setPeerTableSize(size) {
    const ours = Math.min(size, DEFAULT_TABLE_SIZE);
    if (this.#encoder !== null) this.#encoder.setTableSize(ours);
    else this.#pendingUpdate = sizeUpdate(ours);
  }

  // [block, date field]: the parts of the header block of descriptor d, valid until the next call.
  parts(d) {
    const parts = this.#parts;
    if (this.#encoder !== null) {
      parts[0] = this.#encoder.encode(fieldsOf(d));
      parts[1] = currentDateField();
      return parts;
    }
    let block;
    if (d.h2) {
      block = cachedBlocks.get(d.h2);
      if (block === undefined) {
        block = Buffer.from(staticEncoder.encode(d.h2));
        cachedBlocks.set(d.h2, block);
      }
    } else {
      block = staticEncoder.encode(fieldsOf(d));
    }
    if (this.#pendingUpdate !== null) {
      const update = this.#pendingUpdate;
      this.#pendingUpdate = null;
      return [update, block, currentDateField()];
    }
    parts[0] = block;
    parts[1] = currentDateField();
    return parts;
  }
}

module.exports = { ResponseHeaders };
