'use strict';
// Output read by a reader that went away (`negotiate-h2 trust | head -1`) has ended: exit as cat
// does, with the exit code set so far and without a stack trace. For the commands that print
// to process.stdout: the server never touches it (see logger.js), its child processes do.

function endQuietlyOnEpipe() {
  process.stdout.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit();
  });
}

module.exports = { endQuietlyOnEpipe };
