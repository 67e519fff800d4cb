'use strict';
// Where a request's response stands, the same on every engine whose requests are streams
// (HTTP/2's and HTTP/3's), as a lifecycle of ./lifecycle.js: waiting for the request, the core
// deciding, sending, done. dispatch: the request went to the core (complete, or its content past
// what is read); respond: send-out took the core's response; finish: send-out's last call. A
// stream closed meanwhile stays where it was: its response is discarded (deciding) or given up
// through send-out (sending), which then finishes it.

const { Lifecycle, transitions } = require('./lifecycle');

const RESPONSE = Object.freeze({
  WAITING: 'waiting for the request',
  DECIDING: 'deciding',
  SENDING: 'sending',
  DONE: 'done',
});

const RESPONSE_TRANSITIONS = transitions(RESPONSE, {
  dispatch: { [RESPONSE.WAITING]: RESPONSE.DECIDING },
  respond: { [RESPONSE.DECIDING]: RESPONSE.SENDING },
  finish: { [RESPONSE.SENDING]: RESPONSE.DONE },
});

/** A new response lifecycle for `name` (what the stream is, for the error). */
const responseLifecycle = (name) => new Lifecycle(`${name} response`, RESPONSE_TRANSITIONS, RESPONSE.WAITING);

module.exports = { RESPONSE, RESPONSE_TRANSITIONS, responseLifecycle };
