'use strict';
// A min-heap of timed events for the replay. Equal times come out in the order
// they were pushed, so a run is deterministic and an in-order stream's chunks
// released at the same instant are processed in stream order.

class EventQueue {
  #heap = [];
  #seq = 0;

  get size() {
    return this.#heap.length;
  }

  push(time, event) {
    const heap = this.#heap;
    heap.push({ time, seq: this.#seq++, event });
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  }

  // -> { time, event } of the earliest, removed.
  pop() {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && before(heap[l], heap[m])) m = l;
        if (r < heap.length && before(heap[r], heap[m])) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m], heap[i]];
        i = m;
      }
    }
    return top;
  }
}

function before(a, b) {
  return a.time < b.time || (a.time === b.time && a.seq < b.seq);
}

module.exports = { EventQueue };
