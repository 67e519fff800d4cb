'use strict';
// Results of the addon are carved from a shared slab, as Buffer.allocUnsafe
// carves its pool: a Buffer made by the addon costs a backing store each,
// several times the coding itself. The addon's ...Into functions and encode
// methods write at (slab, offset) and return the byte count, or the room they
// need when it is larger than what is left, having written nothing.

const SLAB_SIZE = 8192;
let slab = Buffer.allocUnsafeSlow(SLAB_SIZE);
let slabUsed = 0;

function intoSlab(write) {
  let n = write(slab, slabUsed);
  if (n > slab.length - slabUsed) {
    // As in Node's pool, a result over half a slab gets memory of its own: a
    // slab sized for it would be kept alive by every small result after it.
    if (n > SLAB_SIZE >>> 1) return intoOwnBuffer(write, n);
    slab = Buffer.allocUnsafeSlow(SLAB_SIZE);
    slabUsed = 0;
    n = write(slab, 0);
  }
  const out = slab.subarray(slabUsed, slabUsed + n);
  // 8-byte aligned, as in Node's pool (SLAB_SIZE is a multiple of 8).
  slabUsed = Math.ceil((slabUsed + n) / 8) * 8;
  return out;
}

function intoOwnBuffer(write, room) {
  const own = Buffer.allocUnsafeSlow(room);
  const n = write(own, 0);
  // The room asked for is a bound (a Huffman string decodes to at most 8/5 of
  // its length); the rest would stay allocated as long as the result. Copied
  // into an exact allocation: Node 24's Buffer.from(buffer) rounds large
  // backing stores up (20 KB gets 64 KiB).
  if (n === room) return own;
  const exact = Buffer.allocUnsafeSlow(n);
  own.copy(exact, 0, 0, n);
  return exact;
}

module.exports = { intoSlab };
