'use strict';
// The server under test for bench/memory/run.js: startServer() with the options given as JSON in
// argv[2], in a process started with --expose-gc, answering the parent's IPC 'measure' messages
// with its memory split into layers: before a forced full GC, just after it, and GC_SETTLE_MS
// later; and { snapshot: file } with a heap snapshot written there after a full GC. A separate process, so that its RSS is the server's alone.
// Prints the server's URL when it listens.
const fs = require('node:fs');
const v8 = require('node:v8');
const { startServer } = require('../../server');
const { parseStatusKb: statusKiB } = require('../lib/proc-sampler');

const GC_SETTLE_MS = 2000;
const GLIBC_HEAP_BYTES = 64 * 1024 * 1024; // HEAP_MAX_SIZE of a 64-bit glibc thread arena

// The resident bytes of glibc's thread arenas: each is a 64 MiB reservation aligned to 64 MiB,
// mapped as a read-write part followed by an inaccessible rest. A heuristic (V8 never maps that
// shape), counted so that arena retention can be told from the rest of the native memory.
function arenaResidentKiB() {
  const lines = fs.readFileSync('/proc/self/smaps', 'utf8').split('\n');
  const regions = [];
  for (const line of lines) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ (\d+)/.exec(line);
    if (head !== null) {
      if (head[4] !== '0') { regions.push(null); continue; } // file-backed
      regions.push({ start: BigInt(`0x${head[1]}`), end: BigInt(`0x${head[2]}`), perms: head[3], rss: 0 });
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss !== null && regions.at(-1)) regions.at(-1).rss = Number(rss[1]);
  }
  let arenas = 0;
  let kib = 0;
  const size = BigInt(GLIBC_HEAP_BYTES);
  for (let i = 0; i < regions.length; i++) {
    const r = regions[i];
    if (r === null || r.start % size !== 0n || !r.perms.startsWith('rw')) continue;
    const rest = regions[i + 1];
    const end = rest && rest.start === r.end && rest.perms === '---p' ? rest.end : r.end;
    if (end - r.start !== size) continue;
    arenas++;
    kib += r.rss;
  }
  return { arenas, kib };
}

function layers() {
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  const m = process.memoryUsage();
  const MiB = 1024 * 1024;
  const arena = arenaResidentKiB();
  return {
    rssMiB: +(statusKiB(status, 'VmRSS') / 1024).toFixed(1),
    hwmMiB: +(statusKiB(status, 'VmHWM') / 1024).toFixed(1),
    anonMiB: +(statusKiB(status, 'RssAnon') / 1024).toFixed(1),
    heapUsedMiB: +(m.heapUsed / MiB).toFixed(1),
    heapTotalMiB: +(m.heapTotal / MiB).toFixed(1),
    externalMiB: +(m.external / MiB).toFixed(1),
    arrayBuffersMiB: +(m.arrayBuffers / MiB).toFixed(1),
    threadArenas: arena.arenas,
    threadArenasMiB: +(arena.kib / 1024).toFixed(1),
    threads: fs.readdirSync('/proc/self/task').length,
  };
}

function resourceCounts() {
  const counts = {};
  for (const name of process.getActiveResourcesInfo()) counts[name] = (counts[name] || 0) + 1;
  return counts;
}

async function main() {
  const server = await startServer(JSON.parse(process.argv[2]));
  process.on('message', async (message) => {
    if (message === 'measure') {
      const before = layers();
      global.gc();
      const afterGc = layers();
      // V8 hands the pages a GC freed back to the system from a background task, a moment later.
      await new Promise((resolve) => setTimeout(resolve, GC_SETTLE_MS));
      const settled = layers();
      const s = server.stats;
      process.send({
        before, afterGc, settled, resources: resourceCounts(),
        caches: {
          compressCacheEntries: s.compressCache.entries, compressCacheMiB: +(s.compressCache.bytes / 1048576).toFixed(1),
          fileCache: s.fileCache, bufferedBytes: s.bufferedBytes, spoolDiskBytes: s.spoolDiskBytes,
          streamingCompressions: s.streamingCompressions,
        },
      });
    } else if (message.snapshot !== undefined) {
      global.gc();
      process.send({ snapshot: v8.writeHeapSnapshot(message.snapshot) });
    } else if (message === 'close') {
      server.close({ timeoutMs: 1000 }).then(() => process.exit(0));
    }
  });
  console.log(server.url);
}

main().catch((err) => {
  console.error(err.stack || err);
  process.exit(1);
});
