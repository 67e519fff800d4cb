'use strict';
// The floor of HTTP/1.1 over the C transport (native/transport.js): the same prebuilt responses
// as the node:tls floor (bench/server/floor-tls.js), but sockets, TLS and finding each request's
// end are C on Node's event loop, and JS runs only at start. What it costs per request is what
// the transport costs by itself: the floor under the engines once they run on it (issue #21).
//   node bench/server/floor-native-tls.js --root DIR --port N --cert FILE --key FILE
const fs = require('node:fs');
const { parseArgs } = require('node:util');
const { floorListen } = require('../../native/transport');
const { prebuilt, NOT_FOUND } = require('./floor-responses');

function main() {
  const { values } = parseArgs({ options: { root: { type: 'string' }, port: { type: 'string' }, cert: { type: 'string' }, key: { type: 'string' } } });
  const server = floorListen({
    port: Number(values.port), cert: fs.readFileSync(values.cert), key: fs.readFileSync(values.key),
    responses: prebuilt(values.root), notFound: NOT_FOUND,
  });
  console.log(`https://127.0.0.1:${server.port}/`);
}

main();
