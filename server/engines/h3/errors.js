'use strict';
// HTTP/3 error codes (RFC 9114 8.1, RFC 9204 6) and the two ways the connection reports them:
// a connection error closes the QUIC connection with the code (CONNECTION_CLOSE), a stream error
// resets one request stream (RESET_STREAM, and STOP_SENDING while the request is still coming).

const ERROR = {
  H3_NO_ERROR: 0x100,
  H3_GENERAL_PROTOCOL_ERROR: 0x101,
  H3_INTERNAL_ERROR: 0x102,
  H3_STREAM_CREATION_ERROR: 0x103,
  H3_CLOSED_CRITICAL_STREAM: 0x104,
  H3_FRAME_UNEXPECTED: 0x105,
  H3_FRAME_ERROR: 0x106,
  H3_EXCESSIVE_LOAD: 0x107,
  H3_ID_ERROR: 0x108,
  H3_SETTINGS_ERROR: 0x109,
  H3_MISSING_SETTINGS: 0x10a,
  H3_REQUEST_REJECTED: 0x10b,
  H3_REQUEST_CANCELLED: 0x10c,
  H3_REQUEST_INCOMPLETE: 0x10d,
  H3_MESSAGE_ERROR: 0x10e,
  H3_CONNECT_ERROR: 0x10f,
  H3_VERSION_FALLBACK: 0x110,
  QPACK_DECOMPRESSION_FAILED: 0x200,
  QPACK_ENCODER_STREAM_ERROR: 0x201,
  QPACK_DECODER_STREAM_ERROR: 0x202,
};

const NAMES = Object.fromEntries(Object.entries(ERROR).map(([name, code]) => [code, name]));

function errorName(code) {
  return NAMES[code] || `0x${code.toString(16)}`;
}

class ConnectionError extends Error {
  constructor(code, message) {
    super(`${errorName(code)}: ${message}`);
    this.code = code;
  }
}

class StreamError extends Error {
  constructor(streamId, code, message) {
    super(`stream ${streamId} ${errorName(code)}: ${message}`);
    this.streamId = streamId;
    this.code = code;
  }
}

module.exports = { ERROR, ConnectionError, StreamError, errorName };
