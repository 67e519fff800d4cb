'use strict';
// One connection's requests replayed over a simulated link through the real
// codecs. Each request i's header block is sent at sendTimes[i] on a request
// stream of its own; the result says when its bytes arrived and when the
// decoder could decode it:
//   { requests: [{ arrival, decoded, bytes }], held: [[from, to, bytes]],
//     wireBytes, decoderStreamBytes }
// `held` lists other bytes the receiver had to keep meanwhile (encoder-stream
// chunks that arrived ahead of an earlier, lost one).
const { Encoder, Decoder, QpackEncoder, QpackDecoder } = require('../../native');
const { EventQueue } = require('./event-queue');
const { orderedStream } = require('./network');

const TABLE_CAPACITY = 4096; // HPACK's default SETTINGS_HEADER_TABLE_SIZE, used for both
const MAX_SECTION = 1 << 24; // the stories hold no header list this large; no limit in play

function checkFields(got, want, what) {
  const same = got.length === want.length && got.every(([n, v], i) => n === want[i][0] && v === want[i][1]);
  if (!same) throw new Error(`${what}: decoded fields differ from the input`);
}

// HPACK ('linear' + Huffman) blocks of a story, decoded once in order to check
// them: their content does not depend on the network, only their timing does.
function hpackBlockSizes(sections) {
  const enc = new Encoder({ tableSize: TABLE_CAPACITY, huffman: true, indexing: 'linear' });
  const dec = new Decoder({ tableSize: TABLE_CAPACITY, maxHeaderListSize: MAX_SECTION });
  return sections.map((fields, i) => {
    const block = enc.encode(fields);
    checkFields(dec.decode(block), fields, `HPACK block ${i}`);
    return block.length;
  });
}

// HPACK needs blocks in order (HTTP/2 over TCP; the early HTTP-over-QUIC draft
// serialized header frames with a sequence number): block i is decoded when it
// and every block before it have arrived.
function replayHpack(blockSizes, sendTimes, link) {
  const stream = orderedStream(link, 'request');
  const requests = blockSizes.map((bytes, i) => {
    const { arrival, release } = stream.send(sendTimes[i], bytes);
    return { arrival, decoded: release, bytes };
  });
  const wireBytes = blockSizes.reduce((a, b) => a + b, 0);
  return { requests, held: [], wireBytes, decoderStreamBytes: 0 };
}

// QPACK: section i is on stream 4i, independent of the others; it decodes when
// its bytes and the encoder-stream inserts it references (its Required Insert
// Count) are there. The encoder stream and the decoder stream are each in
// order. The encoder hears of acknowledgments only when they arrive, which
// decides what it may reference within `blockedStreams`. The decoder really
// decodes in that order (blocked sections wait inside it) and every section is
// checked against its input.
function replayQpack(sections, sendTimes, link, { blockedStreams, tableCapacity = TABLE_CAPACITY }) {
  const settings = { maxTableCapacity: tableCapacity, maxBlockedStreams: blockedStreams };
  const enc = new QpackEncoder(settings);
  const dec = new QpackDecoder({ ...settings, maxFieldSectionSize: MAX_SECTION });
  const encoderStream = orderedStream(link, 'encoder');
  const decoderStream = orderedStream(link, 'decoder');
  const queue = new EventQueue();
  const requests = sections.map(() => ({ arrival: null, decoded: null, bytes: 0, referencesTable: false }));
  const held = [];
  let wireBytes = 0;
  let decoderStreamBytes = 0;

  const decoded = (streamId, fields, time) => {
    const i = streamId / 4;
    checkFields(fields, sections[i], `QPACK section ${i}`);
    requests[i].decoded = time;
  };
  const sendAcks = (time) => {
    const bytes = dec.readDecoderStream();
    if (bytes.length === 0) return;
    decoderStreamBytes += bytes.length;
    queue.push(decoderStream.send(time, bytes.length).release, { type: 'acks', bytes });
  };
  const handlers = {
    encode({ i }, time) {
      const { section, encoderStream: inserts } = enc.encode(4 * i, sections[i]);
      wireBytes += section.length + inserts.length;
      if (inserts.length > 0) {
        const { arrival, release } = encoderStream.send(time, inserts.length);
        if (release > arrival) held.push([arrival, release, inserts.length]);
        queue.push(release, { type: 'inserts', bytes: inserts });
      }
      requests[i].bytes = section.length;
      // The Encoded Required Insert Count (8-bit prefix) is 0 exactly when no dynamic entry is referenced.
      requests[i].referencesTable = section[0] !== 0;
      requests[i].arrival = link.deliver(time, section.length, 'request');
      queue.push(requests[i].arrival, { type: 'section', i, section });
    },
    inserts({ bytes }, time) {
      for (const { streamId, headers } of dec.feedEncoder(bytes)) decoded(streamId, headers, time);
      sendAcks(time);
    },
    section({ i, section }, time) {
      const fields = dec.decode(4 * i, section);
      if (fields !== null) decoded(4 * i, fields, time);
      sendAcks(time);
    },
    acks({ bytes }) {
      enc.feedDecoder(bytes);
    },
  };

  sendTimes.forEach((time, i) => queue.push(time, { type: 'encode', i }));
  while (queue.size > 0) {
    const { time, event } = queue.pop();
    handlers[event.type](event, time);
  }
  const stuck = requests.findIndex((r) => r.decoded === null);
  if (stuck !== -1) throw new Error(`QPACK section ${stuck} was never decoded`);
  return { requests, held, wireBytes, decoderStreamBytes };
}

module.exports = { hpackBlockSizes, replayHpack, replayQpack, TABLE_CAPACITY };
