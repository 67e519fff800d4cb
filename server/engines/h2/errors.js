'use strict';
// HTTP/2 error codes (RFC 9113 7) and the two ways the connection reports them (5.4).

const ERROR = {
  NO_ERROR: 0x0,
  PROTOCOL_ERROR: 0x1,
  INTERNAL_ERROR: 0x2,
  FLOW_CONTROL_ERROR: 0x3,
  SETTINGS_TIMEOUT: 0x4,
  STREAM_CLOSED: 0x5,
  FRAME_SIZE_ERROR: 0x6,
  REFUSED_STREAM: 0x7,
  CANCEL: 0x8,
  COMPRESSION_ERROR: 0x9,
  CONNECT_ERROR: 0xa,
  ENHANCE_YOUR_CALM: 0xb,
  INADEQUATE_SECURITY: 0xc,
  HTTP_1_1_REQUIRED: 0xd,
};

const NAMES = Object.fromEntries(Object.entries(ERROR).map(([name, code]) => [code, name]));

// A connection error: GOAWAY with `code`, then the connection closes.
class ConnectionError extends Error {
  constructor(code, message) {
    super(`${NAMES[code]}: ${message}`);
    this.code = code;
  }
}

// A stream error: RST_STREAM with `code` on `streamId`; the connection goes on.
class StreamError extends Error {
  constructor(streamId, code, message) {
    super(`stream ${streamId} ${NAMES[code]}: ${message}`);
    this.streamId = streamId;
    this.code = code;
  }
}

function errorName(code) {
  return NAMES[code] || `0x${code.toString(16)}`;
}

module.exports = { ERROR, ConnectionError, StreamError, errorName };
