'use strict';
// Frame types, flags and fixed sizes of RFC 9113 4 and 6.

const FRAME = {
  DATA: 0x0,
  HEADERS: 0x1,
  PRIORITY: 0x2,
  RST_STREAM: 0x3,
  SETTINGS: 0x4,
  PUSH_PROMISE: 0x5,
  PING: 0x6,
  GOAWAY: 0x7,
  WINDOW_UPDATE: 0x8,
  CONTINUATION: 0x9,
};

const FLAG = {
  END_STREAM: 0x1,
  ACK: 0x1,
  END_HEADERS: 0x4,
  PADDED: 0x8,
  PRIORITY: 0x20,
};

const FRAME_HEADER_LENGTH = 9;
const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
const DEFAULT_MAX_FRAME_SIZE = 16384;
const MAX_ALLOWED_FRAME_SIZE = 0xffffff;
const DEFAULT_WINDOW_SIZE = 65535;
const MAX_WINDOW_SIZE = 0x7fffffff;

module.exports = {
  FRAME, FLAG, FRAME_HEADER_LENGTH, PREFACE,
  DEFAULT_MAX_FRAME_SIZE, MAX_ALLOWED_FRAME_SIZE, DEFAULT_WINDOW_SIZE, MAX_WINDOW_SIZE,
};
