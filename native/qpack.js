'use strict';
// QPACK (RFC 9204) for Node over the C core: one native call per field
// section; encoder-stream and decoder-stream bytes in and out as Buffers.
// Names and values are latin1 strings (one byte per character), as for the
// HPACK Encoder and Decoder, so any bytes pass through unchanged.

const addon = require('./js/addon');
const { argumentChecks } = require('./js/args');
const { encoderFlags, FieldPacker } = require('./js/fields');
const { intoSlab } = require('./js/slab');

const { invalid, checkSize, checkOptions, checkBytes } = argumentChecks('ERR_QPACK_INVALID_ARGUMENT');
const MAX_TABLE_CAPACITY = addon.maxTableSize; // HPACK_MAX_TABLE_SIZE
const MAX_STREAM_ID = 0xffffffff; // the C core's integers are 32-bit

class QpackEncoder {
  #native;
  #packer;

  constructor(options) {
    const opts = checkOptions(options);
    const {
      // The peer's SETTINGS_QPACK_MAX_TABLE_CAPACITY and SETTINGS_QPACK_BLOCKED_STREAMS.
      maxTableCapacity = 0,
      tableCapacity = maxTableCapacity,
      maxBlockedStreams = 0,
      sensitive = [],
    } = opts;
    checkSize(maxTableCapacity, 'maxTableCapacity', 0xffffffff);
    checkSize(tableCapacity, 'tableCapacity', Math.min(maxTableCapacity, MAX_TABLE_CAPACITY));
    checkSize(maxBlockedStreams, 'maxBlockedStreams', 0xffffffff);
    this.#packer = new FieldPacker(sensitive, invalid, 'field');
    this.#native = new addon.QpackEncoder(maxTableCapacity, tableCapacity, maxBlockedStreams, encoderFlags(opts));
  }

  // One field section for streamId -> { section, encoderStream, fieldBytes }: the
  // bytes for the request stream, the encoder-stream instructions to send first,
  // and the section's name and value octets (no 32-octet per-field overhead), the
  // uncompressed size a compression ratio divides by. Names
  // and values are latin1 strings: a character above U+00FF is an
  // ERR_QPACK_INVALID_ARGUMENT TypeError, and the encoder is left as it was.
  encode(streamId, headers) {
    checkSize(streamId, 'streamId', MAX_STREAM_ID);
    const { text, fields, count } = this.#packer.pack(headers);
    const section = intoSlab((out, offset) => this.#native.encode(streamId, text, fields, count, out, offset));
    const encoderStream = intoSlab((out, offset) => this.#native.readEncoderStream(out, offset));
    return { section, encoderStream, fieldBytes: text.length };
  }

  // Bytes from the peer's decoder stream. Throws ERR_QPACK_DECODER_STREAM_ERROR (h3Code 0x202).
  feedDecoder(bytes) {
    this.#native.feedDecoder(checkBytes(bytes, 'bytes'));
  }

  // Treat every section so far as acknowledged (offline runs with immediate acknowledgments).
  assumeAcknowledged() {
    this.#native.assumeAcknowledged();
  }

  get insertCount() {
    return this.#native.state()[0];
  }

  get knownReceivedCount() {
    return this.#native.state()[1];
  }

  get blockedStreams() {
    return this.#native.state()[2];
  }
}

class QpackDecoder {
  #native;

  constructor(options) {
    const {
      // Our SETTINGS_QPACK_MAX_TABLE_CAPACITY, SETTINGS_QPACK_BLOCKED_STREAMS, SETTINGS_MAX_FIELD_SECTION_SIZE.
      maxTableCapacity = 0,
      maxBlockedStreams = 0,
      maxFieldSectionSize = 65536,
      // An inserted entry may be as large as the table, so a string limit below that would reject valid inserts.
      maxStringLength = Math.max(maxFieldSectionSize, maxTableCapacity),
      // Memory for sections waiting on inserts, all blocked streams together.
      maxBlockedBytes = 1 << 20,
    } = checkOptions(options);
    this.#native = new addon.QpackDecoder(
      checkSize(maxTableCapacity, 'maxTableCapacity', MAX_TABLE_CAPACITY),
      checkSize(maxBlockedStreams, 'maxBlockedStreams', 0xffffffff),
      checkSize(maxFieldSectionSize, 'maxFieldSectionSize', 0xffffffff),
      checkSize(maxStringLength, 'maxStringLength', 0xffffffff),
      checkSize(maxBlockedBytes, 'maxBlockedBytes', 0xffffffff),
    );
  }

  // One complete field section -> [[name, value], ...], or null when it waits
  // for inserts (feedEncoder returns it later). Throws ERR_QPACK_* errors; the
  // RFC 9204 connection errors carry h3Code and poison the decoder.
  decode(streamId, section) {
    return this.#native.decode(checkSize(streamId, 'streamId', MAX_STREAM_ID), checkBytes(section, 'section'));
  }

  // Bytes from the peer's encoder stream -> [{ streamId, headers }] for the
  // sections they unblocked, in arrival order.
  feedEncoder(bytes) {
    const flat = this.#native.feedEncoder(checkBytes(bytes, 'bytes'));
    const out = [];
    for (let i = 0; i < flat.length; i += 2) out.push({ streamId: flat[i], headers: flat[i + 1] });
    return out;
  }

  // The stream was reset: forget its waiting section and tell the encoder.
  cancelStream(streamId) {
    this.#native.cancelStream(checkSize(streamId, 'streamId', MAX_STREAM_ID));
  }

  // Decoder-stream bytes to send to the peer (acknowledgments, cancellations, increments).
  readDecoderStream() {
    return intoSlab((out, offset) => this.#native.readDecoderStream(out, offset));
  }
}

module.exports = { QpackEncoder, QpackDecoder };
