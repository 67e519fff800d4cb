'use strict';
// The table of the article this project grew from (Mozilla Hacks, "Better
// than Gzip Compression with Brotli", Nick Desaulniers, 2015; the copy is
// /work/shared/seeds/004_459a9063fb72abba.txt): a Node 0.12 HTTPS server
// sending 3,484 bytes of lorem ipsum, measured with
// `wrk -c 100 -t 6 -d 30s -H 'Accept-Encoding: ...'` on a 4-core 2013
// MacBook Pro, max RSS from /usr/bin/time. Its streams compressed every
// response anew; our on-the-fly rows compress once and serve the cached
// result, so the "cold" rows (no warm-up) include that first compression.
const SEED_ROWS = [
  { method: 'br-stream', mode: 'cold', coding: 'br', reqPerSec: 203, mbPerSec: 0.25, maxRssMb: 3485.54, latencyMs: 462.57 },
  { method: 'lzma', mode: 'cold', coding: 'lzma', reqPerSec: 233, mbPerSec: 0.37, maxRssMb: 330.29, latencyMs: 407.71 },
  { method: 'gzip', mode: 'cold', coding: 'gzip', reqPerSec: 2276, mbPerSec: 3.44, maxRssMb: 204.29, latencyMs: 41.86 },
  { method: 'none', mode: 'static', coding: 'identity', reqPerSec: 4061, mbPerSec: 14.06, maxRssMb: 125.1, latencyMs: 23.45 },
  { method: 'br-static', mode: 'static', coding: 'br', reqPerSec: 4087, mbPerSec: 5.85, maxRssMb: 105.58, latencyMs: 23.3 },
];
const SEED_FILE = 'lorem';
const SEED_PROTOCOL = 'h1';

module.exports = { SEED_ROWS, SEED_FILE, SEED_PROTOCOL };
