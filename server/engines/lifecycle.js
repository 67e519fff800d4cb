'use strict';
// The one convention for a server-side lifecycle, in every engine (an HTTP/1.1 connection, an
// HTTP/2 stream and its response): the state is one value, changed only by advance(event) along
// a frozen table event -> { state before: state after }, the whole lifecycle written in one place
// beside its owner. An event the table does not allow in the current state is refused with a
// ERR_LIFECYCLE error and changes nothing. It is always a bug of ours, never the peer's (the engines
// check the peer's input against the state before they change it), so it is never ignored: the
// engine's boundary for its connection (h2's #fail, h1's end()) ends that connection and logs it,
// where a throw out of a socket's event handler would end the process.

const { ERR_LIFECYCLE } = require('../errors');

/**
 * A lifecycle's table, checked once: every state it leads to is one of `states` (an object of
 * names -> state values). Returns the frozen table.
 */
function transitions(states, table) {
  const known = new Set(Object.values(states));
  for (const [event, moves] of Object.entries(table)) {
    for (const [from, to] of Object.entries(moves)) {
      if (!known.has(from) || !known.has(to)) throw new Error(`lifecycle table: ${event} ${from} -> ${to} names an unknown state`);
    }
    Object.freeze(moves);
  }
  return Object.freeze(table);
}

class Lifecycle {
  #name;
  #table;
  #state;

  /** name: what it belongs to, for the error; table: from transitions(); initial: its first state. */
  constructor(name, table, initial) {
    this.#name = name;
    this.#table = table;
    this.#state = initial;
  }

  get state() {
    return this.#state;
  }

  /** Moves to the state `event` leads to from this one; throws ERR_LIFECYCLE where the table allows none. */
  advance(event) {
    const next = this.#table[event]?.[this.#state];
    if (next === undefined) throw ERR_LIFECYCLE(`${this.#name}: ${event} in state ${this.#state}`);
    this.#state = next;
    return next;
  }
}

module.exports = { Lifecycle, transitions };
