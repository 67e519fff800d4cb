'use strict';
// The input format of the h3-connection fuzz target: what a client does on its streams, as a
// list of records, each
//
//   tag (1 octet) | length (2 octets, big-endian) | that many octets (fewer if the input ends)
//
// tag bits 0-2: the stream. 0-2: the client's unidirectional streams A, B and C, each opened at
//   its first record; its first octets are its stream type (0x00 control, 0x02 QPACK encoder,
//   0x03 QPACK decoder, anything else), so the mutator can reorder, double or mistype them.
//   3-7: request streams 0-4, opened in the order of their first records (ids 0, 4, 8, ...).
// tag bits 3-4: what happens on it. 0: the octets arrive; 1: they arrive with FIN; 2: the
//   client resets the stream (RESET_STREAM H3_REQUEST_CANCELLED; octets ignored); 3: the client
//   sends STOP_SENDING H3_REQUEST_CANCELLED (request streams; ignored on the others).
// tag bit 5: before this record the client reads all the server has queued (the transport's
//   writableLength drops to 0 and ondrain fires).
// tag bit 6: before this record the event loop turns (the core answers requests meanwhile).
// tag bit 7: before this record the client waits until every request it ended is answered or
//   refused (a bounded time: one whose section waits for inserts never is), as a client that
//   acknowledges responses does.

const STREAM = { A: 0, B: 1, C: 2, REQUEST: 3 };
const ACTION = { DATA: 0, FIN: 1, RESET: 2, STOP: 3 };
const UNI_SLOTS = 3;
const REQUEST_SLOTS = 5;
const READ = 0x20;
const TURN = 0x40;
const WAIT = 0x80;
const MAX_RECORD = 0xffff;

function parseRecords(input) {
  const records = [];
  for (let pos = 0; pos < input.length;) {
    const tag = input[pos];
    const length = input.length - pos >= 3 ? input.readUInt16BE(pos + 1) : 0;
    const bytes = input.subarray(Math.min(pos + 3, input.length), Math.min(pos + 3 + length, input.length));
    records.push({ slot: tag & 7, action: (tag >> 3) & 3, read: (tag & READ) !== 0, turn: (tag & TURN) !== 0, wait: (tag & WAIT) !== 0, bytes });
    pos += 3 + length;
  }
  return records;
}

function encodeRecord({ slot, action = ACTION.DATA, read = false, turn = false, wait = false, bytes = Buffer.alloc(0) }) {
  const parts = [];
  // A record holds at most 64 KiB - 1; longer octets go out as several on the same stream.
  for (let pos = 0; pos === 0 || pos < bytes.length; pos += MAX_RECORD) {
    const piece = bytes.subarray(pos, pos + MAX_RECORD);
    const last = pos + MAX_RECORD >= bytes.length;
    const head = Buffer.alloc(3);
    const first = pos === 0;
    head[0] = slot | ((last ? action : ACTION.DATA) << 3) | (read && first ? READ : 0) | (turn && first ? TURN : 0) | (wait && first ? WAIT : 0);
    head.writeUInt16BE(piece.length, 1);
    parts.push(head, piece);
  }
  return Buffer.concat(parts);
}

const encodeRecords = (records) => Buffer.concat(records.map(encodeRecord));

module.exports = { STREAM, ACTION, UNI_SLOTS, REQUEST_SLOTS, parseRecords, encodeRecord, encodeRecords };
