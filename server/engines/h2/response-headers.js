'use strict';
// Response header blocks (HPACK, RFC 7541) for one connection: one C Encoder with its own dynamic
// table, so a response repeated on a connection shrinks to a few indexed fields. What is shared
// across connections is the header list, packed once per prebuilt descriptor and second (the
// Date field is part of it): each connection encodes it against its own table, straight into
// the frame writer's buffer, in one native call. Which fields enter the table is the encoder's
// linear strategy (native/include/hpack.h): lengths are never indexed, Date and ETags only
// once they repeat, and set-cookie goes out as a never-indexed literal (RFC 7541 7.1.3).

const { Encoder, PackedHeaders } = require('../hpack-addon').hpack();
const { currentDate } = require('../../http/date-clock');

// The table both ends start with (RFC 9113 6.5.2) and the largest we use: a few responses'
// fields fit in it, and a larger one would only cost memory per connection.
const DEFAULT_TABLE_SIZE = 4096;
const LIST_OPTIONS = { sensitive: ['set-cookie'] };

// Per prebuilt descriptor's h2 fields: { date, list } for the second the list was packed in.
const packed = new WeakMap();

function packedList(d, date) {
  if (!d.h2) return new PackedHeaders({ ':status': d.status, ...d.headers, date: date.text }, LIST_OPTIONS);
  let entry = packed.get(d.h2);
  if (entry === undefined) {
    entry = { date: null, list: null };
    packed.set(d.h2, entry);
  }
  if (entry.date !== date) {
    entry.list = new PackedHeaders({ ...d.h2, date: date.text }, LIST_OPTIONS);
    entry.date = date;
  }
  return entry.list;
}

class ResponseHeaders {
  // Made for the first block (about 20 KB of tables): a connection that never gets a response
  // (idle, a flood, a failed handshake of the protocol) costs none.
  #encoder = null;
  #tableSize = DEFAULT_TABLE_SIZE;
  #lowestSize = DEFAULT_TABLE_SIZE; // before the encoder exists: the smallest size set
  #closed = false;
  #clock;

  // clock: () => { second, text }, the same object all through a second (http/date-clock.js).
  constructor(clock = currentDate) {
    this.#clock = clock;
  }

  // Each SETTINGS_HEADER_TABLE_SIZE the peer sends, in order: our table never exceeds it, and
  // a change starts the next block with a size update (RFC 7541 4.2; the smallest size set
  // since the last block first, so a peer that went to 0 and back sees its table emptied).
  setPeerTableSize(size) {
    const ours = Math.min(size, DEFAULT_TABLE_SIZE);
    if (ours === this.#tableSize) return;
    this.#tableSize = ours;
    if (this.#encoder !== null) this.#encoder.setTableSize(ours);
    else this.#lowestSize = Math.min(this.#lowestSize, ours);
  }

  // The header list of descriptor d, to pass to encodeInto (now: its Date is this second's).
  list(d) {
    return packedList(d, this.#clock());
  }

  // The block of list at out[offset...]: its length, or the room it needs when out has less
  // (then nothing was written and the table is unchanged). Blocks must be sent in the order
  // they are encoded: the frame writer frames each as it is made.
  encodeInto(list, out, offset) {
    return (this.#encoder ?? this.#open()).encodeInto(list, out, offset);
  }

  // The connection is gone: its table is freed now.
  close() {
    this.#closed = true;
    this.#encoder?.close();
  }

  // The encoder, owing the peer the sizes it set so far as if it had existed all along.
  #open() {
    if (this.#closed) throw new Error('response headers after the connection closed');
    const encoder = new Encoder({ tableSize: DEFAULT_TABLE_SIZE });
    if (this.#lowestSize !== DEFAULT_TABLE_SIZE) encoder.setTableSize(this.#lowestSize);
    if (this.#tableSize !== this.#lowestSize) encoder.setTableSize(this.#tableSize);
    this.#encoder = encoder;
    return encoder;
  }
}

module.exports = { ResponseHeaders, DEFAULT_TABLE_SIZE };
