'use strict';
// Asks glibc in a process to give its free pages back (malloc_trim(0) through gdb), to tell
// memory malloc keeps free from memory in use. A diagnostic of the memory benchmarks: the server
// never calls it.
const { spawnSync } = require('node:child_process');

function mallocTrim(pid) {
  const gdb = spawnSync('gdb', ['-p', String(pid), '-batch', '-ex', 'call (int)malloc_trim(0)'], { encoding: 'utf8', timeout: 60_000 });
  if (gdb.error || !/^\$1 = [01]$/m.test(gdb.stdout)) throw new Error(`gdb could not call malloc_trim in ${pid}: ${gdb.error?.message ?? gdb.stderr.trim().split('\n').at(-1)}`);
}

module.exports = { mallocTrim };
