'use strict';
// A UDP relay on loopback that gives QUIC a path with delay and loss, where netem is not to be
// had (it needs root and the sch_netem module, and it would slow every other loopback user):
// clients send to the relay's port; each client address gets its own socket towards the server,
// so the server sees one peer per client. Every datagram, either way, is dropped with
// probability `loss` or else delivered `rttMs / 2` later. The drops come from a seeded stream
// (bench/hol/prng.js), so the loss pattern of a run is the same sequence of draws; what a
// browser sends is not, so runs still differ.
const dgram = require('node:dgram');
const { seededRandom } = require('../hol/prng');

class LossyRelay {
  #server;
  #oneWayMs;
  #loss;
  #random;
  #front = dgram.createSocket('udp4');
  #backs = new Map(); // "address:port" of a client -> its socket towards the server
  #timers = new Set();
  dropped = 0;
  relayed = 0;

  // serverPort: the server's UDP port on 127.0.0.1; rttMs: the round trip added; loss: 0 <= p < 1.
  constructor(serverPort, { rttMs, loss, seed = 'lossy-relay' }) {
    if (!(Number.isFinite(rttMs) && rttMs >= 0)) throw new RangeError(`rttMs must be a number of at least 0, not ${rttMs}`);
    if (!(loss >= 0 && loss < 1)) throw new RangeError(`loss must be at least 0 and below 1, not ${loss}`);
    this.#server = serverPort;
    this.#oneWayMs = rttMs / 2;
    this.#loss = loss;
    this.#random = seededRandom(seed, rttMs, loss);
  }

  /** Binds 127.0.0.1 on a free port; resolves to it. */
  start() {
    this.#front.on('message', (msg, from) => this.#pass(msg, () => this.#backFor(from).send(msg, this.#server, '127.0.0.1')));
    return new Promise((resolve, reject) => {
      this.#front.once('error', reject);
      this.#front.bind(0, '127.0.0.1', () => resolve(this.#front.address().port));
    });
  }

  close() {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const back of this.#backs.values()) back.close();
    this.#backs.clear();
    this.#front.close();
  }

  #backFor(from) {
    const key = `${from.address}:${from.port}`;
    let back = this.#backs.get(key);
    if (back === undefined) {
      back = dgram.createSocket('udp4');
      back.on('message', (msg) => this.#pass(msg, () => this.#front.send(msg, from.port, from.address)));
      back.bind(0, '127.0.0.1');
      this.#backs.set(key, back);
    }
    return back;
  }

  // Drops the datagram or delivers it after the one-way delay.
  #pass(msg, deliver) {
    if (this.#random() < this.#loss) {
      this.dropped++;
      return;
    }
    this.relayed++;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      deliver();
    }, this.#oneWayMs);
    this.#timers.add(timer);
  }
}

module.exports = { LossyRelay };
