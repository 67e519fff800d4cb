'use strict';
// The responses both floors (floor-tls.js over node:tls, floor-native-tls.js over the C
// transport) send, prebuilt at start: the root's .br variants with the header fields our server
// sends, keyed by request-target, and a 404 for any other target.
const fs = require('node:fs');
const path = require('node:path');

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };
const NOT_FOUND = Buffer.from('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n', 'latin1');

function prebuilt(root) {
  const responses = new Map();
  for (const name of fs.readdirSync(root)) {
    if (!name.endsWith('.br')) continue;
    const plain = name.slice(0, -3);
    const body = fs.readFileSync(path.join(root, name));
    const head = 'HTTP/1.1 200 OK\r\n' +
      `content-type: ${TYPES[path.extname(plain)] || 'application/octet-stream'}\r\n` +
      `content-length: ${body.length}\r\ncontent-encoding: br\r\nvary: Accept-Encoding\r\n` +
      `etag: "${body.length.toString(16)}-br"\r\ncache-control: public, max-age=0\r\n` +
      `date: ${new Date().toUTCString()}\r\n\r\n`;
    responses.set(`/${plain}`, Buffer.concat([Buffer.from(head, 'latin1'), body]));
  }
  return responses;
}

module.exports = { prebuilt, NOT_FOUND };
