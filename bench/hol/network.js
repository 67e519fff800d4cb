'use strict';
// The seed's network model (Frindell, QUIC WG, June 2017): a chunk reaches the
// peer rtt/2 after it is sent; a lost packet arrives 1.1–2 RTT later than
// that (uniform), i.e. after a retransmission. Every chunk (a header block, an
// encoder-stream chunk, a decoder-stream acknowledgment) travels in packets of
// at most PACKET_BYTES, each lost independently with probability `loss`, and
// is usable when its last packet is there.
//
// A link is { deliver(sentAt, bytes, channel) -> arrival time (ms) }; channel
// ('request', 'encoder', 'decoder') lets a test script which chunk is lost.

const PACKET_BYTES = 1200; // a QUIC packet's payload on a 1280-byte path, roughly
const LATE_MIN_RTT = 1.1;
const LATE_MAX_RTT = 2;

function lossyLink({ rttMs, loss, rng }) {
  return {
    deliver(sentAt, bytes) {
      const packets = Math.max(1, Math.ceil(bytes / PACKET_BYTES));
      let late = 0;
      for (let i = 0; i < packets; i++) {
        if (rng() < loss) late = Math.max(late, rttMs * (LATE_MIN_RTT + (LATE_MAX_RTT - LATE_MIN_RTT) * rng()));
      }
      return sentAt + rttMs / 2 + late;
    },
  };
}

// An in-order byte stream over a link: a chunk is handed to the reader only
// once it and every chunk before it have arrived (TCP, a QUIC stream, or
// HPACK's serialized header blocks). send() -> { arrival, release }.
function orderedStream(link, channel) {
  let last = 0;
  return {
    send(sentAt, bytes) {
      const arrival = link.deliver(sentAt, bytes, channel);
      last = Math.max(last, arrival);
      return { arrival, release: last };
    },
  };
}

module.exports = { lossyLink, orderedStream, PACKET_BYTES, LATE_MIN_RTT, LATE_MAX_RTT };
