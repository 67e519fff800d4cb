'use strict';
// The native engine's frame writer: exact frame bytes, one socket write per flush,
// header blocks split into CONTINUATION frames, and the backpressure signal.

const test = require('node:test');
const assert = require('node:assert/strict');
const { FrameWriter } = require('../../server/engines/h2/frame-writer');
const { FRAME, FLAG } = require('../../server/engines/h2/frame-types');

function fakeSocket({ accept = true } = {}) {
  return {
    writes: [],
    corked: 0,
    destroyed: false,
    write(chunk) { this.writes.push(Buffer.from(chunk)); return accept; },
    cork() { this.corked++; },
    uncork() {},
    bytes() { return Buffer.concat(this.writes).toString('hex'); },
  };
}

test('frames queued in one turn leave in one write, byte for byte', () => {
  const socket = fakeSocket();
  const writer = new FrameWriter(socket, () => assert.fail('not blocked'));
  writer.frame(FRAME.SETTINGS, FLAG.ACK, 0);
  writer.frame(FRAME.PING, FLAG.ACK, 0, Buffer.from('0102030405060708', 'hex'));
  writer.frameUint32(FRAME.WINDOW_UPDATE, 0, 3, 0x10000);
  writer.frameUint32(FRAME.GOAWAY, 0, 0, 7, 0xb);
  assert.equal(writer.queuedBytes, 9 + 17 + 13 + 17);
  assert.equal(writer.flush(), true);
  assert.equal(socket.writes.length, 1);
  assert.equal(socket.bytes(), [
    '000000040100000000',
    '000008060100000000' + '0102030405060708',
    '000004080000000003' + '00010000',
    '000008070000000000' + '00000007' + '0000000b',
  ].join(''));
  assert.equal(writer.queuedBytes, 0);
  assert.equal(writer.flush(), true, 'nothing queued: no write');
  assert.equal(socket.writes.length, 1);
});

test('a large DATA payload is passed by reference in the same corked batch', () => {
  const socket = fakeSocket();
  const writer = new FrameWriter(socket, () => {});
  const payload = Buffer.alloc(16384, 0x61);
  writer.frame(FRAME.DATA, FLAG.END_STREAM, 1, payload);
  writer.flush();
  assert.equal(socket.corked, 1);
  assert.equal(socket.writes.length, 2);
  assert.equal(socket.writes[0].toString('hex'), '004000000100000001');
  assert.ok(socket.writes[1].equals(payload));
});

// An encoder that writes `block` as the response-headers source does: its length, or the room
// it needs when there is less (then writing nothing).
function blockSource(block) {
  return {
    calls: 0,
    encodeInto(list, out, offset) {
      assert.equal(list, 'list');
      this.calls++;
      if (out.length - offset < block.length) return block.length;
      return block.copy(out, offset);
    },
  };
}

test('a header block longer than the peer frame size becomes HEADERS + CONTINUATION', () => {
  const socket = fakeSocket();
  const writer = new FrameWriter(socket, () => {});
  const block = Buffer.alloc(16384 + 12, 0x82);
  writer.headers(5, FLAG.END_STREAM, blockSource(block), 'list', 16384);
  writer.flush();
  const out = Buffer.concat(socket.writes);
  // HEADERS: END_STREAM, no END_HEADERS, 16384 octets.
  assert.equal(out.subarray(0, 9).toString('hex'), '004000010100000005');
  const second = out.subarray(9 + 16384);
  // CONTINUATION: END_HEADERS, the remaining 12 octets.
  assert.equal(second.subarray(0, 9).toString('hex'), '00000c090400000005');
  assert.ok(Buffer.concat([out.subarray(9, 9 + 16384), second.subarray(9)]).equals(block));
});

test('a small header block is encoded into its one HEADERS frame with END_HEADERS', () => {
  const socket = fakeSocket();
  const writer = new FrameWriter(socket, () => {});
  const source = blockSource(Buffer.from('880f12', 'hex'));
  writer.headers(1, 0, source, 'list', 16384);
  writer.frame(FRAME.SETTINGS, FLAG.ACK, 0);
  writer.flush();
  assert.equal(source.calls, 1);
  assert.equal(socket.bytes(), '000003010400000001' + '880f12' + '000000040100000000');
});

test('a block that needs more room than the shared buffer has left is encoded again into a new one', () => {
  const socket = fakeSocket();
  const writer = new FrameWriter(socket, () => {});
  // Larger than the 64 KiB buffer: the first try cannot fit, wherever the buffer stands.
  const block = Buffer.alloc(70000, 0xbe);
  const source = blockSource(block);
  writer.frame(FRAME.SETTINGS, FLAG.ACK, 0);
  writer.headers(3, 0, source, 'list', 0xffffff);
  writer.flush();
  assert.equal(source.calls, 2);
  const out = Buffer.concat(socket.writes);
  assert.equal(out.subarray(0, 9 + 9).toString('hex'), '000000040100000000' + '011170010400000003');
  assert.ok(out.subarray(18).equals(block));
});

test('a write the socket cannot take reports the connection blocked', () => {
  const socket = fakeSocket({ accept: false });
  let blocked = 0;
  const writer = new FrameWriter(socket, () => { blocked++; });
  writer.frame(FRAME.SETTINGS, FLAG.ACK, 0);
  assert.equal(writer.flush(), false);
  assert.equal(blocked, 1);
});

test('frames queued without an explicit flush go out on the next turn', async () => {
  const socket = fakeSocket();
  const writer = new FrameWriter(socket, () => {});
  writer.frame(FRAME.SETTINGS, FLAG.ACK, 0);
  writer.frame(FRAME.SETTINGS, FLAG.ACK, 0);
  assert.equal(socket.writes.length, 0);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(socket.writes.length, 1);
  assert.equal(socket.bytes(), '000000040100000000'.repeat(2));
});
