'use strict';
// Response field sections (RFC 9204) for one connection. Until the peer's SETTINGS arrive its
// table capacity is 0 (RFC 9204 3.2.3), so sections use the static table and literals only;
// from then on one QpackEncoder with a dynamic table of min(the peer's capacity, ours) and the
// peer's blocked-streams allowance, whose encoder-stream instructions go out on our encoder
// stream before the section that needs them, so a repeated response shrinks to a few indexed
// fields. The fields are those HTTP/2 sends (the descriptor's prebuilt h2 fields), with this
// second's Date.

const { QpackEncoder } = require('../../../native/qpack');
const { currentDate } = require('../../http/date-clock');

const SENSITIVE = ['set-cookie'];

class ResponseFields {
  #encoder = new QpackEncoder({ sensitive: SENSITIVE });
  #clock;
  #ours;

  // ours: our HTTP3.settings (the largest table we keep for the peer, whatever it offers).
  // clock: () => { text } (http/date-clock.js).
  constructor(ours, clock = currentDate) {
    this.#ours = ours;
    this.#clock = clock;
  }

  // The peer's SETTINGS ({ qpackMaxTableCapacity, qpackBlockedStreams }), once.
  peerSettings(peer) {
    const capacity = Math.min(peer.qpackMaxTableCapacity, this.#ours.qpackMaxTableCapacity);
    // A capacity past what the addon's integers hold cannot be encoded against: literals only.
    if (capacity === 0 || peer.qpackMaxTableCapacity > 0xffffffff) return;
    this.#encoder = new QpackEncoder({
      maxTableCapacity: peer.qpackMaxTableCapacity,
      tableCapacity: capacity,
      maxBlockedStreams: Math.min(peer.qpackBlockedStreams, this.#ours.qpackBlockedStreams),
      sensitive: SENSITIVE,
    });
  }

  // d's fields for stream id -> { section, encoderStream, fieldBytes } (QpackEncoder.encode).
  encode(id, d) {
    const fields = { ...(d.h2 ?? { ':status': d.status, ...d.headers }), date: this.#clock().text };
    return this.#encoder.encode(id, fields);
  }

  // Bytes of the peer's decoder stream (acknowledgments, cancellations, increments); a peer
  // without a dynamic table of ours has nothing to acknowledge.
  decoderStream(bytes) {
    this.#encoder.feedDecoder(bytes);
  }
}

module.exports = { ResponseFields };
