'use strict';
// Frame payloads (RFC 9113 6) decoded apart from the connection, one pure function per frame
// type, as a server reads them. Each checks what the frame alone tells (its stream identifier
// where the type fixes it, its length, padding and fields) and returns the fields.
//
// A connection error is thrown. A stream error is returned in `error` (null when none) rather
// than thrown, since whether it is sent depends on the stream's state, which only the
// connection knows: a frame on a stream we reset is ignored (5.1), a WINDOW_UPDATE on a closed
// one too (6.9).

const { FLAG } = require('./frame-types');
const { ERROR, ConnectionError, StreamError } = require('./errors');
const { ENTRY_LENGTH } = require('./settings');

const PRIORITY_LENGTH = 5;

// The priority fields of HEADERS and PRIORITY (5.3.2 deprecates the scheme; the one rule kept
// is that a stream cannot depend on itself). The weight field holds the weight minus one.
function readPriority(payload, offset) {
  return {
    exclusive: (payload[offset] & 0x80) !== 0,
    dependency: payload.readUInt32BE(offset) & 0x7fffffff,
    weight: payload[offset + 4] + 1,
  };
}

function selfDependence(priority, id) {
  return priority !== null && priority.dependency === id
    ? new StreamError(id, ERROR.PROTOCOL_ERROR, 'stream depends on itself') : null;
}

// DATA (6.1): { data } without the padding.
function decodeDataPayload(flags, payload, id) {
  if (id === 0) throw new ConnectionError(ERROR.PROTOCOL_ERROR, 'DATA on stream 0');
  if (!(flags & FLAG.PADDED)) return { data: payload };
  if (payload.length === 0 || payload[0] >= payload.length) throw new ConnectionError(ERROR.PROTOCOL_ERROR, 'DATA padding too long');
  return { data: payload.subarray(1, payload.length - payload[0]) };
}

// HEADERS (6.2) from a client, so on an odd stream (5.1.1): { fragment, priority (null without
// the PRIORITY flag), error (a stream depending on itself) }.
function decodeHeadersPayload(flags, payload, id) {
  if (id === 0 || (id & 1) === 0) throw new ConnectionError(ERROR.PROTOCOL_ERROR, `HEADERS on stream ${id}`);
  let start = 0;
  let end = payload.length;
  if (flags & FLAG.PADDED) {
    if (end === 0) throw new ConnectionError(ERROR.PROTOCOL_ERROR, 'HEADERS without its pad length');
    end -= payload[0];
    start = 1;
  }
  let priority = null;
  if (flags & FLAG.PRIORITY) {
    if (start + PRIORITY_LENGTH > end) throw new ConnectionError(ERROR.PROTOCOL_ERROR, 'HEADERS padding or priority too long');
    priority = readPriority(payload, start);
    start += PRIORITY_LENGTH;
  }
  if (start > end) throw new ConnectionError(ERROR.PROTOCOL_ERROR, 'HEADERS padding too long');
  const fragment = start === 0 && end === payload.length ? payload : payload.subarray(start, end);
  return { fragment, priority, error: selfDependence(priority, id) };
}

// PRIORITY (6.3): { priority (null when the length is wrong), error }.
function decodePriorityPayload(payload, id) {
  if (id === 0) throw new ConnectionError(ERROR.PROTOCOL_ERROR, 'PRIORITY on stream 0');
  if (payload.length !== PRIORITY_LENGTH) {
    return { priority: null, error: new StreamError(id, ERROR.FRAME_SIZE_ERROR, 'PRIORITY length') };
  }
  const priority = readPriority(payload, 0);
  return { priority, error: selfDependence(priority, id) };
}

// RST_STREAM (6.4): { errorCode }.
function decodeRstStreamPayload(payload, id) {
  if (payload.length !== 4) throw new ConnectionError(ERROR.FRAME_SIZE_ERROR, 'RST_STREAM length');
  if (id === 0) throw new ConnectionError(ERROR.PROTOCOL_ERROR, 'RST_STREAM on idle stream 0');
  return { errorCode: payload.readUInt32BE(0) };
}

// SETTINGS (6.5): { ack }. The parameters themselves are read by settings.js.
function decodeSettingsPayload(flags, payload, id) {
  if (id !== 0) throw new ConnectionError(ERROR.PROTOCOL_ERROR, 'SETTINGS on a stream');
  const ack = (flags & FLAG.ACK) !== 0;
  if (ack && payload.length !== 0) throw new ConnectionError(ERROR.FRAME_SIZE_ERROR, 'SETTINGS ACK with a payload');
  if (payload.length % ENTRY_LENGTH !== 0) throw new ConnectionError(ERROR.FRAME_SIZE_ERROR, 'SETTINGS length');
  return { ack };
}

// PING (6.7): { ack, data } (the 8 octets to echo).
function decodePingPayload(flags, payload, id) {
  if (id !== 0) throw new ConnectionError(ERROR.PROTOCOL_ERROR, 'PING on a stream');
  if (payload.length !== 8) throw new ConnectionError(ERROR.FRAME_SIZE_ERROR, 'PING length');
  return { ack: (flags & FLAG.ACK) !== 0, data: payload };
}

// GOAWAY (6.8): { lastStreamId, errorCode, debugData }.
function decodeGoawayPayload(payload, id) {
  if (id !== 0) throw new ConnectionError(ERROR.PROTOCOL_ERROR, 'GOAWAY on a stream');
  if (payload.length < 8) throw new ConnectionError(ERROR.FRAME_SIZE_ERROR, 'GOAWAY length');
  return {
    lastStreamId: payload.readUInt32BE(0) & 0x7fffffff,
    errorCode: payload.readUInt32BE(4),
    debugData: payload.subarray(8),
  };
}

// WINDOW_UPDATE (6.9): { increment, error }. An increment of 0 is a connection error on
// stream 0 and a stream error on a stream (6.9.1).
function decodeWindowUpdatePayload(payload, id) {
  if (payload.length !== 4) throw new ConnectionError(ERROR.FRAME_SIZE_ERROR, 'WINDOW_UPDATE length');
  const increment = payload.readUInt32BE(0) & 0x7fffffff;
  if (increment !== 0) return { increment, error: null };
  if (id === 0) throw new ConnectionError(ERROR.PROTOCOL_ERROR, 'WINDOW_UPDATE of 0');
  return { increment, error: new StreamError(id, ERROR.PROTOCOL_ERROR, 'WINDOW_UPDATE of 0') };
}

module.exports = {
  decodeDataPayload,
  decodeHeadersPayload,
  decodePriorityPayload,
  decodeRstStreamPayload,
  decodeSettingsPayload,
  decodePingPayload,
  decodeGoawayPayload,
  decodeWindowUpdatePayload,
};
