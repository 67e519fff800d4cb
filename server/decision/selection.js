'use strict';
// The one result of the core's choice of a representation (Core#select): a Selection, settled
// at once when nothing needs computing (a prebuilt representation, a 406, a 503), so the hot
// path allocates nothing; 'pending' only while an on-the-fly compression runs.
//   kind 'rep'      send `rep`
//   kind 'pending'  `pending` resolves (never rejects) to a settled Selection (never 'pending')
//   kind 'none'     no acceptable coding: 406
//   kind 'busy'     every acceptable coding needs a compression slot and none is free: 503

class Selection {
  constructor(kind, rep, pending) {
    this.kind = kind;
    this.rep = rep;
    this.pending = pending;
  }
}

const NONE = Object.freeze(new Selection('none', null, null));
const BUSY = Object.freeze(new Selection('busy', null, null));

// Each representation carries its own (rep.selection), built once with it.
function chosen(rep) {
  return Object.freeze(new Selection('rep', rep, null));
}

function pending(promise) {
  return new Selection('pending', null, promise);
}

// A promise of the settled selection, for callers off the hot path.
function settle(selection) {
  return selection.kind === 'pending' ? selection.pending : Promise.resolve(selection);
}

module.exports = { NONE, BUSY, chosen, pending, settle };
