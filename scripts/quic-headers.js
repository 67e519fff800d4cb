#!/usr/bin/env node
'use strict';
// `node scripts/quic-headers.js NODEDIR`: binding.gyp's test for the QUIC addon (native/quic/). It
// prints the include folder of Node headers that declare OpenSSL 3.5's QUIC server API: NODEDIR's
// own (node-gyp's headers, those of the Node building it), else those of a Node 22.20+ or 24
// runtime that scripts/node-runtime.js keeps in its cache. It prints nothing where there are none
// (the quic target is then skipped and native/quic.js's support() says why); it never downloads.

const fs = require('node:fs');
const path = require('node:path');
const { cacheRoot, newestCached } = require('./node-runtime');

// What only OpenSSL 3.5+'s ssl.h declares (the listener API).
const QUIC_SERVER = 'SSL_new_listener';

/** Whether the OpenSSL headers under `include` (Node's include/node) declare the QUIC server API. */
function declaresQuic(include) {
  const sslDir = path.join(include, 'openssl');
  if (!fs.existsSync(sslDir)) return false;
  // Node's ssl.h dispatches to per-architecture copies; any of them will do.
  const stack = [sslDir];
  while (stack.length > 0) {
    const dir = stack.pop();
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) stack.push(file);
      else if (entry.name === 'ssl.h' && fs.readFileSync(file, 'latin1').includes(QUIC_SERVER)) return true;
    }
  }
  return false;
}

const includeOf = (runtime) => path.join(runtime, 'package', 'include', 'node');

/** The Node runtimes in scripts/node-runtime.js's cache whose headers declare the QUIC server API, newest major first. */
function cachedQuicRuntimes(root = cacheRoot()) {
  return [24, 22].map((major) => newestCached(root, major)).filter((dir) => dir !== null && declaresQuic(includeOf(dir)));
}

/** The include folder to build the QUIC addon with, or null. */
function quicInclude(nodeDir, root = cacheRoot()) {
  const own = nodeDir && path.join(nodeDir, 'include', 'node');
  if (own && declaresQuic(own)) return own;
  const [runtime] = cachedQuicRuntimes(root);
  return runtime === undefined ? null : includeOf(runtime);
}

// binding.gyp drops NODEDIR's include/node from the quic target (the OpenSSL 3.0 headers of a Node
// 20 must not shadow 3.5's) by an exclusion that matches its path as written: the folder is
// printed as `DIR/.`, so that where it is NODEDIR's own the exclusion leaves it in.
if (require.main === module) {
  const include = quicInclude(process.argv[2]);
  process.stdout.write(include === null ? '' : `${include}/.`);
}

module.exports = { quicInclude, declaresQuic, cachedQuicRuntimes };
