'use strict';
// Bounded concurrency for work over many files (the background pass, `precompress`): each task
// holds a descriptor and a compression engine, so running them all at once would exhaust both.

/** Runs `task` over `items` with at most `limit` in progress; starts none after `signal` aborts. */
async function forEachLimited(items, limit, task, signal) {
  let next = 0;
  const lane = async () => {
    while (next < items.length && !signal?.aborted) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

module.exports = { forEachLimited };
