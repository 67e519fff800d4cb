'use strict';
// Reloads --cert/--key when either file changes (or on SIGHUP) by swapping the listening
// servers' secure context: open connections keep theirs, new handshakes get the new pair.
// Works for any tls.Server, so for http2.createSecureServer too (and the --metrics listener,
// which serves the same certificate).

const fs = require('node:fs');
const path = require('node:path');
const { readConfiguredPair } = require('./certs');

// Editors and `cp` write a file in several steps and renew both files one after the other:
// wait for the burst of events to settle before reading.
const DEBOUNCE_MS = 250;
// The server's TLS settings other than the pair: setSecureContext() resets whatever it is not
// given, so they are passed back unchanged.
const KEPT_SETTINGS = ['ca', 'crl', 'ciphers', 'sigalgs', 'ecdhCurve', 'dhparam', 'minVersion', 'maxVersion',
  'secureProtocol', 'secureOptions', 'honorCipherOrder', 'sessionIdContext', 'sessionTimeout'];

// Starts watching options.cert and options.key (nothing to do without them) for `servers`,
// which all serve that pair; returns stop().
function watchCertificates(servers, options, log) {
  if (!options.cert) return () => {};
  const files = [path.resolve(options.cert), path.resolve(options.key)];
  let current = { cert: servers[0].cert, key: servers[0].key };
  let timer = null;
  let running = Promise.resolve();

  async function reload(why) {
    let pair;
    try {
      pair = await readConfiguredPair(options);
    } catch (err) {
      log.error(`certificate reload after ${why}: ${err.message}; still serving the previous certificate`);
      return;
    }
    if (Buffer.from(pair.cert).equals(Buffer.from(current.cert)) && Buffer.from(pair.key).equals(Buffer.from(current.key))) return;
    for (const server of servers) {
      const kept = Object.fromEntries(KEPT_SETTINGS.filter((k) => server[k] !== undefined).map((k) => [k, server[k]]));
      // The same ticket keys, so clients resume their sessions across the reload.
      server.setSecureContext({ ...kept, ticketKeys: server.getTicketKeys(), cert: pair.cert, key: pair.key });
    }
    current = pair;
    log.info(`reloaded the certificate from ${options.cert} after ${why}`);
  }
  // One reload at a time, in order, so an older read never replaces a newer one.
  const queue = (why) => { running = running.then(() => reload(why)); };

  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => queue('a file change'), DEBOUNCE_MS);
  };
  // The directories are watched, not the files: an atomic replace (rename over the file) ends a
  // watch on the old inode but shows as an event on its directory.
  const watchers = [...new Set(files.map((f) => path.dirname(f)))].map((dir) => {
    const names = new Set(files.filter((f) => path.dirname(f) === dir).map((f) => path.basename(f)));
    const watcher = fs.watch(dir, { persistent: false }, (event, name) => {
      if (name === null || names.has(name)) schedule();
    });
    watcher.on('error', (err) => log.error(`watching ${dir} for certificate changes: ${err.message}`));
    return watcher;
  });
  const onHangup = () => queue('SIGHUP');
  process.on('SIGHUP', onHangup);

  return function stop() {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
    process.off('SIGHUP', onHangup);
  };
}

module.exports = { watchCertificates };
