'use strict';
// Flow-control windows, SETTINGS validation and the flood budget of the native engine.

const test = require('node:test');
const assert = require('node:assert/strict');
const { ReceiveWindow, grow } = require('../../server/engines/h2/flow-control');
const { applyPeerSettings, defaultPeerSettings, encodeSettings, SETTING } = require('../../server/engines/h2/settings');
const { FloodGuard } = require('../../server/engines/h2/flood-guard');
const { ERROR } = require('../../server/engines/h2/errors');

test('a receive window refuses overruns and reopens once half is used', () => {
  const w = new ReceiveWindow(100);
  const steps = [
    // [consume, accepted, refill increment]
    [30, true, 0],
    [19, true, 0],
    [1, true, 50],
    [100, true, 100],
    [101, false, 0],
    [60, true, 60],
  ];
  for (const [n, ok, increment] of steps) {
    assert.equal(w.consume(n), ok, `consume ${n}`);
    assert.equal(w.refill(), increment, `refill after ${n}`);
  }
});

test('send windows may go negative but never above 2^31-1', () => {
  const cases = [
    [65535, 1, 65536],
    [0, 0x7fffffff, 0x7fffffff],
    [1, 0x7fffffff, null],
    [-5, -10, -15],
    [-5, 10, 5],
  ];
  for (const [window, increment, expected] of cases) assert.equal(grow(window, increment), expected, `${window} + ${increment}`);
});

function settingsPayload(entries) {
  const out = Buffer.alloc(entries.length * 6);
  entries.forEach(([id, value], i) => { out.writeUInt16BE(id, i * 6); out.writeUInt32BE(value, i * 6 + 2); });
  return out;
}

const settingsCases = [
  ['defaults untouched by an empty frame', [], { delta: 0 }],
  ['the last of repeated values wins (6.5.3)', [[SETTING.INITIAL_WINDOW_SIZE, 10], [SETTING.INITIAL_WINDOW_SIZE, 100]], { delta: 100 - 65535, peer: { initialWindowSize: 100 } }],
  ['ENABLE_PUSH 0 and 1 accepted', [[SETTING.ENABLE_PUSH, 0], [SETTING.ENABLE_PUSH, 1]], { delta: 0 }],
  ['ENABLE_PUSH 2', [[SETTING.ENABLE_PUSH, 2]], { error: ERROR.PROTOCOL_ERROR }],
  ['INITIAL_WINDOW_SIZE 2^31-1 accepted', [[SETTING.INITIAL_WINDOW_SIZE, 0x7fffffff]], { delta: 0x7fffffff - 65535, peer: { initialWindowSize: 0x7fffffff } }],
  ['INITIAL_WINDOW_SIZE 2^31', [[SETTING.INITIAL_WINDOW_SIZE, 0x80000000]], { error: ERROR.FLOW_CONTROL_ERROR }],
  ['MAX_FRAME_SIZE 16384 and 2^24-1 accepted', [[SETTING.MAX_FRAME_SIZE, 16384], [SETTING.MAX_FRAME_SIZE, 0xffffff]], { delta: 0, peer: { maxFrameSize: 0xffffff } }],
  ['MAX_FRAME_SIZE 16383', [[SETTING.MAX_FRAME_SIZE, 16383]], { error: ERROR.PROTOCOL_ERROR }],
  ['MAX_FRAME_SIZE 2^24', [[SETTING.MAX_FRAME_SIZE, 0x1000000]], { error: ERROR.PROTOCOL_ERROR }],
  ['HEADER_TABLE_SIZE passed on', [[SETTING.HEADER_TABLE_SIZE, 0]], { delta: 0, tableSizes: [0] }],
  // The HPACK encoder owes the smallest size (RFC 7541 4.2): every value is passed on, in order.
  ['each HEADER_TABLE_SIZE passed on, not just the last', [[SETTING.HEADER_TABLE_SIZE, 0], [SETTING.HEADER_TABLE_SIZE, 4096]], { delta: 0, tableSizes: [0, 4096] }],
  ['unknown identifiers ignored', [[0xff, 7], [0, 1]], { delta: 0 }],
];

for (const [name, entries, expected] of settingsCases) {
  test(`peer SETTINGS: ${name}`, () => {
    const peer = defaultPeerSettings();
    const tableSizes = [];
    const onTableSize = (size) => tableSizes.push(size);
    if (expected.error !== undefined) {
      assert.throws(() => applyPeerSettings(settingsPayload(entries), peer, onTableSize), (err) => err.code === expected.error);
      return;
    }
    assert.equal(applyPeerSettings(settingsPayload(entries), peer, onTableSize), expected.delta);
    assert.deepEqual(peer, { ...defaultPeerSettings(), ...expected.peer });
    assert.deepEqual(tableSizes, expected.tableSizes ?? []);
  });
}

test('our SETTINGS: push off, the stream and header list limits', () => {
  assert.equal(encodeSettings({ maxConcurrentStreams: 128, maxHeaderListSize: 32768 }).toString('hex'),
    '000200000000' + '000300000080' + '000600008000');
});

test('the flood budget allows its burst, then refuses until time refills it', () => {
  let now = 5000;
  const guard = new FloodGuard(3, 1000, { now: () => now });
  assert.deepEqual([guard.take(), guard.take(), guard.take(), guard.take()], [true, true, true, false]);
  now += 1; // one token at 1000 a second
  assert.deepEqual([guard.take(), guard.take()], [true, false]);
});
