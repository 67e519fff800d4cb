'use strict';
// SETTINGS (RFC 9114 7.2.4, RFC 9204 5): ours, sent first on our control stream, and the
// peer's, which must be the first frame of its control stream.

const { readVarint, writeVarint, varintLength } = require('./varint');
const { ERROR, ConnectionError } = require('./errors');

const SETTING = {
  QPACK_MAX_TABLE_CAPACITY: 0x01,
  MAX_FIELD_SECTION_SIZE: 0x06,
  QPACK_BLOCKED_STREAMS: 0x07,
};
// 7.2.4.1: identifiers HTTP/2 had (ENABLE_PUSH, MAX_CONCURRENT_STREAMS, INITIAL_WINDOW_SIZE,
// MAX_FRAME_SIZE) are an error in HTTP/3.
const HTTP2_ONLY = new Set([0x2, 0x3, 0x4, 0x5]);

// settings: { qpackMaxTableCapacity, qpackBlockedStreams, maxFieldSectionSize } (config/limits.js HTTP3.settings).
function encodeSettings(settings) {
  const pairs = [
    [SETTING.QPACK_MAX_TABLE_CAPACITY, settings.qpackMaxTableCapacity],
    [SETTING.QPACK_BLOCKED_STREAMS, settings.qpackBlockedStreams],
    [SETTING.MAX_FIELD_SECTION_SIZE, settings.maxFieldSectionSize],
  ];
  const size = pairs.reduce((n, [id, value]) => n + varintLength(id) + varintLength(value), 0);
  const out = Buffer.allocUnsafe(size);
  let pos = 0;
  for (const [id, value] of pairs) pos = writeVarint(out, writeVarint(out, pos, id), value);
  return out;
}

// The peer's SETTINGS payload -> { qpackMaxTableCapacity, qpackBlockedStreams,
// maxFieldSectionSize } with the defaults of what it left out (0, 0, unlimited); unknown and
// reserved identifiers are ignored (7.2.4.1).
function decodeSettings(payload) {
  const seen = new Set();
  const peer = { qpackMaxTableCapacity: 0, qpackBlockedStreams: 0, maxFieldSectionSize: Infinity };
  let pos = 0;
  while (pos < payload.length) {
    const id = readVarint(payload, pos);
    const value = id === null ? null : readVarint(payload, pos + id.length);
    if (value === null) throw new ConnectionError(ERROR.H3_FRAME_ERROR, 'truncated SETTINGS');
    pos += id.length + value.length;
    if (seen.has(id.value)) throw new ConnectionError(ERROR.H3_SETTINGS_ERROR, `setting 0x${id.value.toString(16)} twice`);
    seen.add(id.value);
    if (HTTP2_ONLY.has(id.value)) throw new ConnectionError(ERROR.H3_SETTINGS_ERROR, `HTTP/2 setting 0x${id.value.toString(16)}`);
    switch (id.value) {
      case SETTING.QPACK_MAX_TABLE_CAPACITY: peer.qpackMaxTableCapacity = value.value; break;
      case SETTING.QPACK_BLOCKED_STREAMS: peer.qpackBlockedStreams = value.value; break;
      case SETTING.MAX_FIELD_SECTION_SIZE: peer.maxFieldSectionSize = value.value; break;
      default: break;
    }
  }
  return peer;
}

module.exports = { SETTING, encodeSettings, decodeSettings };
