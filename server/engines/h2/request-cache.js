'use strict';
// Requests a connection has seen before, by header block. A block made of indexed fields only
// (RFC 7541 6.1) neither adds to nor resizes the decoder's dynamic table, so as long as every
// block decoded since was of that kind too, the same octets mean the same fields, and so the
// same validated request. A client repeating requests whose fields are all in the table
// (polling, a page's assets fetched again, a load generator) sends such blocks: they are then
// neither decoded nor validated again. Any other block empties the cache.

// Distinct blocks kept: a client cycling through a few requests still hits.
const ENTRIES = 8;

// True when every field of the block is an indexed field (first bit 1, then a 7-bit prefix
// integer whose continuation octets have their high bit set until the last, 5.1).
function indexedOnly(block) {
  const n = block.length;
  if (n === 0) return false;
  let i = 0;
  while (i < n) {
    const b = block[i++];
    if ((b & 0x80) === 0) return false;
    if ((b & 0x7f) === 0x7f) while (i < n && (block[i++] & 0x80) !== 0);
  }
  return true;
}

// Blocks are a few octets to a few dozen: a loop beats a call into Buffer#equals.
function sameOctets(a, b) {
  const n = a.length;
  if (b.length !== n) return false;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

class RequestCache {
  #blocks = [];
  #requests = [];
  #next = 0;

  // The request a block with these octets was decoded to, or undefined.
  get(block) {
    const blocks = this.#blocks;
    for (let i = 0; i < blocks.length; i++) {
      if (sameOctets(blocks[i], block)) return this.#requests[i];
    }
    return undefined;
  }

  // Called after every block decoded: request is what it was validated into, or null (trailers,
  // a malformed request), which is not kept but leaves the entries valid when indexed-only.
  decoded(block, request) {
    if (!indexedOnly(block)) {
      if (this.#blocks.length !== 0) this.clear();
      return;
    }
    if (request === null) return;
    // A copy: block is a view of the socket's read buffer.
    const key = Buffer.from(block);
    if (this.#blocks.length < ENTRIES) {
      this.#blocks.push(key);
      this.#requests.push(request);
      return;
    }
    this.#blocks[this.#next] = key;
    this.#requests[this.#next] = request;
    this.#next = (this.#next + 1) % ENTRIES;
  }

  clear() {
    this.#blocks = [];
    this.#requests = [];
    this.#next = 0;
  }
}

module.exports = { RequestCache, indexedOnly };
