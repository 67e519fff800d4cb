'use strict';
// QPACK (RFC 9204) for Node over the C core: one native call per field
// section; encoder-stream and decoder-stream bytes in and out as Buffers.
// Names and values are latin1 strings (one byte per character), as for the
// HPACK Encoder and Decoder, so any bytes pass through unchanged.

const path = require('node:path');
const addon = require(path.join(__dirname, '..', 'build', 'Release', 'hpack.node'));

const NEVER_INDEXED = 1; // HPACK_HEADER_NEVER_INDEXED
const ENCODER_HUFFMAN = 1; // HPACK_ENCODER_HUFFMAN
const ENCODER_INDEX_SHORT_COOKIES = 2; // HPACK_ENCODER_INDEX_SHORT_COOKIES
const ENCODER_INDEX_VOLATILE = 4; // HPACK_ENCODER_INDEX_VOLATILE
const MAX_TABLE_CAPACITY = 1 << 24; // HPACK_MAX_TABLE_SIZE
const MAX_STREAM_ID = 0xffffffff; // the C core's integers are 32-bit
const NOT_LATIN1 = /[^\x00-\xff]/;

function invalid(ErrorType, message) {
  const err = new ErrorType(message);
  err.code = 'ERR_QPACK_INVALID_ARGUMENT';
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

function checkBytes(bytes, name) {
  if (!(bytes instanceof Uint8Array)) throw invalid(TypeError, `${name} must be a Buffer or Uint8Array`);
  return bytes;
}

// A field section as the addon takes it: names and values concatenated, and
// per field its name length, value length and flags.
function packFields(headers, sensitive) {
  const pairs = [];
  if (Array.isArray(headers)) {
    for (const pair of headers) {
      if (!Array.isArray(pair) || pair.length !== 2) throw invalid(TypeError, 'each field must be a [name, value] pair');
      pairs.push(pair);
    }
  } else if (headers !== null && typeof headers === 'object') {
    for (const name of Object.keys(headers)) {
      const value = headers[name];
      for (const v of Array.isArray(value) ? value : [value]) pairs.push([name, v]);
    }
  } else {
    throw invalid(TypeError, 'headers must be an array of [name, value] pairs or an object');
  }
  const fields = new Int32Array(3 * pairs.length);
  let text = '';
  pairs.forEach(([name, value], i) => {
    if (typeof name !== 'string') throw invalid(TypeError, 'field names must be strings');
    if (value === undefined || value === null) throw invalid(TypeError, `field ${name} has no value`);
    const lower = name.toLowerCase();
    const str = typeof value === 'string' ? value : String(value);
    if (NOT_LATIN1.test(lower) || NOT_LATIN1.test(str)) {
      throw invalid(TypeError, `field ${JSON.stringify(lower)} has characters above \\xff (use latin1 strings for bytes)`);
    }
    fields[3 * i] = lower.length;
    fields[3 * i + 1] = str.length;
    fields[3 * i + 2] = sensitive.has(lower) ? NEVER_INDEXED : 0;
    text += lower + str;
  });
  return { text, fields, count: pairs.length };
}

class QpackEncoder {
  #native;
  #sensitive;

  constructor(options) {
    const {
      // The peer's SETTINGS_QPACK_MAX_TABLE_CAPACITY and SETTINGS_QPACK_BLOCKED_STREAMS.
      maxTableCapacity = 0,
      tableCapacity = maxTableCapacity,
      maxBlockedStreams = 0,
      huffman = true,
      sensitive = [],
      neverIndexShortCookies = true,
      indexVolatileFields = false,
    } = checkOptions(options);
    checkSize(maxTableCapacity, 'maxTableCapacity', 0xffffffff);
    checkSize(tableCapacity, 'tableCapacity', Math.min(maxTableCapacity, MAX_TABLE_CAPACITY));
    checkSize(maxBlockedStreams, 'maxBlockedStreams', 0xffffffff);
    if (!Array.isArray(sensitive) || !sensitive.every((n) => typeof n === 'string')) {
      throw invalid(TypeError, 'sensitive must be an array of field names');
    }
    const flags =
      (huffman ? ENCODER_HUFFMAN : 0) |
      (neverIndexShortCookies ? 0 : ENCODER_INDEX_SHORT_COOKIES) |
      (indexVolatileFields ? ENCODER_INDEX_VOLATILE : 0);
    this.#native = new addon.QpackEncoder(maxTableCapacity, tableCapacity, maxBlockedStreams, flags);
    this.#sensitive = new Set(sensitive.map((n) => n.toLowerCase()));
  }

  // One field section for streamId -> { section, encoderStream }: the bytes for
  // the request stream and the encoder-stream instructions to send first.
  encode(streamId, headers) {
    checkSize(streamId, 'streamId', MAX_STREAM_ID);
    const { text, fields, count } = packFields(headers, this.#sensitive);
    const [section, encoderStream] = this.#native.encode(streamId, text, fields, count);
    return { section, encoderStream };
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
    return this.#native.readDecoderStream();
  }
}

module.exports = { QpackEncoder, QpackDecoder };
