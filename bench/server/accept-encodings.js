'use strict';
// The Accept-Encoding headers a row's load sends, rotated request by request:
// real clients' headers that lead every server in the comparison to the
// row's coding. Codings that no current client asks for on its own (zstd
// alone, lzma) are asked for by name.
const CLIENT_HEADERS = {
  chrome: 'gzip, deflate, br, zstd',
  firefox: 'gzip, deflate, br, zstd',
  safari: 'gzip, deflate, br',
  'curl --compressed': 'deflate, gzip, br, zstd',
  'python-requests': 'gzip, deflate',
  'curl (default)': null, // no Accept-Encoding at all
  identity: 'identity',
};

const CLIENTS_FOR_CODING = {
  br: ['chrome', 'firefox', 'safari', 'curl --compressed'],
  gzip: ['python-requests'],
  identity: ['curl (default)', 'identity'],
};

// [{ client, header }], header null for "send none".
function acceptEncodings(coding) {
  const clients = CLIENTS_FOR_CODING[coding];
  if (!clients) return [{ client: coding, header: coding }];
  return clients.map((client) => ({ client, header: CLIENT_HEADERS[client] }));
}

module.exports = { acceptEncodings, CLIENT_HEADERS };
