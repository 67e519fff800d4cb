'use strict';
// SETTINGS parameters (RFC 9113 6.5): our SETTINGS frame, and validation of the peer's.

const { ERROR, ConnectionError } = require('./errors');
const { DEFAULT_MAX_FRAME_SIZE, MAX_ALLOWED_FRAME_SIZE, MAX_WINDOW_SIZE } = require('./frame-types');

const SETTING = {
  HEADER_TABLE_SIZE: 0x1,
  ENABLE_PUSH: 0x2,
  MAX_CONCURRENT_STREAMS: 0x3,
  INITIAL_WINDOW_SIZE: 0x4,
  MAX_FRAME_SIZE: 0x5,
  MAX_HEADER_LIST_SIZE: 0x6,
};
const ENTRY_LENGTH = 6;

// What the peer has told us (6.5.2 initial values until its SETTINGS arrive).
function defaultPeerSettings() {
  return { initialWindowSize: 65535, maxFrameSize: DEFAULT_MAX_FRAME_SIZE };
}

// Our SETTINGS payload: { maxConcurrentStreams, maxHeaderListSize } from the server's limits.
// Push is off (we never push); the frame size and windows stay at their defaults.
function encodeSettings({ maxConcurrentStreams, maxHeaderListSize }) {
  const entries = [
    [SETTING.ENABLE_PUSH, 0],
    [SETTING.MAX_CONCURRENT_STREAMS, maxConcurrentStreams],
    [SETTING.MAX_HEADER_LIST_SIZE, maxHeaderListSize],
  ];
  const out = Buffer.alloc(entries.length * ENTRY_LENGTH);
  entries.forEach(([id, value], i) => {
    out.writeUInt16BE(id, i * ENTRY_LENGTH);
    out.writeUInt32BE(value, i * ENTRY_LENGTH + 2);
  });
  return out;
}

// Reads a SETTINGS payload (length already checked to be a multiple of 6) into `peer`, in
// order, as 6.5.3 requires; onHeaderTableSize(value) hears every SETTINGS_HEADER_TABLE_SIZE,
// since the HPACK encoder owes the peer the smallest of them (RFC 7541 4.2), not just the last.
// Returns the change of SETTINGS_INITIAL_WINDOW_SIZE (to apply to every open stream, 6.9.2) or
// throws a ConnectionError. Unknown identifiers are ignored.
function applyPeerSettings(payload, peer, onHeaderTableSize) {
  const windowBefore = peer.initialWindowSize;
  for (let pos = 0; pos < payload.length; pos += ENTRY_LENGTH) {
    const id = payload.readUInt16BE(pos);
    const value = payload.readUInt32BE(pos + 2);
    switch (id) {
      case SETTING.HEADER_TABLE_SIZE:
        onHeaderTableSize(value);
        break;
      case SETTING.ENABLE_PUSH:
        if (value > 1) throw new ConnectionError(ERROR.PROTOCOL_ERROR, `SETTINGS_ENABLE_PUSH ${value}`);
        break;
      case SETTING.INITIAL_WINDOW_SIZE:
        if (value > MAX_WINDOW_SIZE) throw new ConnectionError(ERROR.FLOW_CONTROL_ERROR, `SETTINGS_INITIAL_WINDOW_SIZE ${value}`);
        peer.initialWindowSize = value;
        break;
      case SETTING.MAX_FRAME_SIZE:
        if (value < DEFAULT_MAX_FRAME_SIZE || value > MAX_ALLOWED_FRAME_SIZE) {
          throw new ConnectionError(ERROR.PROTOCOL_ERROR, `SETTINGS_MAX_FRAME_SIZE ${value}`);
        }
        peer.maxFrameSize = value;
        break;
      default:
        // MAX_CONCURRENT_STREAMS and MAX_HEADER_LIST_SIZE limit what we initiate (nothing) and
        // our response headers (a few hundred octets); unknown settings must be ignored.
        break;
    }
  }
  return peer.initialWindowSize - windowBefore;
}

module.exports = { SETTING, ENTRY_LENGTH, defaultPeerSettings, encodeSettings, applyPeerSettings };
