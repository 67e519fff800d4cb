'use strict';
// FIFOs planted where the server opens files: made with mkfifo(1), and released afterwards so
// that a reader stuck in open() on one (the defect such a test looks for) cannot keep the test
// process from ending.

const fs = require('node:fs/promises');
const fsSync = require('node:fs');
const { execFileSync } = require('node:child_process');

function makeFifos(fifos) {
  for (const fifo of fifos) execFileSync('mkfifo', [fifo]);
}

// Opens each FIFO for reading and writing (which never blocks on Linux) and closes it: a
// reader stuck in open() on one gets its writer and is released.
async function releaseFifos(fifos) {
  for (const fifo of fifos) {
    const handle = await fs.open(fifo, fsSync.constants.O_RDWR | fsSync.constants.O_NONBLOCK).catch(() => null);
    await handle?.close();
  }
}

module.exports = { makeFifos, releaseFifos };
