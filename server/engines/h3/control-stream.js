'use strict';
// The peer's control stream (RFC 9114 6.2.1, 7.2): SETTINGS first and only once, then GOAWAY,
// MAX_PUSH_ID and CANCEL_PUSH; a frame that belongs on a request stream is H3_FRAME_UNEXPECTED.
// This server never pushes, so push ids are only checked for the order the RFC demands.

const { FRAME, FrameReader, decodeVarintPayload } = require('./frames');
const { decodeSettings } = require('./settings');
const { ERROR, ConnectionError } = require('./errors');

class PeerControl {
  #reader;
  #settings = false;
  #maxPushId = -1;
  #goawayId = Infinity;
  #owner;

  // owner: { settings(peer), goaway(), glitch() }. controlFrameMax: the longest frame read.
  constructor(owner, controlFrameMax) {
    this.#owner = owner;
    this.#reader = new FrameReader(() => controlFrameMax);
  }

  push(buf) {
    this.#reader.push(buf, this);
  }

  frame(type, payload) {
    if (!this.#settings && type !== FRAME.SETTINGS) throw new ConnectionError(ERROR.H3_MISSING_SETTINGS, 'control stream without SETTINGS first');
    switch (type) {
      case FRAME.SETTINGS:
        if (this.#settings) throw new ConnectionError(ERROR.H3_FRAME_UNEXPECTED, 'second SETTINGS');
        this.#settings = true;
        this.#owner.settings(decodeSettings(payload));
        break;
      case FRAME.GOAWAY: {
        // 5.2: from a client it carries a push id, which may only go down.
        const id = decodeVarintPayload(payload, 'GOAWAY');
        if (id > this.#goawayId) throw new ConnectionError(ERROR.H3_ID_ERROR, 'GOAWAY id went up');
        this.#goawayId = id;
        this.#owner.goaway();
        break;
      }
      case FRAME.MAX_PUSH_ID: {
        const id = decodeVarintPayload(payload, 'MAX_PUSH_ID');
        if (id < this.#maxPushId) throw new ConnectionError(ERROR.H3_ID_ERROR, 'MAX_PUSH_ID went down');
        this.#maxPushId = id;
        break;
      }
      case FRAME.CANCEL_PUSH:
        if (decodeVarintPayload(payload, 'CANCEL_PUSH') > this.#maxPushId) throw new ConnectionError(ERROR.H3_ID_ERROR, 'CANCEL_PUSH past MAX_PUSH_ID');
        break;
      default:
        throw new ConnectionError(ERROR.H3_FRAME_UNEXPECTED, `frame 0x${type.toString(16)} on the control stream`);
    }
  }

  dataStart() {
    throw new ConnectionError(ERROR.H3_FRAME_UNEXPECTED, 'DATA on the control stream');
  }

  data() {}

  skipped() {
    if (!this.#settings) throw new ConnectionError(ERROR.H3_MISSING_SETTINGS, 'control stream without SETTINGS first');
    this.#owner.glitch();
  }
}

module.exports = { PeerControl };
