'use strict';
// node bench/qpack/ratio.js: the QPACK encoder's compression on the
// hpack-test-case stories (all 32 raw-data stories, one connection each),
// by table capacity, SETTINGS_QPACK_BLOCKED_STREAMS and how soon the
// decoder's acknowledgments reach the encoder. Ratio = bytes sent (field
// sections + encoder stream) / bytes of names and values. Every section is
// decoded and compared, so a figure is only printed for a correct run.
const assert = require('node:assert');
const { QpackEncoder, QpackDecoder } = require('../../native');
const { missing, loadStories } = require('../../test/helpers/qpack-stories');

// Acknowledgments: never (offline, as qif.js without --immediate-ack), or
// reaching the encoder this many sections after the one they answer.
const ACK_DELAYS = [null, 0, 4];

function run(sections, tableSize, maxBlocked, ackDelay) {
  const enc = new QpackEncoder({ maxTableCapacity: tableSize, maxBlockedStreams: maxBlocked });
  const dec = new QpackDecoder({ maxTableCapacity: tableSize, maxBlockedStreams: maxBlocked, maxFieldSectionSize: 1 << 24 });
  const acks = [];
  let sent = 0;
  sections.forEach((fields, i) => {
    const streamId = 4 * i;
    const { section, encoderStream } = enc.encode(streamId, fields);
    sent += section.length + encoderStream.length;
    dec.feedEncoder(encoderStream);
    assert.deepStrictEqual(dec.decode(streamId, section), fields);
    if (ackDelay === null) return;
    acks.push(dec.readDecoderStream());
    while (acks.length > ackDelay) enc.feedDecoder(acks.shift());
  });
  return sent;
}

function main() {
  if (missing) {
    console.error(`bench/qpack/ratio.js: ${missing}`);
    process.exit(2);
  }
  const all = loadStories().map(([, sections]) => sections);
  const raw = all.flat(2).reduce((n, [name, value]) => n + name.length + value.length, 0);
  console.log(`${all.length} stories, ${all.flat().length} field sections, ${raw} bytes of names and values`);
  console.log('table  blocked  acks              bytes sent  ratio');
  for (const tableSize of [0, 256, 4096]) {
    for (const maxBlocked of [0, 100]) {
      for (const delay of ACK_DELAYS) {
        const sent = all.reduce((n, sections) => n + run(sections, tableSize, maxBlocked, delay), 0);
        const acks = delay === null ? 'none' : `${delay} sections late`;
        console.log(`${String(tableSize).padStart(5)}  ${String(maxBlocked).padStart(7)}  ${acks.padEnd(16)}  ${String(sent).padStart(10)}  ${(sent / raw).toFixed(3)}`);
      }
    }
  }
}

main();
